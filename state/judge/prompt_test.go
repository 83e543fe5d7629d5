package judge

import (
	"os"
	"strings"
	"testing"

	goldenfile "github.com/saverd/saverd/internal/golden"
	"github.com/saverd/saverd/state"
)

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, name, got)
}

var fixtures = []struct {
	name string
	make func() *state.State
}{
	{"small", smallSession},
	{"compacted", compactedSession},
	{"workflow", workflowSession},
	{"full", func() *state.State { return fullSession(0) }},
}

func TestBuildPromptGolden(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			s := f.make()
			got := BuildPrompt(s, Aliases(s))
			if strings.Contains(got, "{{") {
				t.Fatalf("a placeholder was left unfilled")
			}
			if BuildPrompt(s, nil) != got {
				t.Fatalf("a nil alias table must mean Aliases(s)")
			}
			golden(t, "prompt-"+f.name+".golden", got)
		})
	}
}

func TestDigestGolden(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			s := f.make()
			golden(t, "digest-"+f.name+".golden", Digest(s, Aliases(s)))
		})
	}
	s := workflowSession()
	golden(t, "process-prompt-workflow.golden", BuildProcessPrompt(s, Aliases(s)))
}

// The templates are ContextSaver's bytes: embedded files, placeholders where ContextSaver put them.
func TestPromptsEmbedded(t *testing.T) {
	for _, p := range placeholders {
		if strings.Count(JudgePrompt(), "{{"+p+"}}") != 1 {
			t.Errorf("judge prompt: {{%s}} must appear once", p)
		}
	}
	if strings.Count(ProcessPrompt(), "{{DIGEST}}") != 1 {
		t.Errorf("process prompt: {{DIGEST}} must appear once")
	}
	for _, name := range []string{"judge-prompt.txt", "process-prompt.txt"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"judge-prompt.txt": JudgePrompt(), "process-prompt.txt": ProcessPrompt()}[name]
		if string(b) != want {
			t.Errorf("%s is not what was embedded", name)
		}
	}
	// ContextSaver's opening and closing words, so a truncated copy cannot pass.
	if !strings.HasPrefix(JudgePrompt(), "You are auditing THIS session for wasted context and wasted time.") ||
		!strings.HasSuffix(JudgePrompt(), "{{LEDGER}}\n\nReturn the JSON object only.\n") {
		t.Errorf("judge prompt is not ContextSaver's text")
	}
	if !strings.HasPrefix(ProcessPrompt(), "This message is not a step of the task.") ||
		!strings.HasSuffix(ProcessPrompt(), "{{DIGEST}}\n\nReturn the JSON object only.\n") {
		t.Errorf("process prompt is not ContextSaver's text")
	}
}

// Model text inside a block never pulls another block in.
func TestFillIsOnePass(t *testing.T) {
	got := fill("a {{X}} b {{Y}} c {{Z}}", map[string]string{"X": "{{Y}}", "Y": "y"})
	if got != "a {{Y}} b y c {{Z}}" {
		t.Fatalf("fill = %q", got)
	}
}

// block is the text BuildPrompt put under the heading that starts with prefix.
func block(t *testing.T, prompt, prefix string) string {
	t.Helper()
	at := strings.Index(prompt, "\n## "+prefix)
	if at < 0 {
		t.Fatalf("no %q heading", prefix)
	}
	rest := prompt[at+1:]
	rest = rest[strings.IndexByte(rest, '\n')+1:]
	end := strings.Index(rest, "\n\n")
	return rest[:end]
}

func TestEmptySessionBlocks(t *testing.T) {
	s := state.New("/repo", 200_000)
	p := BuildPrompt(s, nil)
	for _, h := range []string{"KNOWN PATTERNS", "DECISIONS", "TIME", "CONTEXT", "AGENTS", "LEDGER"} {
		if got := block(t, p, h); got != "(none)" {
			t.Errorf("%s = %q, want (none)", h, got)
		}
	}
	if got := block(t, p, "STATS"); got != "waits: none" {
		t.Errorf("STATS = %q", got)
	}
	if got := block(t, p, "TURNS"); got != "(none)\nfacts | window 200000 tokens | overhead unknown | compactions none" {
		t.Errorf("TURNS = %q", got)
	}
}
