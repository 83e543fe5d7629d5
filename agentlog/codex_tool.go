package agentlog

import (
	"github.com/saverd/saverd/state/intake"
)

// CodexTool names a Codex call as the ledger reads tools: a shell command is Bash with its command,
// as Codex's own hooks name it; apply_patch keeps its name and its patch.
func CodexTool(name, arguments, input string) (string, map[string]any) {
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
