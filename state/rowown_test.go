package state_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/saverd/saverd/state/intake"
)

// shares reports whether part's bytes lie inside whole's.
func shares(part, whole string) bool {
	if len(part) == 0 || len(whole) == 0 {
		return false
	}
	p, w := uintptr(unsafe.Pointer(unsafe.StringData(part))), uintptr(unsafe.Pointer(unsafe.StringData(whole)))
	return p >= w && p < w+uintptr(len(whole))
}

// TestRowsOwnOnlyWhatTheyShow: a row's head and key were slices of the tool's output and input, so every
// row kept a whole output alive (6,000 calls of 100 KB reached 1.2 GB). They are copies.
func TestRowsOwnOnlyWhatTheyShow(t *testing.T) {
	output := strings.Repeat("x", 100_000)
	path := "/w/" + strings.Repeat("p", 100_000)
	tests := []struct {
		name  string
		event intake.ToolEvent
		text  string
	}{
		{"ascii output", intake.ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "a", "command": "go test ./..."}), output},
		{"short output", intake.ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "b", "command": "ls"}), "ok"},
		{"long path", intake.ToolEventOf(map[string]any{"tool": "Edit", "tool_use_id": "c", "file_path": path}), "The file has been updated."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.text
			r := intake.RowOf(tt.event, intake.ToolResult{Text: &text}, 0, 1)
			if shares(r.Head, text) {
				t.Errorf("row head shares the output's memory")
			}
			for _, v := range tt.event.Map() {
				if s, ok := v.(string); ok && shares(r.Key, s) {
					t.Errorf("row key shares the input's memory")
				}
			}
		})
	}
}
