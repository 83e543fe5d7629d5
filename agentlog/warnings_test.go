package agentlog

import (
	"slices"
	"testing"
	"time"

	"github.com/saverd/saverd/prices"
)

// TestUnpricedModelNamedOnce: a model with no price is one warning for all the sessions that called it
// (a Qwen Code user's hundreds of sessions made hundreds of lines), with the session named when one did;
// the records' other warnings stay, in order.
func TestUnpricedModelNamedOnce(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	rec := func(id, model string, warn ...string) Record {
		r := Record{SessionID: id, Harness: "qwen-code", Warnings: warn}
		r.AddCall(Call{Key: id, Model: model, At: at, Usage: prices.Usage{Input: 10}})
		r.FinishWith(Options{}, nil)
		return r
	}
	recs := []Record{
		rec("a", "qwen3-coder-plus", "a bad line"),
		rec("b", "qwen3-coder-plus"),
		rec("c", "claude-sonnet-4-5"),
		rec("d", "qwen3-coder-plus"),
		rec("e", "mystery-1", "another"),
		rec("f", ""),
		rec("g", ""),
	}
	want := []string{
		"a bad line",
		"another",
		"the logs of 2 sessions name no model for some calls: they have no cost (cost.total is null)",
		`session e: no price for model "mystery-1": its calls have no cost (cost.total is null; add the model to a prices file)`,
		`no price for model "qwen3-coder-plus": the calls of 3 sessions have no cost (cost.total is null; add the model to a prices file)`,
	}
	if got := warnings(recs); !slices.Equal(got, want) {
		t.Errorf("warnings:\n%q\nwant\n%q", got, want)
	}
}
