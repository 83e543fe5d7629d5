package handlers

import (
	"path/filepath"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state"
)

// Values no host can mean: a time before 1970, a negative count or duration, a relative project or
// store directory (the rules would be written under wherever the daemon was started). decode refuses them,
// naming the member, as it refuses a member of the wrong type; params with no check accept any value.

// check refuses the values of decoded params no host can mean: every session method's `at`, and what
// each method's own members must be. tool.call's at is checked with the session (session.Table.CallOf),
// where both of its readers come, so the one-pass reader and the full decoder answer a bad one alike.
func check(v any) error {
	switch p := v.(type) {
	case session.ToolCallParams:
		return nil
	case session.InitializeParams:
		if p.StoreDir != "" && !filepath.IsAbs(p.StoreDir) {
			return rpc.InvalidParams("params.storeDir: want an absolute path, got %q", p.StoreDir)
		}
		return nil
	case session.SessionStartParams:
		return checkStart(p)
	case session.TurnCompleteParams:
		return checkTurn(p)
	}
	if h, ok := v.(interface{ Ref() session.Hook }); ok {
		return atLeastZero("at", h.Ref().At)
	}
	return nil
}

func checkStart(p session.SessionStartParams) error {
	if err := atLeastZero("at", p.At); err != nil {
		return err
	}
	if p.Cwd != "" && !filepath.IsAbs(p.Cwd) {
		return rpc.InvalidParams("params.cwd: want an absolute path, got %q", p.Cwd)
	}
	if p.Usage != nil {
		return checkUsage("usage", p.Usage.Usage)
	}
	return nil
}

func checkTurn(p session.TurnCompleteParams) error {
	if err := atLeastZero("at", p.At); err != nil {
		return err
	}
	if p.DurationMs < 0 {
		return rpc.InvalidParams("params.durationMs: want a duration in ms ≥ 0, got %d", p.DurationMs)
	}
	if u := p.Usage; u != nil {
		for _, c := range []struct {
			name string
			n    int64
		}{{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens}, {"cache_read_input_tokens", u.CacheReadInputTokens}, {"cache_creation_input_tokens", u.CacheCreationInputTokens}} {
			if c.n < 0 {
				return rpc.InvalidParams("params.usage.%s: want a token count ≥ 0, got %d", c.name, c.n)
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
		return rpc.InvalidParams("params.%s.window: want a token count ≥ 0, got %d", name, u.Window)
	}
	if u.Percent != nil && *u.Percent < 0 {
		return rpc.InvalidParams("params.%s.percent: want a percentage ≥ 0, got %v", name, *u.Percent)
	}
	if err := atLeastZero(name+".tokens", u.Tokens); err != nil {
		return err
	}
	return atLeastZero(name+".compactAt", u.CompactAt)
}

// atLeastZero refuses a given integer below 0.
func atLeastZero(name string, v *int64) error {
	if v != nil && *v < 0 {
		return rpc.InvalidParams("params.%s: want a value ≥ 0, got %d", name, *v)
	}
	return nil
}
