package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// fullTable is a table holding one session past RowCap with 400 loops and 50 stored patterns, as
// handlers' fullServer is.
func fullTable(tb testing.TB) *Table {
	reg := testfake.NewRegistry()
	if err := reg.Update(state.StoreKey("/p"), func(any) (any, error) { return fullsession.Patterns(), nil }); err != nil {
		tb.Fatal(err)
	}
	tbl := New(Options{Store: reg})
	tbl.SetHost(nopHost{})
	ctx := context.Background()
	must := func(method string, params string) {
		if _, err := tbl.Handle(ctx, rpc.Request{Method: method, Params: json.RawMessage(params)}); err != nil {
			tb.Fatal(method, err)
		}
	}
	must("initialize", `{"capabilities":{"fork":false}}`)
	must("session.start", `{"sessionId":"s","cwd":"/p","at":1000,"usage":{"window":1000000}}`)
	must("turn.start", `{"sessionId":"s","at":1001}`)
	for i := 0; i < fullsession.Calls; i++ {
		must("tool.call", string(fullsession.ToolCall("s", i)))
	}
	return tbl
}

// BenchmarkViewPaneRules is view.pane with three decided cards whose rules are looked up in their file:
// the cost of never offering a rule twice (one read and one compare per rule), against no file at all.
func BenchmarkViewPaneRules(b *testing.B) {
	for _, n := range []int{0, 200} {
		b.Run(strconv.Itoa(n)+" lines", func(b *testing.B) {
			h := newHarness(b, nil)
			if n > 0 {
				lines := "## ContextSaver\n"
				for i := 0; i < n; i++ {
					lines += "- a rule the project already keeps, number " + strconv.Itoa(i) + "\n"
				}
				if err := os.WriteFile(filepath.Join(h.cwd, "CLAUDE.md"), []byte(lines), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			h.cards(threeFindings())
			for i := 0; i < 3; i++ {
				h.saver("fix 1")
			}
			if arts := h.pane().Artifacts; len(arts) != 3 {
				b.Fatalf("%d rules offered, want 3", len(arts))
			}
			params := json.RawMessage(`{"sessionId":"s"}`)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := h.srv.Handle(ctx, rpc.Request{Method: "view.pane", Params: params}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
