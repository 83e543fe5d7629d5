package bridge

import (
	"bytes"
	"encoding/json"
)

// HeldTexts is those of texts the context of the session whose transcript (or rollout) is at path holds
// now: the ones a line written since its last compaction carries (a hook's additionalContext is kept in
// the history, so the model reads it on every later request). A daemon that joins a session it did not
// start asks this before it sends the standing instructions again: a resume into a context that still
// holds them needs no second copy. A transcript that cannot be read holds nothing.
func HeldTexts(path string, texts []string) []string {
	if path == "" || len(texts) == 0 {
		return nil
	}
	needles := make([][]byte, len(texts))
	for i, t := range texts {
		needles[i] = jsonBody(t)
	}
	found := make([]bool, len(texts))
	if _, err := eachLine(path, 0, func(line []byte) {
		if compaction(line) {
			clear(found) // what came before is summarised away
			return
		}
		for i, n := range needles {
			if !found[i] && len(n) > 0 && bytes.Contains(line, n) {
				found[i] = true
			}
		}
	}); err != nil {
		return nil
	}
	var out []string
	for i, ok := range found {
		if ok {
			out = append(out, texts[i])
		}
	}
	return out
}

// compaction reports whether a line marks a compaction: Claude Code's compact_boundary system line, or
// a Codex rollout's compacted line.
func compaction(line []byte) bool {
	var l struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
	}
	if !bytes.Contains(line, []byte("compact")) || json.Unmarshal(line, &l) != nil {
		return false
	}
	return l.Type == "compacted" || l.Type == "system" && l.Subtype == "compact_boundary"
}

// jsonBody is text as it appears inside a JSON string of the harness's logs (escaped, no quotes).
func jsonBody(text string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(text) != nil {
		return nil
	}
	return bytes.TrimSuffix(bytes.TrimPrefix(bytes.TrimSpace(b.Bytes()), []byte(`"`)), []byte(`"`))
}
