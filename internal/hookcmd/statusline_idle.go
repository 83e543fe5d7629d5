package hookcmd

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// IdleLine is the status line when no daemon answers for the session (none runs, it refused us, or it
// does not hold the session): what Claude Code's status line input tells on its own — the model, the
// share of the context window in use and the session's cost — after "saverd idle", so the line says
// why there is no band instead of going blank. A field the input lacks (before the first call Claude
// Code sends no usage) is left out; input that is not JSON still gives "saverd idle".
func IdleLine(payload []byte) string { return aloneLine("saverd idle", payload) }

// HungLine is IdleLine for a daemon that is running but did not read the status line's request (stopped
// or wedged): "idle" would read as all being well while saverd records nothing.
func HungLine(payload []byte) string {
	return aloneLine("saverd not answering (saverd doctor)", payload)
}

// aloneLine is what the status line input tells on its own, after head.
func aloneLine(head string, payload []byte) string {
	var in struct {
		Model *struct {
			ID          string `json:"id"`
			DisplayName string `json:"display_name"`
		} `json:"model"`
		ContextWindow *statusWindow `json:"context_window"`
		Cost          *struct {
			TotalUSD *float64 `json:"total_cost_usd"`
		} `json:"cost"`
	}
	parts := []string{head}
	if json.Unmarshal(payload, &in) != nil {
		return parts[0]
	}
	if m := in.Model; m != nil {
		name := m.DisplayName
		if name == "" {
			name = m.ID
		}
		if name = oneLine(name); name != "" {
			parts = append(parts, name)
		}
	}
	if pct, ok := contextUsed(in.ContextWindow); ok {
		parts = append(parts, "context "+strconv.FormatFloat(pct, 'f', 0, 64)+"%")
	}
	if c := in.Cost; c != nil && c.TotalUSD != nil && *c.TotalUSD >= 0 && !math.IsInf(*c.TotalUSD, 0) {
		parts = append(parts, "$"+strconv.FormatFloat(*c.TotalUSD, 'f', 2, 64))
	}
	return strings.Join(parts, " · ")
}

// statusWindow is the status line input's context_window.
type statusWindow struct {
	UsedPercentage *float64 `json:"used_percentage"`
	Size           *int64   `json:"context_window_size"`
	CurrentUsage   *struct {
		Input      int64 `json:"input_tokens"`
		CacheWrite int64 `json:"cache_creation_input_tokens"`
		CacheRead  int64 `json:"cache_read_input_tokens"`
	} `json:"current_usage"`
}

// contextUsed is the context window's share in use, in percent: Claude Code's own used_percentage, else
// the last call's prompt (input and both cache kinds, as Claude Code counts it) over the window's size.
func contextUsed(w *statusWindow) (float64, bool) {
	switch {
	case w == nil:
		return 0, false
	case w.UsedPercentage != nil:
		p := *w.UsedPercentage
		return p, p >= 0 && p <= 100
	case w.Size != nil && *w.Size > 0 && w.CurrentUsage != nil:
		u := w.CurrentUsage
		p := 100 * float64(u.Input+u.CacheWrite+u.CacheRead) / float64(*w.Size)
		return p, p >= 0 && p <= 100
	}
	return 0, false
}

// oneLine keeps a name the harness sent to one short line: a status line is one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}
