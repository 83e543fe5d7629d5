package agentcorpus

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness/all"
)

// TestReadersCountTheCorpus: every harness's reader finds each session and call the corpus wrote and
// sums its tokens to the writer's totals, kind by kind, with no warning but the unpriced Qwen model's.
func TestReadersCountTheCorpus(t *testing.T) {
	home := t.TempDir()
	totals, err := Write(home, 6*PerSession*5)
	if err != nil {
		t.Fatal(err)
	}
	var (
		files []agentlog.File
		warn  []string
	)
	for _, h := range all.Logs() {
		f, w := h.Discover([]string{filepath.Join(home, map[string]string{"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini", "opencode": ".local/share/opencode", "qwen-code": ".qwen"}[string(h.ID())])})
		files, warn = append(files, f...), append(warn, w...)
	}
	recs, w := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	warn = append(warn, w...)
	got := map[string]Totals{}
	for _, r := range recs {
		g := got[r.Harness]
		g.Sessions++
		g.Calls += r.Calls
		g.Tokens.Add(r.Tokens)
		got[r.Harness] = g
	}
	for h, want := range totals {
		g := got[h]
		if g.Sessions != want.Sessions || g.Calls != want.Calls || g.Tokens != want.Tokens {
			t.Errorf("%s: read %d sessions, %d calls, %+v; wrote %d, %d, %+v", h, g.Sessions, g.Calls, g.Tokens, want.Sessions, want.Calls, want.Tokens)
		}
	}
	for _, w := range warn {
		t.Logf("warning: %s", w)
	}
	// Qwen's model has no price: one warning, naming how many sessions called it.
	wantWarn := fmt.Sprintf(`no price for model "qwen3-coder-plus": the calls of %d sessions have no cost`, totals["qwen-code"].Sessions)
	if len(warn) != 1 || !strings.HasPrefix(warn[0], wantWarn) {
		t.Errorf("warnings %q, want one: %s …", warn, wantWarn)
	}
}
