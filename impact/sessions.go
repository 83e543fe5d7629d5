package impact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/saverd/saverd/internal/safefile"
)

// session is one agent session as the sessions JSONL files record it.
type session struct {
	ID      string
	Harness string
	Repo    string // "" when the record's repo is null
	Project string // "" when the record's project is null
	Start   time.Time
	End     time.Time
	Calls   int
	Tools   map[string]int
	Cost    float64 // cost.total in USD
}

// sessionLine is the wire form of one sessions JSONL line.
type sessionLine struct {
	SessionID string         `json:"session_id"`
	Harness   string         `json:"harness"`
	Repo      *string        `json:"repo"`
	Project   *string        `json:"project"`
	Start     string         `json:"start"`
	End       string         `json:"end"`
	Calls     int            `json:"calls"`
	Tools     map[string]int `json:"tools"`
	Cost      *struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

// readSessions reads every file in order. A file that cannot be read and a
// line that cannot be used become warnings; the rest is returned. A session
// id seen twice keeps its first record, so no session's cost counts twice.
func readSessions(paths []string) ([]session, []string) {
	var (
		out  []session
		warn []string
		seen = make(map[string]string) // session id → where it was first read
	)
	for _, p := range paths {
		ss, w := readSessionFile(p)
		warn = append(warn, w...)
		for _, s := range ss {
			if first, dup := seen[s.ID]; dup {
				warn = append(warn, fmt.Sprintf("sessions %s: duplicate session_id %q (first in %s), skipped", p, s.ID, first))
				continue
			}
			seen[s.ID] = p
			out = append(out, s)
		}
	}
	return out, warn
}

func readSessionFile(path string) ([]session, []string) {
	f, err := openInput(path)
	if err != nil {
		return nil, []string{fmt.Sprintf("sessions %s: %v", path, err)}
	}
	defer f.Close()
	var (
		out  []session
		warn []string
	)
	// A line past maxLine is skipped with a warning rather than read whole
	// (a file of zeros grew without bound), and hides none of the lines after it.
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, tooLong, err := safefile.ReadLine(r, maxLine)
		if tooLong {
			warn = append(warn, lineTooLong(path, n))
		} else if len(bytes.TrimSpace(line)) > 0 {
			s, perr := parseSession(line)
			if perr != nil {
				warn = append(warn, fmt.Sprintf("%s:%d: %v, line skipped", path, n, perr))
			} else {
				out = append(out, s)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			warn = append(warn, fmt.Sprintf("sessions %s: line %d: %v, rest of file skipped", path, n, err))
			break
		}
	}
	return out, warn
}

// parseSession validates one line. It rejects what would make the rules
// meaningless: no id, unparsable or inverted times, negative counts or cost.
func parseSession(line []byte) (session, error) {
	var l sessionLine
	if err := json.Unmarshal(line, &l); err != nil {
		return session{}, fmt.Errorf("bad JSON: %w", err)
	}
	if l.SessionID == "" {
		return session{}, errors.New("missing session_id")
	}
	start, err := time.Parse(time.RFC3339Nano, l.Start)
	if err != nil {
		return session{}, fmt.Errorf("session %s: bad start: %w", l.SessionID, err)
	}
	end, err := time.Parse(time.RFC3339Nano, l.End)
	if err != nil {
		return session{}, fmt.Errorf("session %s: bad end: %w", l.SessionID, err)
	}
	if end.Before(start) {
		return session{}, fmt.Errorf("session %s: end %s before start %s", l.SessionID, l.End, l.Start)
	}
	if l.Calls < 0 {
		return session{}, fmt.Errorf("session %s: negative calls", l.SessionID)
	}
	s := session{
		ID:      l.SessionID,
		Harness: l.Harness,
		Repo:    deref(l.Repo),
		Project: deref(l.Project),
		Start:   start,
		End:     end,
		Calls:   l.Calls,
		Tools:   l.Tools,
	}
	if l.Cost != nil {
		if l.Cost.Total < 0 {
			return session{}, fmt.Errorf("session %s: negative cost", l.SessionID)
		}
		s.Cost = l.Cost.Total
	}
	return s, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// window is L-window: [start − PRE_MIN, end + POST_MIN], inclusive.
func (s *session) window() (lo, hi time.Time) {
	return s.Start.Add(-PreMin), s.End.Add(PostMin)
}

func (s *session) holds(ts time.Time) bool {
	lo, hi := s.window()
	return !ts.Before(lo) && !ts.After(hi)
}

// distance is the L-assign distance: 0 inside [start, end], else the time to
// the nearer edge.
func (s *session) distance(ts time.Time) time.Duration {
	switch {
	case ts.Before(s.Start):
		return s.Start.Sub(ts)
	case ts.After(s.End):
		return ts.Sub(s.End)
	}
	return 0
}
