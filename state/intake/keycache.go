package intake

import (
	"strings"

	"github.com/saverd/saverd/state"
)

// Keys remembers the ledger keys of the shell commands a session ran lately. Reading a command as the
// shell would (readShell) is most of a row's cost, and the commands an agent repeats — the suite after
// every edit, the same file printed again — are exactly the ones saverd is watching for. A key is a pure
// function of its command, so a remembered one is the key normalize would build; the zero Keys is empty
// and ready, and a session holds at most KeysCap (then it starts over).
type Keys struct {
	m map[string]shellKey
}

// KeysCap bounds the commands one Keys remembers, and keysCommandMax the length of one it remembers (a
// heredoc can be megabytes): at most ~4 MB a session, most sessions far less.
const (
	KeysCap        = 1024
	keysCommandMax = 2048
)

type shellKey struct {
	key  string // owned: never a slice of the command it was built from, but of fold
	cls  state.CommandClass
	fold string // state.FoldKey("Bash", key), which key is the tail of (Row.SetFoldKey)
}

// RowOf is RowOf, the key of a Bash call's command remembered for the next call that runs it.
func (k *Keys) RowOf(e ToolEvent, result ToolResult, ms int64, turn int) state.Row {
	return rowOf(e, result, ms, turn, k)
}

// bash is the key of a Bash call's command, remembered; ok is false for any other call, a command that
// is no string, or no Keys at all (k nil), which normalize keys as ever.
func (k *Keys) bash(tool string, e ToolEvent) (sk shellKey, ok bool) {
	if k == nil || tool != "Bash" {
		return shellKey{}, false
	}
	command, ok := e.String("command")
	if !ok {
		return shellKey{}, false
	}
	return k.shell(command), true
}

// shell is the key of a Bash command, remembered.
func (k *Keys) shell(command string) shellKey {
	long := len(command) > keysCommandMax // never remembered, so never looked up either
	if !long {
		if sk, ok := k.m[command]; ok {
			return sk
		}
	}
	key, cls, _ := normalize("Bash", bashEvent(command))
	fold := state.FoldKey("Bash", key) // a copy, so the key is owned as its tail
	sk := shellKey{key: fold[len("Bash\t"):], cls: cls, fold: fold}
	if long {
		return sk
	}
	if k.m == nil || len(k.m) >= KeysCap {
		k.m = make(map[string]shellKey, 64)
	}
	k.m[strings.Clone(command)] = sk
	return sk
}

// bashEvent is the only member of a Bash event its key reads.
func bashEvent(command string) ToolEvent {
	return ToolEvent{members: []eventMember{unboxedString("command", command)}}
}
