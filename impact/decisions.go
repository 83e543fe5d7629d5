package impact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"regexp"
	"time"

	"github.com/saverd/saverd/internal/safefile"
)

// decisionLine is one line of decisions.jsonl, the decide log.
type decisionLine struct {
	Point         string             `json:"point"`
	Subject       string             `json:"subject"`
	Probabilities map[string]float64 `json:"probabilities"`
	TS            string             `json:"ts"`
}

type decision struct {
	p  float64
	ts time.Time
}

// readDecisions returns link_p per subject (L-decided): commit_link lines
// only, the latest ts per subject wins, and on equal ts the later line wins
// (Decide writes whole seconds). p is probabilities[LinkOption], 0 when
// missing. A file that does not exist yet holds no decisions; any other read
// failure and every bad line is a warning naming the file.
func readDecisions(path string) (map[string]float64, []string) {
	out := make(map[string]float64)
	if path == "" {
		return out, nil
	}
	f, err := openInput(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, []string{fmt.Sprintf("decisions %s: %v (no decision applied)", path, err)}
	}
	defer f.Close()
	latest := make(map[string]decision)
	var warn []string
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, tooLong, err := safefile.ReadLine(r, maxLine)
		if tooLong {
			warn = append(warn, lineTooLong(path, n))
		} else if len(bytes.TrimSpace(line)) > 0 {
			subject, d, ok, perr := parseDecision(line)
			switch {
			case perr != nil:
				warn = append(warn, fmt.Sprintf("%s:%d: %v, line skipped", path, n, perr))
			case ok:
				if prev, seen := latest[subject]; !seen || !d.ts.Before(prev.ts) {
					latest[subject] = d
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			warn = append(warn, fmt.Sprintf("decisions %s: unreadable from line %d: %v (later decisions not applied)", path, n, err))
			break
		}
	}
	for s, d := range latest {
		out[s] = d.p
	}
	return out, warn
}

// parseDecision returns ok=false for well-formed lines of other points.
func parseDecision(line []byte) (subject string, d decision, ok bool, err error) {
	var l decisionLine
	if err := json.Unmarshal(line, &l); err != nil {
		return "", d, false, fmt.Errorf("bad JSON: %w", err)
	}
	if l.Point != DecisionPoint {
		return "", d, false, nil
	}
	if l.Subject == "" {
		return "", d, false, errors.New("missing subject")
	}
	ts, err := time.Parse(time.RFC3339Nano, l.TS)
	if err != nil {
		return "", d, false, fmt.Errorf("subject %s: bad ts: %w", l.Subject, err)
	}
	p := l.Probabilities[LinkOption]
	if !validP(p) {
		return "", d, false, fmt.Errorf("subject %s: probability %v outside [0, 1]", l.Subject, p)
	}
	return l.Subject, decision{p: p, ts: ts}, true, nil
}

func validP(p float64) bool { return p >= 0 && p <= 1 } // false for NaN too

// ErrInvalidDecision marks a decision Decide refuses to write: a subject
// not shaped like L-subject or a probability outside [0, 1].
var ErrInvalidDecision = errors.New("invalid decision")

// subjectPattern is the shape L-subject produces: <session_id>:<8 hex>.
var subjectPattern = regexp.MustCompile(`^.+:[0-9a-f]{8}$`)

// Decide appends a commit_link decision for subject to the decide log at
// path, creating it if needed: probabilities {yes: yes, no: 1 − yes}, ts =
// now in RFC 3339 (UTC). One write per line keeps concurrent appends whole.
func Decide(path, subject string, yes float64, now time.Time) error {
	if path == "" {
		return fmt.Errorf("decide: %w: no decisions file given", ErrInvalidDecision)
	}
	if !subjectPattern.MatchString(subject) {
		return fmt.Errorf("decide: %w: subject %q is not <session_id>:<8 hex digits>", ErrInvalidDecision, subject)
	}
	if !validP(yes) {
		return fmt.Errorf("decide: %w: probability %v outside [0, 1]", ErrInvalidDecision, yes)
	}
	line := struct {
		Point         string `json:"point"`
		Subject       string `json:"subject"`
		Probabilities struct {
			Yes float64 `json:"yes"`
			No  float64 `json:"no"`
		} `json:"probabilities"`
		TS string `json:"ts"`
	}{Point: DecisionPoint, Subject: subject, TS: now.UTC().Format(time.RFC3339)}
	line.Probabilities.Yes = yes
	// 1 − 0.8 is 0.19999999999999996 in binary; people read this file.
	line.Probabilities.No = math.Round((1-yes)*1e12) / 1e12
	b, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("decide: append to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("decide: close %s: %w", path, err)
	}
	return nil
}
