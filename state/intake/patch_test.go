package intake

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestApplyPatchRow: Codex's apply_patch is an edit: keyed by the files its patch names, with their paths
// and the patch's + and - lines, whether the patch came as a hook's command or a rollout's patch.
func TestApplyPatchRow(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: src/a.ts\n@@ function a\n-old\n+new\n+more\n*** Add File: src/b.ts\n+b\r\n*** Delete File: src/c.ts\n*** Update File: src/a.ts\n*** Move to: src/d.ts\n*** End Patch\n"
	for _, member := range []string{"command", "patch"} {
		event, _ := json.Marshal(map[string]any{"tool": "apply_patch", "tool_use_id": "t1", member: patch})
		r := lgRow(t, string(event), `{"result":"Success. Updated the following files:\nM src/a.ts","text":"ok"}`)
		want := []string{"src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts"}
		if r.Key != "src/a.ts src/b.ts src/c.ts src/d.ts" || r.Cls != state.ClassOther || !slices.Equal(r.Paths, want) ||
			r.Lines == nil || r.Lines.Add != 3 || r.Lines.Del != 1 || !state.IsEdit(&r) {
			t.Errorf("%s: row %+v (lines %+v)", member, r, r.Lines)
		}
	}
	// A patch that names no file keys as any unknown tool does (its arguments), and is an edit by its tool.
	r := lgRow(t, `{"tool":"apply_patch","tool_use_id":"t2","command":"garbage"}`, `{"text":"error"}`)
	if r.Key != `apply_patch:{"command":"garbage"}` || r.Paths == nil || len(r.Paths) != 0 || !state.IsEdit(&r) {
		t.Errorf("no files: %+v", r)
	}
}
