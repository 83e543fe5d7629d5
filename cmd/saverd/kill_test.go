package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/store"
)

// TestAcknowledgedDecisionsSurviveSIGKILL: fifty sessions, each on its own project, decide four patterns
// each at once through the socket daemon, which is killed with SIGKILL once 40% of the decisions are
// answered; three runs. Every decision answered without a "not saved" toast is on disk afterwards, and
// none was refused for the daemon's own lock (its writes used to time out on each other as "held by
// another process", and acknowledged fixes were lost).
func TestAcknowledgedDecisionsSurviveSIGKILL(t *testing.T) {
	const sessions, decisions = 50, 4
	for run := 1; run <= 3; run++ {
		t.Run(fmt.Sprint("run ", run), func(t *testing.T) {
			storeDir, root := t.TempDir(), t.TempDir()
			cwd := func(i int) string { return filepath.Join(root, fmt.Sprint("p", i)) }
			for i := range sessions {
				seedRegistry(t, storeDir, cwd(i), decisions)
			}
			e := newHookEnv(t)
			daemon := exec.Command(binPath, "serve", "--listen", e.sock, "--store", storeDir, "--idle-exit", "0")
			exited := startSocketDaemon(t, e, daemon)

			var mu sync.Mutex
			acked := map[string]bool{} // "<session>/<pattern>" answered, and not told it was not saved
			var notSaved []string
			killAt := sessions * decisions * 4 / 10
			var once sync.Once
			kill := func() { once.Do(func() { _ = daemon.Process.Signal(syscall.SIGKILL) }) }
			var wg sync.WaitGroup
			for i := range sessions {
				wg.Go(func() {
					c, err := net.DialTimeout("unix", e.sock, 5*time.Second)
					if err != nil {
						return
					}
					defer c.Close()
					_ = c.SetDeadline(time.Now().Add(60 * time.Second))
					r := bufio.NewReader(c)
					id := fmt.Sprint("s", i)
					toldNotSaved := false
					// call sends one request and reads to its answer; a toast on the way that says the
					// session's decision was not saved is remembered. false: the daemon is gone.
					call := func(n int, method string, params map[string]any) bool {
						frame, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": n, "method": method, "params": params})
						if _, err := c.Write(append(frame, '\n')); err != nil {
							return false
						}
						for {
							line, err := r.ReadBytes('\n')
							if err != nil {
								return false
							}
							var m struct {
								ID     *int `json:"id"`
								Method string
								Params struct{ SessionID, Text string }
								Error  *struct{ Message string }
							}
							if json.Unmarshal(line, &m) != nil {
								return false
							}
							if m.Method == "ui.toast" && m.Params.SessionID == id && strings.Contains(m.Params.Text, "not saved") {
								toldNotSaved = true
								mu.Lock()
								notSaved = append(notSaved, id+": "+m.Params.Text)
								mu.Unlock()
							}
							if m.ID != nil && *m.ID == n {
								return m.Error == nil
							}
						}
					}
					if !call(1, "initialize", map[string]any{}) ||
						!call(2, "session.start", map[string]any{"sessionId": id, "cwd": cwd(i), "at": 1_000}) {
						return
					}
					for d := 1; d <= decisions; d++ {
						pattern := fmt.Sprintf("execution:p-%d", d)
						toldNotSaved = false
						if !call(2+d, "ui.action", map[string]any{"sessionId": id, "action": "kill", "patternId": pattern}) {
							return
						}
						mu.Lock()
						if !toldNotSaved {
							acked[id+"/"+pattern] = true
						}
						n := len(acked)
						mu.Unlock()
						if n >= killAt {
							kill()
						}
					}
				})
			}
			wg.Wait()
			kill()
			<-exited.done
			if len(notSaved) > 0 {
				t.Errorf("%d decisions were not saved:\n%s", len(notSaved), strings.Join(notSaved, "\n"))
			}
			st, err := store.Open(storeDir, zerolog.Nop())
			if err != nil {
				t.Fatal(err)
			}
			lost := 0
			for i := range sessions {
				v, err := st.Get(state.StoreKey(cwd(i)))
				if err != nil {
					t.Fatal(err)
				}
				onDisk := map[string]bool{}
				for _, sp := range state.ParseRegistry(v) {
					if sp.LastDecision != nil && *sp.LastDecision == state.Fix {
						onDisk[sp.ID] = true
					}
				}
				for d := 1; d <= decisions; d++ {
					pattern := fmt.Sprintf("execution:p-%d", d)
					if acked[fmt.Sprint("s", i)+"/"+pattern] && !onDisk[pattern] {
						lost++
						t.Errorf("s%d's %s was answered as decided but is not on disk", i, pattern)
					}
				}
			}
			t.Logf("%d decisions answered before the kill, %d lost", len(acked), lost)
			if len(acked) < killAt {
				t.Fatalf("only %d decisions answered: the daemon was not killed mid-way", len(acked))
			}
		})
	}
}
