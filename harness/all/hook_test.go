package all

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/hookcmd"
)

// TestHookTableIsTheHarnesses: the hook binary, which links no harness package, knows every live harness
// as its package does: the block of a saverd command it answers itself when the daemon cannot, the files
// the plugin's hooks look in for saverd's own, the client that runs the hooks, and the harness of a hook
// line that names none.
func TestHookTableIsTheHarnesses(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
	t.Setenv("CODEX_HOME", filepath.Join(home, "codex"))
	t.Setenv("CLAUDE_PROJECT_DIR", proj)
	if hookcmd.DefaultHarness != string(harness.Hooked) {
		t.Errorf("saverd-hook's harness of a line that names none is %s, harness.Hooked %s", hookcmd.DefaultHarness, harness.Hooked)
	}
	clients := hookcmd.Clients()
	var ids []string
	for _, h := range Live() {
		id := string(h.ID())
		ids = append(ids, id)
		var got, want map[string]any
		if err := json.Unmarshal(hookcmd.BlockAnswer(id, "UserPromptSubmit", "the pane"), &got); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(h.BlockPrompt("the pane"))
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: saverd-hook blocks a line with %v, its harness with %v", id, got, want)
		}
		var settings []string
		for _, scope := range h.Scopes() {
			path, err := h.SettingsPath(scope, proj)
			if err != nil {
				t.Fatal(err)
			}
			settings = append(settings, path)
		}
		if got := hookcmd.SettingsFiles(id); !slices.Equal(got, settings) {
			t.Errorf("%s: saverd-hook looks for saverd's hooks in %q, its harness declares them in %q", id, got, settings)
		}
		if program, _, err := h.ForkCommand(forkcmd.Request{SessionID: "s1"}); err != nil || clients[id] != program {
			t.Errorf("%s: saverd-hook takes %q for its client, its harness runs %q (%v)", id, clients[id], program, err)
		}
	}
	if got := slices.Sorted(maps.Keys(clients)); !slices.Equal(got, slices.Sorted(slices.Values(ids))) {
		t.Errorf("saverd-hook knows the harnesses %q, harness/all lists %q", got, ids)
	}
}
