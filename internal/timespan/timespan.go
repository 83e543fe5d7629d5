// Package timespan reads the points in time and the spans the commands take (--since, --until, --tz,
// --now): a date in a zone (its midnight, or its whole day as an end), RFC 3339, or an age before now.
package timespan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --tz names an IANA zone on a machine with no zone files (Windows, a bare container)
)

// Span is a span of time and the zone its dates are read in, as --since, --until and --tz name them
// (`saverd sessions`, `blocks` and `report`).
type Span struct {
	Since, Until, TZ string // as given; "" for none

	From, To time.Time      // resolved; zero: unbounded
	Loc      *time.Location // resolved TZ; time.Local by default
}

// Resolve reads the span: TZ first, as the dates of Since and Until are days in that zone.
func (s *Span) Resolve(now time.Time) error {
	s.Loc = time.Local
	if s.TZ != "" {
		loc, err := time.LoadLocation(s.TZ)
		if err != nil {
			return fmt.Errorf("--tz: want an IANA zone name (Europe/Paris, UTC), got %q", s.TZ)
		}
		s.Loc = loc
	}
	if s.Since != "" {
		t, _, err := Parse(s.Since, now, s.Loc)
		if err != nil {
			return fmt.Errorf("--since: %w", err)
		}
		s.From = t
	}
	if s.Until != "" {
		t, day, err := Parse(s.Until, now, s.Loc)
		if err != nil {
			return fmt.Errorf("--until: %w", err)
		}
		if day {
			t = t.AddDate(0, 0, 1) // a date names its whole day
		}
		s.To = t
	}
	if !s.From.IsZero() && !s.To.IsZero() && !s.From.Before(s.To) {
		return fmt.Errorf("--until %s is not after --since %s", s.Until, s.Since)
	}
	return nil
}

// Overlaps: a session active in [start, end] was active within the span.
func (s *Span) Overlaps(start, end time.Time) bool {
	return (s.From.IsZero() || !end.Before(s.From)) && (s.To.IsZero() || start.Before(s.To))
}

// Within: the instant falls in the span [From, To).
func (s *Span) Within(t time.Time) bool {
	return (s.From.IsZero() || !t.Before(s.From)) && (s.To.IsZero() || t.Before(s.To))
}

// Unbounded reports whether the span keeps every time.
func (s *Span) Unbounded() bool { return s.From.IsZero() && s.To.IsZero() }

var errTime = errors.New("want a date (2026-11-01 or 20261101), RFC 3339 or an age (7d, 12h)")

// Parse reads a point in time: a date in loc (its midnight; day is true), RFC 3339, or an age before
// now in days (7d) or any Go duration.
func Parse(s string, now time.Time, loc *time.Location) (t time.Time, day bool, err error) {
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

// Since reads audit's --since: a local date, RFC 3339, or an age.
func Since(s string, now time.Time) (time.Time, error) {
	t, _, err := Parse(s, now, time.Local)
	if err != nil {
		return time.Time{}, fmt.Errorf("--since: %w", err)
	}
	return t, nil
}

// Now reads --now: RFC 3339, for a reproducible run; "" is the clock's now.
func Now(s string) (time.Time, error) {
	if s == "" {
		return time.Now(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now: want RFC 3339, got %q", s)
	}
	return t, nil
}
