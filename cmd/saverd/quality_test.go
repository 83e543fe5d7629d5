package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/audit"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state/detect"
)

// The floors each detector must keep on the labelled set. Precision: every waste it names must be
// labelled waste — a wrong card interrupts correct work and teaches a bad rule, so one is a failure.
// Recall: the set also holds real waste each detector leaves alone on purpose (`beyond`: a re-read or a
// search in a later turn, which may follow an edit the person made by hand; a whole-suite run when the
// session never named the edited file's test), so recall is below 1 by design; the floor is what the
// set holds now, and a detector that stops naming a case it names today fails.
const (
	precisionFloor = 1.0
	recallFloor    = 0.6
)

// score is one detector's tally over the set, in rows: a named waste row labelled its waste, a named
// one not labelled so, a labelled one not named.
type score struct{ tp, fp, fn int }

func (s score) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s score) recall() float64    { return ratio(s.tp, s.tp+s.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestDetectorQuality audits every labelled session as `saverd audit` does (the log read back, the rows
// rebuilt, the detectors run over them) and scores each detector's waste rows against the labels.
func TestDetectorQuality(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "labelled", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no labelled sessions: %v", err)
	}
	scores := map[detect.Detector]*score{}
	for _, d := range detect.Detectors {
		scores[d] = &score{}
	}
	labelled, lookalikes := 0, 0
	for _, file := range files {
		s := readLabelled(t, file)
		found := auditLabelled(t, s, strings.TrimSuffix(filepath.Base(file), ".json"))
		named := map[string]detect.Detector{}
		for _, f := range found {
			for _, id := range f.Waste {
				named[id] = f.Detector
			}
		}
		for _, c := range s.calls {
			if c.Like != "" {
				lookalikes++
			}
			got, want := named[c.id], detect.Detector(c.Waste)
			if want != "" {
				labelled++
				if _, ok := scores[want]; !ok {
					t.Fatalf("%s: %s is labelled %q, no detector of that name", file, c.id, c.Waste)
				}
			}
			switch {
			case got != "" && got == want:
				scores[got].tp++
			case got != "":
				scores[got].fp++
				t.Errorf("%s: %s (%s %v) named %s waste; labelled %q", filepath.Base(file), c.id, c.Tool, c.Input, got, c.Waste)
				if want != "" {
					scores[want].fn++
				}
			case want != "":
				scores[want].fn++
				if !c.Beyond {
					t.Errorf("%s: %s (%s %v) is %s waste, not named", filepath.Base(file), c.id, c.Tool, c.Input, want)
				}
			}
			if c.Beyond && got == want {
				t.Errorf("%s: %s is marked beyond %s's reach, and it named it: the label is out of date", filepath.Base(file), c.id, want)
			}
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%d sessions, %d waste rows labelled, %d look-alikes\n", len(files), labelled, lookalikes)
	fmt.Fprintf(&table, "%-8s %4s %4s %4s %9s %7s\n", "detector", "tp", "fp", "fn", "precision", "recall")
	for _, d := range detect.Detectors {
		s := scores[d]
		fmt.Fprintf(&table, "%-8s %4d %4d %4d %9.2f %7.2f\n", d, s.tp, s.fp, s.fn, s.precision(), s.recall())
		if s.tp+s.fn == 0 {
			t.Errorf("%s: the set labels no waste of it", d)
		}
		if s.precision() < precisionFloor || s.recall() < recallFloor {
			t.Errorf("%s: precision %.2f recall %.2f, under the floor %.2f / %.2f", d, s.precision(), s.recall(), precisionFloor, recallFloor)
		}
	}
	t.Log("\n" + table.String())
}

// auditLabelled writes a labelled session as its harness's log and runs the detectors over it as the
// audit does.
func auditLabelled(t *testing.T, s *labelled, name string) []detect.Finding {
	t.Helper()
	path := s.write(t, t.TempDir(), name)
	h, ok := all.Owner(path)
	if !ok {
		t.Fatalf("%s: no harness owns %s", name, path)
	}
	tr, err := h.History(path, "", agentlog.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(tr.Warnings) > 0 {
		t.Errorf("%s: %v", name, tr.Warnings)
	}
	st := audit.Replay(tr, bridge.ModelWindow(tr.Model), prices.Default())
	if len(st.Rows) != len(s.calls) {
		t.Fatalf("%s: %d rows rebuilt from %d calls", name, len(st.Rows), len(s.calls))
	}
	for i := range st.Rows {
		if !slices.ContainsFunc(s.calls, func(c *labelledCall) bool { return c.id == st.Rows[i].ID }) {
			t.Fatalf("%s: row %s is no call of the session", name, st.Rows[i].ID)
		}
	}
	return detect.Run(audit.DetectSession(tr, st))
}
