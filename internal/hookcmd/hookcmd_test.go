package hookcmd

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestHookArgs(t *testing.T) {
	cases := []struct {
		args           []string
		harness, event string
		plugin         bool
		wantErr        bool
	}{
		{[]string{"PostToolUse"}, "claude-code", "PostToolUse", false, false},
		{[]string{"--harness", "codex", "Stop"}, "codex", "Stop", false, false},
		{[]string{"--harness=codex", "Stop"}, "codex", "Stop", false, false},
		{[]string{"--plugin", "UserPromptExpansion"}, "claude-code", "UserPromptExpansion", true, false},
		{[]string{"--harness", "codex", "--plugin", "Stop"}, "codex", "Stop", true, false},
		{[]string{}, "", "", false, true},
		{[]string{"--verbose", "Stop"}, "", "", false, true},
		{[]string{"Stop", "extra"}, "", "", false, true},
	}
	for _, c := range cases {
		h, e, p, err := hookArgs(c.args)
		if (err != nil) != c.wantErr || (!c.wantErr && (h != c.harness || e != c.event || p != c.plugin)) {
			t.Errorf("hookArgs(%q) = %q, %q, %v, %v", c.args, h, e, p, err)
		}
	}
}

func TestFrameSplicesThePayload(t *testing.T) {
	t.Setenv("CONTEXTSAVER_DEBUG", "1")
	frame := Frame("codex", `Stop"x`, []byte("  {\"session_id\":\"s\"}\n"))
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Harness string          `json:"harness"`
			Event   string          `json:"event"`
			Debug   bool            `json:"debug"`
			Payload json.RawMessage `json:"payload"`
		} `json:"params"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil {
		t.Fatalf("frame %q: %v", frame, err)
	}
	if msg.Method != "hook" || msg.Params.Harness != "codex" || msg.Params.Event != `Stop"x` || !msg.Params.Debug || string(msg.Params.Payload) != `{"session_id":"s"}` {
		t.Fatalf("frame %+v", msg)
	}
	if frame[len(frame)-1] != '\n' {
		t.Fatal("a frame is one NDJSON line")
	}
}

// TestPluginFrame: a hook of saverd's plugin says so, and only it.
func TestPluginFrame(t *testing.T) {
	for _, c := range []struct {
		frame  []byte
		plugin bool
	}{{Frame("claude-code", "Stop", []byte(`{}`)), false}, {PluginFrame("claude-code", "Stop", []byte(`{}`)), true}} {
		var msg struct {
			Params struct {
				Plugin  bool            `json:"plugin"`
				Payload json.RawMessage `json:"payload"`
			} `json:"params"`
		}
		if err := json.Unmarshal(c.frame, &msg); err != nil || msg.Params.Plugin != c.plugin || string(msg.Params.Payload) != `{}` {
			t.Fatalf("frame %q: %+v %v, want plugin %v", c.frame, msg, err, c.plugin)
		}
	}
}

// TestFrameIsOneLine: a payload written over several lines makes a frame of one line all the same, its
// strings (escaped newlines included) unchanged; a payload that is no JSON is passed on for the daemon
// to refuse.
func TestFrameIsOneLine(t *testing.T) {
	pretty := "{\n  \"session_id\": \"s\",\n  \"prompt\": \"/saver\\nnext\"\r\n}\n"
	frame := Frame("claude-code", "UserPromptSubmit", []byte(pretty))
	if bytes.Count(frame, []byte("\n")) != 1 || frame[len(frame)-1] != '\n' {
		t.Fatalf("frame %q is not one line", frame)
	}
	var msg struct {
		Params struct {
			Payload struct {
				Prompt string `json:"prompt"`
			} `json:"payload"`
		} `json:"params"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil || msg.Params.Payload.Prompt != "/saver\nnext" {
		t.Fatalf("frame %q: %v, prompt %q", frame, err, msg.Params.Payload.Prompt)
	}
	if bad := Frame("claude-code", "Stop", []byte("{\n oops")); !bytes.Contains(bad, []byte("{\n oops")) {
		t.Fatalf("a payload that is no JSON was changed: %q", bad)
	}
}

// TestFrameSaysTheReplyWidth: a UserPromptSubmit of a harness whose margins are measured says how many
// columns its UI shows the answer in — the terminal's $COLUMNS less the margin — and no other hook, no
// other harness and no terminal that gives no width says any.
func TestFrameSaysTheReplyWidth(t *testing.T) {
	cases := []struct {
		name, harness, event, columns string
		width                         int64
	}{
		{"Claude Code, 80 columns", "claude-code", "UserPromptSubmit", "80", 70},
		{"Claude Code, 200 columns", "claude-code", "UserPromptSubmit", "200", 190},
		{"Claude Code, no COLUMNS", "claude-code", "UserPromptSubmit", "", 0},
		{"Claude Code, COLUMNS not a number", "claude-code", "UserPromptSubmit", "wide", 0},
		{"Claude Code, narrower than its margin", "claude-code", "UserPromptSubmit", "8", 0},
		{"Claude Code, another hook", "claude-code", "Stop", "80", 0},
		{"Codex, margins not measured", "codex", "UserPromptSubmit", "80", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("COLUMNS", c.columns)
			frame := Frame(c.harness, c.event, []byte(`{"session_id":"s"}`))
			var msg struct {
				Params map[string]json.RawMessage `json:"params"`
			}
			if err := json.Unmarshal(frame, &msg); err != nil {
				t.Fatalf("frame %q: %v", frame, err)
			}
			raw, said := msg.Params["width"]
			var width int64
			if said {
				if err := json.Unmarshal(raw, &width); err != nil || width <= 0 {
					t.Fatalf("width %s in %q", raw, frame)
				}
			}
			if width != c.width {
				t.Errorf("width %d (said: %v), want %d: %q", width, said, c.width, frame)
			}
		})
	}
}
