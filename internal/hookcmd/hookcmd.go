// Package hookcmd is the client side of the hook bridge: `saverd hook EVENT` and `saverd statusline`,
// what Claude Code and Codex exec once per event. It forwards one payload to the user's daemon over its
// socket (starting the daemon when none answers) and prints the answer. It imports nothing of the
// daemon, so the small `saverd-hook` binary that runs it starts as fast as a trivial one; `saverd`
// runs the same code.
package hookcmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/usersock"
)

// Usage is the hook client's help text.
const Usage = `Usage:
  saverd hook [--harness claude-code|codex] [--plugin] EVENT   (or: saverd-hook hook ...)
      The command Claude Code or Codex runs for one hook: the payload on stdin, the answer on stdout,
      always exit 0. EVENT is SessionStart, UserPromptSubmit, UserPromptExpansion (the /saver guard,
      answered without the daemon), PreToolUse, PostToolUse, PostToolUseFailure, SubagentStart,
      SubagentStop, Stop, PreCompact, PostCompact or SessionEnd. A /saver line the daemon cannot answer
      is blocked all the same, saying why. --plugin: the hooks of saverd's plugin, which do nothing
      while saverd's own hooks are in the settings. Problems go to $XDG_STATE_HOME/saverd/hook.log.
      saverd install writes these hooks for you.
  saverd statusline                                 (or: saverd-hook statusline)
      Claude Code's status line: its JSON on stdin, the band as one line; with no daemon holding the
      session, "saverd idle" and the model, context used and cost from the JSON (no daemon is started);
      "saverd not answering" when a daemon runs but does not read the request.
`

// EnvMarker is set in the environment of every fork of the model saverd runs itself; a hook that sees
// it does nothing, so a fork whose hooks were not turned off still records nothing.
const EnvMarker = "SAVERD_FORK"

// maxPayload bounds the hook payload read from stdin: a tool result of tens of megabytes still goes
// through; past this the event is dropped (and logged) rather than held.
const maxPayload = 96 << 20

// Run is `saverd hook [--harness claude-code|codex] EVENT`, the command a harness runs for each
// hook. It forwards the payload to the user's daemon (starting it when none answers) and prints the
// daemon's answer. It never breaks the agent: whatever goes wrong, it prints nothing, exits 0 and
// logs why to the state directory's hook.log.
func Run(args []string, stdin io.Reader, stdout io.Writer, daemon string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprint(stdout, Usage)
		return 0
	}
	if os.Getenv(EnvMarker) != "" {
		return 0 // the judge's own fork: its events are never a session's
	}
	harness, event, plugin, err := hookArgs(args)
	if err != nil {
		hookLog("%v", err)
		return 0
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, maxPayload+1))
	switch {
	case err != nil:
		hookLog("%s: read stdin: %v", event, err)
		return 0
	case len(payload) > maxPayload:
		hookLog("%s: payload over %d MB, dropped", event, maxPayload>>20)
		return 0
	case !json.Valid(payload):
		hookLog("%s: payload is not JSON (%d bytes)", event, len(payload))
		return 0
	}
	if plugin && standDown(harness) {
		return 0 // saverd's hooks are in the settings too: they carry every event, once
	}
	if event == ExpansionEvent {
		stdout.Write(guard(payload))
		return 0
	}
	build := Frame
	if plugin {
		build = PluginFrame
	}
	var declined *declinedLaunch
	if !plugin && daemon != "" {
		if declined = uninstalled(harness); declined != nil {
			daemon = ""
		}
	}
	out, err := ask(paths.Socket(), build(harness, event, payload), WaitsFor(event, payload), daemon, true)
	if declined != nil && usersock.Absent(err) {
		declined.err = err
		err = declined
	}
	if err != nil {
		refused(err)
		hookLog("%s: %v", event, err)
		if event == "UserPromptSubmit" {
			stdout.Write(unanswered(harness, payload, err))
		}
		return 0
	}
	if len(out) > 0 {
		stdout.Write(append(out, '\n'))
	}
	return 0
}

// hookArgs reads `[--harness claude-code|codex] [--plugin] EVENT`. --plugin marks the hooks of saverd's
// plugin, which stand down while saverd's own hooks are in the settings.
func hookArgs(args []string) (harness, event string, plugin bool, err error) {
	harness = DefaultHarness
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		args = args[1:]
		switch {
		case a == "--harness" && len(args) > 0:
			harness, args = args[0], args[1:]
		case strings.HasPrefix(a, "--harness="):
			harness = strings.TrimPrefix(a, "--harness=")
		case a == "--plugin":
			plugin = true
		default:
			return "", "", false, fmt.Errorf("hook: unknown flag %q", a)
		}
	}
	if len(args) != 1 {
		return "", "", false, errors.New("hook: want one EVENT (saverd hook [--harness claude-code|codex] [--plugin] EVENT)")
	}
	return harness, args[0], plugin, nil
}

// Frame is the hook method's request, the payload spliced in as it came.
func Frame(harness, event string, payload []byte) []byte {
	return frame(harness, event, false, payload)
}

// PluginFrame is Frame for a hook of saverd's plugin (--plugin): the daemon names the commands in the
// plugin's spelling while the person has typed none (`/saver:saver` where only the plugin declares one).
func PluginFrame(harness, event string, payload []byte) []byte {
	return frame(harness, event, true, payload)
}

func frame(harness, event string, plugin bool, payload []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(payload) + 160)
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"harness":`)
	writeJSONString(&b, harness)
	b.WriteString(`,"event":`)
	writeJSONString(&b, event)
	if d := os.Getenv("CONTEXTSAVER_DEBUG"); d != "" && d != "0" {
		b.WriteString(`,"debug":true`)
	}
	if plugin {
		b.WriteString(`,"plugin":true`)
	}
	// The one answer a person reads drawn in columns is the pane a `/saver` line gets.
	if w := replyWidth(harness); w > 0 && event == "UserPromptSubmit" {
		b.WriteString(`,"width":` + strconv.Itoa(w))
	}
	b.WriteString(`,"payload":`)
	payload = bytes.TrimSpace(payload)
	// The frame is one line: a payload written over several (pretty-printed; both clients send one line)
	// is compacted, which for valid JSON only drops whitespace, as no string holds a raw newline.
	if bytes.IndexByte(payload, '\n') < 0 || json.Compact(&b, payload) != nil {
		b.Write(payload)
	}
	b.WriteString("}}\n")
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

// stderr is where a refused socket is said: the harness shows a hook's stderr to the person (its stdout
// is the agent's), and the person must learn why saverd stopped answering.
var stderr io.Writer = os.Stderr

// refused says in one line on stderr why the socket was not used, when it is not the user's own
// (usersock.ErrUnsafe); any other failure stays in hook.log.
func refused(err error) {
	if errors.Is(err, usersock.ErrUnsafe) {
		fmt.Fprintf(stderr, "saverd: not using the daemon's socket, nothing sent: %v (SAVERD_SOCKET can name one in a directory only you can enter)\n", err)
	}
}

// launchDaemon launches `DAEMON serve --listen SOCK` detached (its own session, no terminal, logging to
// the state directory). Two hooks racing here start two; the socket's lock keeps one.
func launchDaemon(daemon, sock string) error {
	args := []string{"serve", "--listen", sock}
	if dir, err := paths.StateDir(); err == nil && os.MkdirAll(dir, 0o700) == nil {
		args = append(args, "--log-file", filepath.Join(dir, "daemon.log"))
	}
	cmd := exec.Command(daemon, args...)
	cmd.SysProcAttr = detached()
	cmd.Dir = "/" // it outlives this project's session: it must not hold the project's directory
	cmd.Env = append(os.Environ(), clientEnv()...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start daemon: %w", err)
	}
	return cmd.Process.Release()
}

// isClient reports whether a program is a live harness's client.
func isClient(program string) bool {
	for _, h := range harnesses {
		if h.client == program {
			return true
		}
	}
	return false
}

// clientEnv puts the harness binary that runs this hook on the daemon's PATH, so the judge's fork finds
// `claude` even when the person's shell PATH does not have it.
func clientEnv() []string {
	pid := os.Getppid()
	for range 3 {
		exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		if err != nil {
			return nil
		}
		if isClient(filepath.Base(exe)) {
			return []string{"PATH=" + filepath.Dir(exe) + string(os.PathListSeparator) + os.Getenv("PATH")}
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return nil
		}
		// pid (comm) state ppid …: the comm may hold spaces, so read after its closing parenthesis.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 {
			return nil
		}
		if pid, err = strconv.Atoi(f[1]); err != nil || pid <= 1 {
			return nil
		}
	}
	return nil
}

// hookLog appends one line to the state directory's hook.log: a hook's stdout belongs to the harness
// and its stderr is shown to the person, so the reasons go to a file.
func hookLog(format string, a ...any) {
	dir, err := paths.StateDir()
	if err != nil || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "hook.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s saverd hook: %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, a...))
}

// statusMargin is how many of the terminal's columns Claude Code 2.1.328 keeps around its status line:
// it shows COLUMNS-4 characters of the line (two of indent, and the line is cut with "…" past that), so
// the band is fitted to that room, and shortened by its own rules rather than cut mid-word.
const statusMargin = 4

// Statusline is `saverd statusline`: Claude Code's status line input on stdin, the band as one line
// on stdout. It never starts a daemon; when no daemon draws the session's band it prints IdleLine, and
// HungLine when one runs but did not read the request.
func Statusline(args []string, stdin io.Reader, stdout io.Writer) int {
	if len(args) > 0 {
		fmt.Fprint(stdout, Usage)
		return 0
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, 1<<20))
	if err != nil || !json.Valid(payload) {
		fmt.Fprintln(stdout, IdleLine(payload))
		return 0
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"statusline","params":{`)
	if cols := columns(); cols > statusMargin {
		b.WriteString(`"width":` + strconv.Itoa(cols-statusMargin) + `,`)
	}
	b.WriteString(`"payload":`)
	b.Write(bytes.TrimSpace(payload))
	b.WriteString("}}\n")
	out, err := ask(paths.Socket(), b.Bytes(), Waits{Taken: time.Second, Answer: time.Second}, "", false)
	switch {
	case errors.Is(err, errHung):
		fmt.Fprintln(stdout, HungLine(payload))
		return 0
	case err != nil || len(out) == 0:
		refused(err)
		fmt.Fprintln(stdout, IdleLine(payload))
		return 0
	}
	fmt.Fprintln(stdout, string(out))
	return 0
}
