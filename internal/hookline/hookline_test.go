package hookline

import "testing"

// TestHook: a hook line of saverd's, not its status line or anyone else's command (install's TestOurs
// holds the rule for every entry).
func TestHook(t *testing.T) {
	for _, c := range []struct {
		cmd        string
		ours, hook bool
	}{
		{"/go/bin/saverd-hook hook Stop", true, true},
		{"'/my dir/saverd' hook --harness codex Stop", true, true},
		{"/go/bin/saverd-hook hook UserPromptExpansion 2>/dev/null || printf '%s\\n' '{}'", true, true},
		{"/go/bin/saverd-hook statusline", true, false},
		{`sh "${CLAUDE_PLUGIN_ROOT}/hooks/run" Stop`, false, false},
		{"echo saverd hook", false, false},
	} {
		if Ours(c.cmd) != c.ours || Hook(c.cmd) != c.hook {
			t.Errorf("%q: Ours %v Hook %v, want %v %v", c.cmd, Ours(c.cmd), Hook(c.cmd), c.ours, c.hook)
		}
	}
}
