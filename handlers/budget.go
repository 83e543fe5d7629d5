package handlers

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
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// ProjectSettings is the file a project keeps saverd's settings in, at its root.
const ProjectSettings = ".saverd.json"

// checkBudget refuses a judgeBudget that is no share of a session's tokens.
func checkBudget(b *float64) error {
	if b != nil && !validBudget(*b) {
		return rpc.InvalidParams("params.judgeBudget: want a share of the session's tokens in 0..1 (0.05 is 5%%), got %v", *b)
	}
	return nil
}

func validBudget(b float64) bool { return !math.IsNaN(b) && b >= 0 && b <= 1 }

// budgetFor is the cap a session in cwd runs under: its own session.start param, else the project's
// .saverd.json, else the host's initialize param, else JudgeBudgetDefault. A settings file that cannot be
// read or holds no valid budget is logged and skipped: the session starts under the next one down.
func (s *Server) budgetFor(cwd string, own *float64) float64 {
	if own != nil {
		return *own
	}
	project, err := projectBudget(cwd)
	if err != nil {
		s.log.Warn().Err(err).Str("cwd", cwd).Msg("project judge budget skipped")
	}
	if project != nil {
		return *project
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

// projectBudget reads `judgeBudget` from cwd's .saverd.json: nil when the file or the field is absent.
func projectBudget(cwd string) (*float64, error) {
	path := filepath.Join(cwd, ProjectSettings)
	// The project's file, read as a session starts: a regular file only (a FIFO would hold the start for
	// good), small, within fileReadTimeout.
	data, err := safefile.ReadWithin(path, projectSettingsMax, fileReadTimeout)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var settings struct {
		JudgeBudget *float64 `json:"judgeBudget"`
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %w", path, err)
	}
	if settings.JudgeBudget != nil && !validBudget(*settings.JudgeBudget) {
		return nil, fmt.Errorf("%s: judgeBudget %v is not a share in 0..1", path, *settings.JudgeBudget)
	}
	return settings.JudgeBudget, nil
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
