package session

import (
	"path/filepath"

	"github.com/saverd/saverd/state"
)

// Values no host can mean: a time before 1970, a negative count or duration, a relative project or
// store directory (the rules would be written under wherever the daemon was started). The API refuses
// them before it changes or loads anything, as an Invalid error naming the member (`params.cwd: …`), so a
// caller that holds no JSON meets the refusals the wire answers with -32602; params with no check
// accept any value. tool.call's at is checked by CallOf, where both of its readers come.

// sessionOf is the session a method's params name, once their at is checked: what every method that
// names a session and a time, and nothing the API must check before it, starts with.
func (s *Table) sessionOf(h Hook) (*Session, error) {
	if err := atLeastZero("at", h.At); err != nil {
		return nil, err
	}
	return s.Session(h.SessionID)
}

// checkStoreDir refuses a relative registry directory.
func checkStoreDir(p InitializeParams) error {
	if p.StoreDir != "" && !filepath.IsAbs(p.StoreDir) {
		return invalid("params.storeDir: want an absolute path, got %q", p.StoreDir)
	}
	return nil
}

// checkStart refuses session.start's values no host can mean: at, a relative cwd, the window sample.
func checkStart(p SessionStartParams) error {
	if err := atLeastZero("at", p.At); err != nil {
		return err
	}
	if p.Cwd != "" && !filepath.IsAbs(p.Cwd) {
		return invalid("params.cwd: want an absolute path, got %q", p.Cwd)
	}
	if p.Usage != nil {
		return checkUsage("usage", p.Usage.Usage)
	}
	return nil
}

// checkTurn refuses turn.complete's values no host can mean: at, the duration, the billed counts, the
// window sample after the turn.
func checkTurn(p TurnCompleteParams) error {
	if err := atLeastZero("at", p.At); err != nil {
		return err
	}
	if p.DurationMs < 0 {
		return invalid("params.durationMs: want a duration in ms ≥ 0, got %d", p.DurationMs)
	}
	if u := p.Usage; u != nil {
		for _, c := range []struct {
			name string
			n    int64
		}{{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens}, {"cache_read_input_tokens", u.CacheReadInputTokens}, {"cache_creation_input_tokens", u.CacheCreationInputTokens}} {
			if c.n < 0 {
				return invalid("params.usage.%s: want a token count ≥ 0, got %d", c.name, c.n)
			}
		}
	}
	if p.Context != nil {
		return checkUsage("context", *p.Context)
	}
	return nil
}

// checkUsage: a window sample's counts are not negative.
func checkUsage(name string, u state.Usage) error {
	if u.Window < 0 {
		return invalid("params.%s.window: want a token count ≥ 0, got %d", name, u.Window)
	}
	if u.Percent != nil && *u.Percent < 0 {
		return invalid("params.%s.percent: want a percentage ≥ 0, got %v", name, *u.Percent)
	}
	if err := atLeastZero(name+".tokens", u.Tokens); err != nil {
		return err
	}
	return atLeastZero(name+".compactAt", u.CompactAt)
}

// atLeastZero refuses a given integer below 0.
func atLeastZero(name string, v *int64) error {
	if v != nil && *v < 0 {
		return invalid("params.%s: want a value ≥ 0, got %d", name, *v)
	}
	return nil
}
