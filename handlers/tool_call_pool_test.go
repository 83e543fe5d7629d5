package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// TestToolCallReadsReused: tool.calls of two sessions on two connections at once, through the daemon's
// wiring (params read with the frame, answered before recorded), each with events of another size and
// shape than the one before and now and then one the one-pass reader refuses. A toolCallRead or event
// array used after it went back to the pool shows as a row with another call's members (and, under
// -race, as a race); every row must be its own call's.
func TestToolCallReadsReused(t *testing.T) {
	srv := New(session.Options{Store: testfake.NewRegistry(), WriteRoot: t.TempDir(), Clock: func() int64 { return 1_000 }})
	ctx := context.Background()
	sessions := []string{"a", "b"}
	for _, id := range sessions {
		start := `{"sessionId":"` + id + `","cwd":"` + t.TempDir() + `"}`
		if _, err := srv.Handle(ctx, rpc.Request{Method: "session.start", Params: json.RawMessage(start)}); err != nil {
			t.Fatal(err)
		}
	}
	const calls = 300
	var wg sync.WaitGroup
	for _, id := range sessions {
		in, lines, _ := servePipes(t, srv)
		wg.Add(1)
		go func() { // the host's reader: every answer, then the connection's end
			defer wg.Done()
			for n := 0; n < calls; {
				line, open := <-lines
				if !open {
					t.Errorf("session %s: %d answers, then the output ended", id, n)
					return
				}
				if strings.Contains(line, `"id":`) {
					n++
				}
			}
			in.Close()
			for range lines { // to the output's end: the last call, answered first, is recorded by then
			}
		}()
		go func() { // the host's writer; a write to a connection that died fails once cleanup closes it
			for i := range calls {
				if _, err := io.WriteString(in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":%s}`+"\n", i+1, poolCall(id, i))); err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, id := range sessions {
		sess, err := srv.Sessions().Session(id)
		if err != nil {
			t.Fatal(err)
		}
		rows := sess.State().Rows
		if len(rows) != calls {
			t.Errorf("session %s: %d rows, want %d", id, len(rows), calls)
		}
		for i, r := range rows {
			wantAgent, wantKey := "main", fmt.Sprintf("%s/file%d.go:-", id, i)
			if i%3 == 0 {
				wantAgent, wantKey = id+"-agent", fmt.Sprintf("%s/file%d.go:%d-50", id, i, i)
			}
			if r.ID != fmt.Sprintf("%s-t%d", id, i) || r.Agent != wantAgent || r.Tool != "Read" || r.Key != wantKey {
				t.Errorf("session %s row %d = id %s agent %s tool %s key %s, want %s-t%d %s Read %s", id, i, r.ID, r.Agent, r.Tool, r.Key, id, i, wantAgent, wantKey)
			}
		}
	}
}

// poolCall is call i of session id for TestToolCallReadsReused: every third a subagent's with more
// members; every fifth with a member given twice, which the one-pass reader leaves to the full decoder
// (whose last one counts).
func poolCall(id string, i int) string {
	event := fmt.Sprintf(`"tool":"Read","tool_use_id":"%s-t%d","file_path":"%s/file%d.go"`, id, i, id, i)
	if i%3 == 0 {
		event += fmt.Sprintf(`,"agentId":"%s-agent","offset":%d,"limit":50,"description":"part %d","model":"m"`, id, i, i)
	}
	if i%5 == 0 {
		event = `"file_path":"elsewhere",` + event
	}
	return fmt.Sprintf(`{"sessionId":"%s","at":%d,"ms":3,"event":{%s},"result":{"text":"line %d\n"}}`, id, 2_000+i, event, i)
}
