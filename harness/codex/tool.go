package codex

import (
	"strings"

	"github.com/saverd/saverd/state/intake"
)

// Tool names a Codex call as the ledger reads tools: a shell command is Bash with its command,
// as Codex's own hooks name it; apply_patch keeps its name and its patch, and so does a shell call of
// it (older Codex versions patched through the shell: `["apply_patch", patch]`, or a heredoc).
func Tool(name, arguments, input string) (string, map[string]any) {
	switch name {
	case "exec_command", "shell", "local_shell", "container.exec", "shell_command":
		var args map[string]any
		if e, err := intake.ObjectFromJSON([]byte(arguments)); err == nil {
			args = e
		}
		in := map[string]any{}
		switch cmd := args["cmd"].(type) {
		case string:
			in["command"] = cmd
		}
		if cmd, ok := args["command"]; ok {
			switch v := cmd.(type) {
			case string:
				in["command"] = v
			case []any:
				in["command"] = joinArgv(v)
				if patch, ok := argvPatch(v); ok {
					return "apply_patch", map[string]any{"patch": patch}
				}
			}
		}
		if cmd, _ := in["command"].(string); strings.HasPrefix(strings.TrimSpace(cmd), "apply_patch") {
			if patch, ok := heredocPatch(cmd); ok {
				return "apply_patch", map[string]any{"patch": patch}
			}
		}
		return "Bash", in
	case "apply_patch":
		return "apply_patch", map[string]any{"patch": input}
	}
	var in map[string]any
	if e, err := intake.ObjectFromJSON([]byte(arguments)); err == nil {
		in = e
	} else if input != "" {
		in = map[string]any{"input": input}
	}
	return name, in
}

func joinArgv(v []any) string {
	out := ""
	for i, a := range v {
		s, _ := a.(string)
		if i > 0 {
			out += " "
		}
		out += s
	}
	// `bash -lc "<script>"` is how Codex wraps a command: the script is what ran.
	if len(v) == 3 {
		if s, _ := v[1].(string); s == "-lc" || s == "-c" {
			out, _ = v[2].(string)
		}
	}
	return out
}

// argvPatch is the patch of an older Codex's `["apply_patch", "<patch>"]` shell call: it edits, as the
// apply_patch tool of later versions does.
func argvPatch(v []any) (string, bool) {
	if len(v) != 2 {
		return "", false
	}
	head, _ := v[0].(string)
	patch, ok := v[1].(string)
	return patch, ok && (head == "apply_patch" || head == "applypatch")
}

// heredocPatch is the patch an `apply_patch <<'EOF' … EOF` shell command writes: from its
// `*** Begin Patch` line to its `*** End Patch` line.
func heredocPatch(cmd string) (string, bool) {
	begin := strings.Index(cmd, "*** Begin Patch")
	end := strings.LastIndex(cmd, "*** End Patch")
	if begin < 0 || end < begin {
		return "", false
	}
	return cmd[begin:end+len("*** End Patch")] + "\n", true
}
