package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// codexEvents are the Codex events saverd hooks (the eight Codex 0.169.0 fires for a session). Codex
// clamps SessionEnd hooks to 3 s, and the declared timeout is part of the trust hash, so 3 is declared.
var codexEvents = []Handler{
	{Event: "SessionStart", Timeout: 10},
	{Event: "UserPromptSubmit", Timeout: 130},
	{Event: "PreToolUse", Timeout: 10},
	{Event: "PostToolUse", Timeout: 10},
	{Event: "PreCompact", Timeout: 10},
	{Event: "PostCompact", Timeout: 10},
	{Event: "Stop", Timeout: 10},
	{Event: "SessionEnd", Timeout: 3},
}

// CodexHandlers are the hooks saverd declares for Codex, running the binary at bin.
func CodexHandlers(bin string) []Handler {
	return handlersFor(codexEvents, shellQuote(bin)+" hook --harness codex ")
}

// MergeCodexHooks returns a Codex hooks.json with saverd's hooks merged in.
func MergeCodexHooks(name, text, bin string) (Edit, error) {
	return editFile(name, text, func(root *object) ([]string, []string, error) {
		changes, err := mergeHooks(root, CodexHandlers(bin))
		return changes, nil, err
	})
}

// RemoveCodexHooks returns a Codex hooks.json without saverd's hooks.
func RemoveCodexHooks(name, text string) (Edit, error) {
	return editFile(name, text, func(root *object) ([]string, []string, error) {
		changes, err := removeHooks(root)
		return changes, nil, err
	})
}

// Declared is one handler as a Codex hooks.json declares it, with where it sits and the trust Codex
// needs for it.
type Declared struct {
	Event   string
	Command string
	Ours    bool
	// Key names the handler in config.toml's [hooks.state."KEY"]: the hooks.json path, the event in
	// snake case, the group's index and the handler's index in it.
	Key string
	// Hash is the trusted_hash Codex expects; "" when the declaration has fields whose part in the hash
	// is not known here (Codex's hash was checked for async, command, timeout, type and matcher).
	Hash string
}

// Declarations lists every command handler of a Codex hooks.json at path, in file order.
func Declarations(path, text string) ([]Declared, error) {
	root, err := parseObject(text)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v)", path, err)
	}
	hooks, err := hooksTable(root, false)
	if err != nil || hooks == nil {
		return nil, err
	}
	var out []Declared
	for _, event := range hooks.Keys() {
		groups, _ := hooks.Get(event).([]any)
		for gi, g := range groups {
			group, _ := g.(*object)
			if group == nil {
				continue
			}
			handlers, _ := group.Get("hooks").([]any)
			for hi, v := range handlers {
				cmd, ok := commandOf(v)
				if !ok {
					continue
				}
				snake := snakeCase(event)
				out = append(out, Declared{Event: event, Command: cmd, Ours: Ours(cmd),
					Key:  path + ":" + snake + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi),
					Hash: trustHash(snake, group, v.(*object))})
			}
		}
	}
	return out, nil
}

// trustHash is the hash Codex 0.169.0 trusts a handler by: sha256 over the compact, key-sorted JSON of
// {event_name (snake case), hooks: [{async, command, timeout, type}], matcher (when the group has one)}.
// Observed with the real client: the matcher and the timeout are part of it, the event name is snake case.
func trustHash(snakeEvent string, group, handler *object) string {
	h := map[string]any{"async": false, "type": "command"}
	for _, k := range handler.Keys() {
		switch k {
		case "async", "command", "timeout", "type":
			h[k] = handler.Get(k)
		default:
			return ""
		}
	}
	if _, ok := h["timeout"]; !ok {
		return ""
	}
	decl := map[string]any{"event_name": snakeEvent, "hooks": []any{h}}
	for _, k := range group.Keys() {
		switch k {
		case "hooks":
		case "matcher":
			decl["matcher"] = group.Get(k)
		default:
			return ""
		}
	}
	sum := sha256.Sum256([]byte(compactSorted(decl)))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// snakeCase turns an event name as hooks.json spells it (PreToolUse) into the one Codex's trust keys
// and hash use (pre_tool_use).
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
