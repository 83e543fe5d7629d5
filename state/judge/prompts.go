package judge

import (
	_ "embed"
	"strings"
)

// The two prompts, verbatim from ContextSaver.
var (
	//go:embed judge-prompt.txt
	judgePrompt string
	//go:embed process-prompt.txt
	processPrompt string
)

// JudgePrompt is the habit judge's template with its eight {{PLACEHOLDERS}}.
func JudgePrompt() string { return judgePrompt }

// ProcessPrompt is the process judge's template with its {{DIGEST}} placeholder.
func ProcessPrompt() string { return processPrompt }

// placeholders are the habit prompt's blocks in the order the template prints them.
var placeholders = []string{"KNOWN_PATTERNS", "DECISIONS", "STATS", "TIME", "CONTEXT", "AGENTS", "TURNS", "LEDGER"}

// fill puts each block in its {{NAME}} in one pass over the template: a block's own text (a pattern's
// kind, a key) is never scanned for placeholders, so model-written text cannot pull another block in.
// (ContextSaver replaced them one after another over the growing text; its blocks were never model text.)
func fill(template string, blocks map[string]string) string {
	size := len(template)
	for _, text := range blocks {
		size += len(text)
	}
	var b strings.Builder
	b.Grow(size)
	rest := template
	for {
		at := strings.Index(rest, "{{")
		if at < 0 {
			break
		}
		end := strings.Index(rest[at+2:], "}}")
		if end < 0 {
			break
		}
		name := rest[at+2 : at+2+end]
		text, ok := blocks[name]
		if !ok {
			b.WriteString(rest[:at+2])
			rest = rest[at+2:]
			continue
		}
		b.WriteString(rest[:at])
		b.WriteString(text)
		rest = rest[at+2+end+2:]
	}
	b.WriteString(rest)
	return b.String()
}
