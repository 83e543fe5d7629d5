package judge

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/saverd/saverd/state"
)

func TestMain(m *testing.M) {
	f, _ := os.Create("/tmp/judgecheck/cases.ndjson")
	onParse = func(fn, text string, s *state.State, aliases map[string]string) {
		b, _ := json.Marshal(map[string]any{"fn": fn, "args": []any{text, s, aliases}})
		f.Write(append(b, '\n'))
	}
	code := m.Run()
	f.Close()
	os.Exit(code)
}
