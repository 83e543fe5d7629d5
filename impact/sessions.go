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
	// Cost is what the session cost in USD, all told: cost.total, and judge.cost, what saverd's own judge
	// and process forks spent on it (a fork is never a session of its own, so its spend is its parent's).
	Cost float64
	// JudgeCost is judge.cost, the part of Cost saverd's forks spent.
	JudgeCost float64
	// costUnknown, judgeUnknown: the record's cost.total, judge.cost was null (a call without a price);
	// it counts 0.
	costUnknown, judgeUnknown bool
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
		Total *float64 `json:"total"`
	} `json:"cost"`
	Judge *struct {
		Cost *float64 `json:"cost"`
	} `json:"judge"`
}

// foundLabel names the records the caller read from the agents' own logs in warnings.
const foundLabel = "agent logs"

// readSessions reads the records found in the agents' logs, then every file in
// order. A file that cannot be read and a line that cannot be used become
// warnings; the rest is returned. A session id seen twice keeps its first
// record, so no session's cost counts twice; a file's record of a session the
// agents' logs already gave is the same session seen twice over and is skipped
// without a word (the daemon's sessions log repeats what it read from them).
func readSessions(found []json.RawMessage, paths []string) ([]session, []string) {
	var (
		out  []session
		warn []string
		seen = make(map[string]string) // session id → where it was first read
	)
	for i, raw := range found {
		s, err := parseSession(raw)
		if err != nil {
			warn = append(warn, fmt.Sprintf("%s: record %d: %v, skipped", foundLabel, i+1, err))
			continue
		}
		if _, dup := seen[s.ID]; dup {
			continue
		}
		seen[s.ID] = foundLabel
		warn = append(warn, sessionWarnings(&s, foundLabel)...)
		out = append(out, s)
	}
	for _, p := range paths {
		ss, w := readSessionFile(p)
		warn = append(warn, w...)
		for _, s := range ss {
			if first, dup := seen[s.ID]; dup {
				if first != foundLabel {
					warn = append(warn, fmt.Sprintf("sessions %s: duplicate session_id %q (first in %s), skipped", p, s.ID, first))
				}
				continue
			}
			seen[s.ID] = p
			warn = append(warn, sessionWarnings(&s, p)...)
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
		if l.Cost.Total == nil {
			s.costUnknown = true
		} else if *l.Cost.Total < 0 {
			return session{}, fmt.Errorf("session %s: negative cost", l.SessionID)
		} else {
			s.Cost = *l.Cost.Total
		}
	}
	if l.Judge != nil {
		if l.Judge.Cost == nil {
			s.judgeUnknown = true
		} else if *l.Judge.Cost < 0 {
			return session{}, fmt.Errorf("session %s: negative judge cost", l.SessionID)
		} else {
			s.JudgeCost = *l.Judge.Cost
			s.Cost += s.JudgeCost
		}
	}
	return s, nil
}

// sessionWarnings are what a usable record still gets said about it: a
// harness id no trailer names (a typo such as "claude" for "claude-code"
// would silently keep its trailer commits from linking) and a null cost.
func sessionWarnings(s *session, from string) []string {
	var warn []string
	if !KnownHarness(s.Harness) {
		warn = append(warn, fmt.Sprintf("%s: session %s: harness %q is not a known harness id (%s): no agent trailer names it, so only window links can reach it",
			from, s.ID, s.Harness, strings.Join(KnownHarnesses(), ", ")))
	}
	if s.costUnknown {
		warn = append(warn, fmt.Sprintf("%s: session %s: cost.total is null (a model without a price): its cost counts as 0", from, s.ID))
	}
	if s.judgeUnknown {
		warn = append(warn, fmt.Sprintf("%s: session %s: judge.cost is null (a fork of a model without a price): its judge spend counts as 0", from, s.ID))
	}
	return warn
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
