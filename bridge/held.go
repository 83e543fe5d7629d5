package bridge

import (
	"bytes"
	"encoding/json"
)

// HeldTexts is those of texts the context of the session whose transcript (or rollout) is at path holds
// now: the ones a line written since its last compaction carries (a hook's additionalContext is kept in
// the history, so the model reads it on every later request); compaction tells the line that marks one in
// the harness's log. A daemon that joins a session it did not start asks this (through its harness)
// before it sends the standing instructions again: a resume into a context that still holds them needs
// no second copy. A transcript that cannot be read holds nothing.
func HeldTexts(path string, texts []string, compaction func(line []byte) bool) []string {
	if path == "" || len(texts) == 0 {
		return nil
	}
	needles := make([][]byte, len(texts))
	for i, t := range texts {
		needles[i] = jsonBody(t)
	}
	found := make([]bool, len(texts))
	if _, err := EachLine(path, 0, func(line []byte) {
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
