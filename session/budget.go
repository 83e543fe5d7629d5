package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state"
)

// ProjectSettings is the file a project keeps saverd's settings in, at its root.
const ProjectSettings = ".saverd.json"

// checkBudget refuses a judgeBudget that is no share of a session's tokens.
func checkBudget(b *float64) error {
	if b != nil && !validBudget(*b) {
		return invalid("params.judgeBudget: want a share of the session's tokens in 0..1 (0.05 is 5%%), got %v", *b)
	}
	return nil
}

func validBudget(b float64) bool { return !math.IsNaN(b) && b >= 0 && b <= 1 }

// settingsFor is what a session in cwd runs under: the judges' budget and whether the detectors run
// live (detectorsOn). The project's .saverd.json is read once for both; a file that cannot be read or
// parsed is logged and skipped, and so is a field that means nothing.
func (s *Table) settingsFor(cwd string, own *float64, hook bool) (budget float64, detectors bool) {
	project, err := readProjectSettings(cwd)
	if err != nil {
		s.log.Warn().Err(err).Str("cwd", cwd).Msg("project settings skipped")
	}
	return s.budgetFor(project, own), s.detectorsOn(project, hook)
}

// budgetFor is the cap a session runs under: its own session.start param, else the project's
// .saverd.json, else the host's initialize param, else JudgeBudgetDefault.
func (s *Table) budgetFor(project projectSettings, own *float64) float64 {
	if own != nil {
		return *own
	}
	if project.JudgeBudget != nil {
		return *project.JudgeBudget
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.budget != nil {
		return *s.budget
	}
	return state.JudgeBudgetDefault
}

// projectSettingsMax bounds .saverd.json: it holds a setting or two.
const projectSettingsMax = 1 << 20

// detectorsOn says whether a session's detectors run at each turn's end: a hook session's do unless its
// project's .saverd.json says `"detectors": false`; a host's only when its initialize asked for them
// (the seed had none, and a host that did not ask keeps its behaviour), and the project's false still
// turns them off.
func (s *Table) detectorsOn(project projectSettings, hook bool) bool {
	if project.Detectors != nil && !*project.Detectors {
		return false
	}
	if hook {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.detectors
}

// projectSettings is what a project's .saverd.json sets; a field it leaves out is nil.
type projectSettings struct {
	JudgeBudget *float64 `json:"judgeBudget"`
	Detectors   *bool    `json:"detectors"`
}

// readProjectSettings reads cwd's .saverd.json: nothing set when the file is absent. A file that cannot
// be read or parsed sets nothing; a judgeBudget outside 0..1 is left out, the rest kept.
func readProjectSettings(cwd string) (projectSettings, error) {
	path := filepath.Join(cwd, ProjectSettings)
	// The project's file, read as a session starts: a regular file only (a FIFO would hold the start for
	// good), small, within fileReadTimeout.
	data, err := safefile.ReadWithin(path, projectSettingsMax, fileReadTimeout)
	if errors.Is(err, fs.ErrNotExist) {
		return projectSettings{}, nil
	}
	if err != nil {
		return projectSettings{}, fmt.Errorf("read %s: %w", path, err)
	}
	var settings projectSettings
	if err := json.Unmarshal(data, &settings); err != nil {
		return projectSettings{}, fmt.Errorf("%s is not valid JSON: %w", path, err)
	}
	if b := settings.JudgeBudget; b != nil && !validBudget(*b) {
		settings.JudgeBudget = nil
		return settings, fmt.Errorf("%s: judgeBudget %v is not a share in 0..1", path, *b)
	}
	return settings, nil
}

// budgetNote is what a `/saver check` past the cap adds to its answer: the run goes ahead, because the
// person asked, and the automatic ones stay stopped.
func budgetNote(b state.Budget) string {
	return " (the judge budget is spent: " + jstext.Kilo(float64(b.Spent)) + " of " + jstext.Kilo(float64(b.Allowed)) +
		" tokens, " + pctText(b.Share) + " of the session; automatic checks wait until the session spends more)"
}

// pctText is a share as a percentage, at most one decimal: 0.05 is `5%`.
func pctText(share float64) string {
	return strconv.FormatFloat(math.Round(share*1000)/10, 'f', -1, 64) + "%"
}
