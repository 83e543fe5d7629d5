package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --tz names an IANA zone on a machine with no zone files (Windows, a bare container)
)

// timeFlags are the flags that choose a span of time and the zone its dates are read in, shared by
// `saverd sessions`, `saverd blocks` and `saverd report`.
type timeFlags struct {
	since, until, tz string

	from, to time.Time      // resolved; zero: unbounded
	loc      *time.Location // resolved --tz; time.Local by default
}

func (f *timeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.since, "since", "", "")
	fs.StringVar(&f.until, "until", "", "")
	fs.StringVar(&f.tz, "tz", "", "")
}

// resolve reads the flags: --tz first, as the dates of --since and --until are days in that zone.
func (f *timeFlags) resolve(now time.Time) error {
	f.loc = time.Local
	if f.tz != "" {
		loc, err := time.LoadLocation(f.tz)
		if err != nil {
			return fmt.Errorf("--tz: want an IANA zone name (Europe/Paris, UTC), got %q", f.tz)
		}
		f.loc = loc
	}
	if f.since != "" {
		t, _, err := parseTime(f.since, now, f.loc)
		if err != nil {
			return fmt.Errorf("--since: %w", err)
		}
		f.from = t
	}
	if f.until != "" {
		t, day, err := parseTime(f.until, now, f.loc)
		if err != nil {
			return fmt.Errorf("--until: %w", err)
		}
		if day {
			t = t.AddDate(0, 0, 1) // a date names its whole day
		}
		f.to = t
	}
	if !f.from.IsZero() && !f.to.IsZero() && !f.from.Before(f.to) {
		return fmt.Errorf("--until %s is not after --since %s", f.until, f.since)
	}
	return nil
}

// overlaps: a session active in [start, end] was active within the span.
func (f *timeFlags) overlaps(start, end time.Time) bool {
	return (f.from.IsZero() || !end.Before(f.from)) && (f.to.IsZero() || start.Before(f.to))
}

// within: the instant falls in the span [from, to).
func (f *timeFlags) within(t time.Time) bool {
	return (f.from.IsZero() || !t.Before(f.from)) && (f.to.IsZero() || t.Before(f.to))
}

var errTime = errors.New("want a date (2026-11-01 or 20261101), RFC 3339 or an age (7d, 12h)")

// parseTime reads a point in time: a date in loc (its midnight; day is true), RFC 3339, or an age before
// now in days (7d) or any Go duration.
func parseTime(s string, now time.Time, loc *time.Location) (t time.Time, day bool, err error) {
	for _, layout := range []string{time.DateOnly, "20060102"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true, nil
		}
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, false, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d >= 0 {
			return now.AddDate(0, 0, -d), false, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), false, nil
	}
	return time.Time{}, false, fmt.Errorf("%w, got %q", errTime, s)
}

// parseSince reads audit's --since: a local date, RFC 3339, or an age.
func parseSince(s string, now time.Time) (time.Time, error) {
	t, _, err := parseTime(s, now, time.Local)
	if err != nil {
		return time.Time{}, fmt.Errorf("--since: %w", err)
	}
	return t, nil
}

// parseNow reads --now: RFC 3339, for a reproducible run; "" is the clock's now.
func parseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Now(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now: want RFC 3339, got %q", s)
	}
	return t, nil
}
