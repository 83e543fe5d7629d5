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

// KeysCap bounds the commands one Keys remembers: ~100 bytes each.
const KeysCap = 1024

type shellKey struct {
	key string // owned: never a slice of the command it was built from
	cls state.CommandClass
}

// RowOf is RowOf, the key of a Bash call's command remembered for the next call that runs it.
func (k *Keys) RowOf(e ToolEvent, result ToolResult, ms int64, turn int) state.Row {
	return rowOf(e, result, ms, turn, k)
}

// shell is the key of a Bash command, remembered.
func (k *Keys) shell(command string) (string, state.CommandClass) {
	if sk, ok := k.m[command]; ok {
		return sk.key, sk.cls
	}
	key, cls, owned := normalize("Bash", bashEvent(command))
	if !owned {
		key = strings.Clone(key)
	}
	if k.m == nil || len(k.m) >= KeysCap {
		k.m = make(map[string]shellKey, 64)
	}
	k.m[strings.Clone(command)] = shellKey{key, cls}
	return key, cls
}

// bashEvent is the only member of a Bash event its key reads.
func bashEvent(command string) ToolEvent {
	return ToolEvent{members: []eventMember{unboxedString("command", command)}}
}
