package detect

import "github.com/saverd/saverd/state/intake"

// CallsOf is what a transcript's tool calls hold beyond their rows, by tool_use_id: each call's whole
// input, and a shell call's whole command.
func CallsOf(messages []intake.SessionMessage) map[string]Call {
	out := map[string]Call{}
	for i := range messages {
		for _, u := range messages[i].ToolUses {
			if u.ToolUseID == "" {
				continue
			}
			c := Call{Input: intake.InputKey(u.Input)}
			if cmd, ok := u.Input["command"].(string); ok && u.Tool == "Bash" {
				c.Command = cmd
			}
			out[u.ToolUseID] = c
		}
	}
	return out
}
