package codex

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/install/installtest"
	"github.com/saverd/saverd/internal/golden"
)

// TestTrustHashObserved: hashes the real Codex CLI 0.169.0 accepted (the hook ran) for these
// declarations, one without a matcher and one with.
func TestTrustHashObserved(t *testing.T) {
	const path = "/tmp/cx1/home/hooks.json"
	text := `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"/tmp/cx1/hook.sh SessionStart","timeout":10}]}],
"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/tmp/cx1/hook.sh PostToolUse","timeout":10}]}]}}`
	decls, err := Declarations(path, text)
	if err != nil {
		t.Fatal(err)
	}
	want := []Declared{
		{Event: "SessionStart", Command: "/tmp/cx1/hook.sh SessionStart", Key: path + ":session_start:0:0",
			Hash: "sha256:5fb52e74aed2be27e2c220dd63aa75672275dee5f49c2ba03687f9acc7e0a64c"},
		{Event: "PostToolUse", Command: "/tmp/cx1/hook.sh PostToolUse", Key: path + ":post_tool_use:0:0",
			Hash: "sha256:862a31649ec6c8f6620f30ac415c0b97b7405c0d5aea8a9133cef1dd328ef1f2"},
	}
	if len(decls) != len(want) {
		t.Fatalf("declarations = %+v", decls)
	}
	for i := range want {
		if decls[i] != want[i] {
			t.Errorf("declaration %d = %+v\nwant %+v", i, decls[i], want[i])
		}
	}
}

func TestTrustHashUnknownFields(t *testing.T) {
	decls, err := Declarations("/h.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1,"statusMessage":"hi"}]},{"hooks":[{"type":"command","command":"y"}]}]}}`)
	if err != nil || len(decls) != 2 {
		t.Fatal(decls, err)
	}
	for _, d := range decls {
		if d.Hash != "" {
			t.Errorf("%s: hash %q for a declaration whose hash is not known", d.Command, d.Hash)
		}
	}
	if decls[1].Key != "/h.json:stop:1:0" {
		t.Errorf("key %q", decls[1].Key)
	}
}

// bin is the saverd the golden hooks files run.
const bin = "/opt/saverd/bin/saverd"

func TestMergeCodexHooksGolden(t *testing.T) {
	e, err := MergeHooks("hooks.json", `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-me",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
`, bin)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "codex-hooks.json", e.Text)
	if len(e.Changes) != 8 {
		t.Errorf("changes = %q", e.Changes)
	}
	again, _ := MergeHooks("hooks.json", e.Text, bin)
	if len(again.Changes) != 0 {
		t.Errorf("second install: %q", again.Changes)
	}
}

func TestSetTrust(t *testing.T) {
	add := []Trust{{Key: `/h/hooks.json:stop:0:0`, Hash: "sha256:1"}, {Key: `/h/"odd" \path:stop:1:0`, Hash: "sha256:2"}}
	e, err := SetTrust("config.toml", installtest.CodexConfig, nil, add)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.Text, installtest.CodexConfig) {
		t.Errorf("the user's text changed:\n%s", e.Text)
	}
	golden.Check(t, "codex-config.toml", e.Text)
	got, err := ReadTrust("config.toml", e.Text)
	if err != nil || got[add[1].Key] != "sha256:2" || got["/elsewhere/hooks.json:stop:0:0"] != "sha256:aaaa" {
		t.Errorf("trust read back = %v, %v", got, err)
	}
	again, err := SetTrust("config.toml", e.Text, []string{add[0].Key, add[1].Key}, add)
	if err != nil || len(again.Changes) != 0 || again.Text != e.Text {
		t.Errorf("second install: %q %v", again.Changes, err)
	}
	back, err := SetTrust("config.toml", e.Text, []string{add[0].Key, add[1].Key}, nil)
	if err != nil || back.Text != installtest.CodexConfig {
		t.Errorf("removed:\n%s\nwant\n%s (%v)", back.Text, installtest.CodexConfig, err)
	}
	// A changed hash replaces the table where it was appended, once.
	upd, err := SetTrust("config.toml", e.Text, []string{add[0].Key}, []Trust{{Key: add[0].Key, Hash: "sha256:9"}})
	if err != nil || strings.Count(upd.Text, add[0].Key) != 1 || !strings.Contains(upd.Text, `"sha256:9"`) || !strings.Contains(upd.Text, `"sha256:2"`) {
		t.Errorf("update:\n%s (%v)", upd.Text, err)
	}
}

func TestSetTrustRefuses(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"not toml", "model = \n", "not valid TOML"},
		{"inline table", "hooks.state.\"/h/hooks.json:stop:0:0\" = { trusted_hash = \"sha256:0\" }\n", "not changed"},
		{"dotted keys", "[hooks.state]\n\"/h/hooks.json:stop:0:0\".trusted_hash = \"sha256:0\"\n", "not changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := SetTrust("/c/config.toml", c.text, []string{"/h/hooks.json:stop:0:0"}, []Trust{{Key: "/h/hooks.json:stop:0:0", Hash: "sha256:1"}})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/c/config.toml") {
				t.Errorf("err = %v; want %q naming the file", err, c.want)
			}
		})
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"PreToolUse": "pre_tool_use", "Stop": "stop", "SessionEnd": "session_end", "UserPromptSubmit": "user_prompt_submit"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%s) = %s", in, got)
		}
	}
}
