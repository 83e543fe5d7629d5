package timespan

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 12, 3, 13, 30, 0, 0, time.UTC)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   string
		loc  *time.Location
		want time.Time
		day  bool
		err  string
	}{
		{"2026-11-01", time.UTC, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), true, ""},
		{"20261101", tokyo, time.Date(2026, 11, 1, 0, 0, 0, 0, tokyo), true, ""},
		{"2026-11-01T10:00:00+02:00", tokyo, time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), false, ""},
		{"7d", time.UTC, now.AddDate(0, 0, -7), false, ""},
		{"12h", time.UTC, now.Add(-12 * time.Hour), false, ""},
		{"-1d", time.UTC, time.Time{}, false, "want a date"},
		{"soon", time.UTC, time.Time{}, false, `got "soon"`},
	} {
		got, day, err := Parse(tc.in, now, tc.loc)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !got.Equal(tc.want) || day != tc.day {
			t.Errorf("%s: %v %v %v, want %v %v", tc.in, got, day, err, tc.want, tc.day)
		}
	}
}

// TestSpan: --until's date names its whole day, the zone is read first, and a span that ends before it
// starts is refused.
func TestSpan(t *testing.T) {
	now := time.Date(2026, 12, 3, 13, 30, 0, 0, time.UTC)
	s := Span{Since: "2026-11-01", Until: "2026-11-30", TZ: "UTC"}
	if err := s.Resolve(now); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   time.Time
		want bool
	}{
		{time.Date(2026, 10, 31, 23, 59, 0, 0, time.UTC), false},
		{time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC), true},
		{time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		if got := s.Within(tc.at); got != tc.want {
			t.Errorf("Within(%v) = %v", tc.at, got)
		}
	}
	if !s.Overlaps(time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 1, 0, 0, 0, time.UTC)) || s.Unbounded() {
		t.Error("a session that ran into the span is outside it")
	}
	for _, bad := range []Span{{TZ: "Mars/Olympus"}, {Since: "2026-12-02", Until: "2026-12-01"}, {Until: "tomorrow"}} {
		if err := bad.Resolve(now); err == nil {
			t.Errorf("%+v resolved", bad)
		}
	}
	var all Span
	if err := all.Resolve(now); err != nil || !all.Unbounded() || all.Loc != time.Local {
		t.Errorf("no flags: %+v %v", all, err)
	}
	if got, err := Now(""); err != nil || time.Since(got) > time.Minute {
		t.Errorf("Now(\"\") = %v %v", got, err)
	}
	if _, err := Now("yesterday"); err == nil || !strings.Contains(err.Error(), "--now") {
		t.Errorf("Now(yesterday): %v", err)
	}
}
