package codex

import (
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/saverd/saverd/install"
)

// Trust is one entry Codex reads from config.toml: [hooks.state."Key"] trusted_hash = "Hash".
type Trust struct {
	Key, Hash string
}

// ReadTrust returns config.toml's trusted hashes by key; a file that does not parse is an error.
func ReadTrust(name, text string) (map[string]string, error) {
	var doc map[string]any
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("%s is not valid TOML (%v)", name, err)
	}
	out := map[string]string{}
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	for k, v := range state {
		if t, ok := v.(map[string]any); ok {
			if h, ok := t["trusted_hash"].(string); ok {
				out[k] = h
			}
		}
	}
	return out, nil
}

// SetTrust returns config.toml with the [hooks.state."KEY"] tables of drop and of add removed and add's
// tables appended at the end. Only those tables' lines change: every comment and setting of the user's
// stays byte for byte. The result is parsed again and must hold exactly the wanted hashes, else the
// edit is refused (a trust entry written some other way, an inline table say, is not ours to rewrite).
func SetTrust(name, text string, drop []string, add []Trust) (install.Edit, error) {
	before, err := ReadTrust(name, text)
	if err != nil {
		return install.Edit{}, fmt.Errorf("%s: not changed", err)
	}
	touched := map[string]bool{}
	for _, k := range drop {
		touched[k] = true
	}
	for _, t := range add {
		touched[t.Key] = true
	}
	lines := strings.SplitAfter(text, "\n")
	kept := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		key, isHeader := stateHeader(lines[i])
		if !isHeader || !touched[key] {
			kept = append(kept, lines[i])
			continue
		}
		// The blank line install put before the table goes with it, so uninstall gives back the file.
		if n := len(kept); n > 0 && strings.TrimSpace(kept[n-1]) == "" {
			kept = kept[:n-1]
		}
		for i+1 < len(lines) && !isTableStart(lines[i+1]) && !isComment(lines[i+1]) {
			i++
		}
	}
	out := strings.Join(kept, "")
	if len(add) > 0 {
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		if out != "" && !strings.HasSuffix(out, "\n\n") {
			out += "\n"
		}
		for i, t := range add {
			if i > 0 {
				out += "\n"
			}
			out += "[hooks.state." + tomlString(t.Key) + "]\ntrusted_hash = " + tomlString(t.Hash) + "\n"
		}
	}
	after, err := ReadTrust(name, out)
	if err != nil {
		return install.Edit{}, fmt.Errorf("%s: editing the trust entries would break the file (%v): not changed", name, err)
	}
	var changes []string
	for _, k := range drop {
		if _, kept := after[k]; kept && !inTrust(add, k) {
			return install.Edit{}, fmt.Errorf("%s: the trust entry %q is not a [hooks.state.\"...\"] table saverd can remove: not changed", name, k)
		}
		if _, was := before[k]; was && !inTrust(add, k) {
			changes = append(changes, "removed trust "+k)
		}
	}
	for _, t := range add {
		if after[t.Key] != t.Hash {
			return install.Edit{}, fmt.Errorf("%s: the trust entry %q is not a [hooks.state.\"...\"] table saverd can rewrite: not changed", name, t.Key)
		}
		if before[t.Key] != t.Hash {
			changes = append(changes, "trusted "+t.Key+" = "+t.Hash)
		}
	}
	if len(changes) == 0 {
		return install.Edit{Text: text}, nil
	}
	return install.Edit{Text: out, Changes: changes}, nil
}

func inTrust(ts []Trust, key string) bool {
	for _, t := range ts {
		if t.Key == key {
			return true
		}
	}
	return false
}

// stateHeader reports whether a line is a table header [hooks.state."KEY"] and returns KEY. The header
// alone is parsed as TOML, so any quoting or spacing TOML allows is read the way Codex reads it.
func stateHeader(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "[") || strings.HasPrefix(t, "[[") || !strings.Contains(t, "state") {
		return "", false
	}
	var doc map[string]any
	if toml.Unmarshal([]byte(t+"\n"), &doc) != nil || len(doc) != 1 {
		return "", false
	}
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	if len(hooks) != 1 || len(state) != 1 {
		return "", false
	}
	for k, v := range state {
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			return k, true
		}
	}
	return "", false
}

func isTableStart(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "[") }

func isComment(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "#") }

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ProjectTrusted reports whether config.toml marks dir as a trusted project ([projects."DIR"]
// trust_level = "trusted"). Codex 0.169.0 reads DIR/.codex/hooks.json only for a trusted project.
func ProjectTrusted(name, text, dir string) (bool, error) {
	var doc struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		return false, fmt.Errorf("%s is not valid TOML (%v)", name, err)
	}
	return doc.Projects[dir].TrustLevel == "trusted", nil
}
