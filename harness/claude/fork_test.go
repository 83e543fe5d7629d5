package claude

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/forkcmd"
)

func TestClaudeArgs(t *testing.T) {
	got := strings.Join(forkArgs(forkcmd.Request{SessionID: "s1", Model: "claude-opus-5-5"}), " ")
	want := `-p --resume=s1 --fork-session --output-format json --max-turns 1 --permission-mode plan --settings {"disableAllHooks":true} --model=claude-opus-5-5`
	if got != want {
		t.Fatalf("args %q\nwant %q", got, want)
	}
}
