package bridge

import "encoding/json"

// StatusLine is what Claude Code's status line input says of its session that its hooks do not: the
// model it runs and the size of its context window (0 when the input gives none, or one below 1).
type StatusLine struct {
	SessionID string
	Model     string
	Window    int64
}

// ParseStatusLine reads a status line input as Claude Code writes it (session_id, model.id,
// context_window.context_window_size); the error says why input is no such object.
func ParseStatusLine(input []byte) (StatusLine, error) {
	var in struct {
		SessionID     string `json:"session_id"`
		ContextWindow *struct {
			Size *int64 `json:"context_window_size"`
		} `json:"context_window"`
		Model *struct {
			ID string `json:"id"`
		} `json:"model"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return StatusLine{}, err
	}
	line := StatusLine{SessionID: in.SessionID}
	if in.Model != nil {
		line.Model = in.Model.ID
	}
	if in.ContextWindow != nil && in.ContextWindow.Size != nil {
		line.Window = max(0, *in.ContextWindow.Size)
	}
	return line, nil
}
