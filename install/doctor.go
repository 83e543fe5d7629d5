package install

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/saverd/saverd/internal/usersock"
)

// Level says whether a doctor finding needs the person to act.
type Level int

const (
	OK   Level = iota // all is well
	Note              // worth knowing, nothing to fix
	Fix               // something needs fixing: doctor exits 1
)

// Finding is one line of doctor's report. Untrusted Codex hooks are marked First: Codex skips them
// without a word, so they are the first thing the report says.
type Finding struct {
	Level Level
	Text  string
	First bool
}

// DoctorOptions say where doctor looks.
type DoctorOptions struct {
	Dir         string        // the project directory of the project and local scopes
	Harnesses   []Named       // what doctor checks, in the order it reports them
	Socket      string        // the daemon's socket (paths.Socket())
	JudgeSource string        // where the judge command lines came from ($SAVERD_JUDGE_CMD, the config file), for the report
	JudgeErr    error         // the judge configuration could not be read
	DaemonWait  time.Duration // how long the daemon has to answer initialize (1 s)
	// UninstallMark is the file `saverd uninstall` leaves (paths.Uninstalled): while it is there a hook
	// whose settings name none of saverd's hooks starts no daemon.
	UninstallMark string
	VersionWait   time.Duration // how long a judge command has to answer --version (5 s)
}

// Named is a harness doctor checks: its id as the command line names it (claude-code), its name as a
// person calls it (Claude Code), saverd's command as a person types it there (/saver, $saver), the judge
// command line configured for its sessions ("" is the built-in client), and its Target.
type Named struct {
	ID, Name, Command string
	JudgeLine         string
	Target
}

// Doctor checks the hooks of every harness, the daemon and the judge commands, the findings marked First
// (untrusted Codex hooks) first and the rest in the order checked.
func Doctor(ctx context.Context, o DoctorOptions) []Finding {
	var out []Finding
	installed := make([]bool, len(o.Harnesses))
	some := false
	for i, h := range o.Harnesses {
		var f []Finding
		f, installed[i] = h.Findings(o.Dir)
		out, some = append(out, f...), some || installed[i]
	}
	if !some && len(o.Harnesses) > 0 {
		out = append(out, Finding{Level: Fix, Text: noHooks(o.Harnesses)})
	}
	out = append(out, checkDaemon(o.Socket, o.UninstallMark, o.DaemonWait))
	if o.JudgeErr != nil {
		out = append(out, Finding{Level: Fix, Text: "judge: " + o.JudgeErr.Error() + ": /saver check fails until it parses"})
	}
	for i, h := range o.Harnesses {
		// A harness that is not installed forks no judge: its judge missing is nothing to fix.
		if installed[i] {
			role, program := h.DoctorJudge()
			out = append(out, checkCommand(ctx, judgeRole(role, h.JudgeLine, o.JudgeSource), firstWord(h.JudgeLine, program), h.Command, o.VersionWait))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].First && !out[j].First })
	return out
}

// noHooks says that no harness has saverd's hooks, and how to install them.
func noHooks(hs []Named) string {
	names := make([]string, len(hs))
	for i, h := range hs {
		names[i] = h.Name
	}
	text := "no saverd hooks installed for " + strings.Join(names, " or ") + ": run `saverd install " + hs[0].ID + "`"
	if len(hs) > 1 {
		others := make([]string, len(hs)-1)
		for i, h := range hs[1:] {
			others[i] = "`" + h.ID + "`"
		}
		text += " (or " + strings.Join(others, ", ") + ")"
	}
	return text
}

// Coverage says whether every event saverd hooks has one of its handlers, and whether the binary they
// run is still there. present holds "event\x00command" for each handler of saverd's found.
func Coverage(harness, scope, path string, present []string, want []Handler) Finding {
	have := map[string]bool{}
	var missingBins []string
	for _, p := range present {
		event, cmd, _ := strings.Cut(p, "\x00")
		have[event] = true
		if w := words(cmd, 1); len(w) == 1 {
			if st, err := os.Stat(w[0]); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
				if !slices.Contains(missingBins, w[0]) {
					missingBins = append(missingBins, w[0])
				}
			}
		}
	}
	var missing []string
	for _, h := range want {
		if !have[h.Event] {
			missing = append(missing, h.Event)
		}
	}
	where := fmt.Sprintf("%s %s (%s)", harness, scope, path)
	switch {
	case len(missingBins) > 0:
		return Finding{Level: Fix, Text: fmt.Sprintf("%s: the hooks run %s, which is not an executable file: run `saverd install %s --scope %s` again", where, strings.Join(missingBins, ", "), harness, scope)}
	case len(missing) > 0:
		return Finding{Level: Fix, Text: fmt.Sprintf("%s: no saverd hook for %s: run `saverd install %s --scope %s`", where, strings.Join(missing, ", "), harness, scope)}
	}
	return Finding{Level: OK, Text: fmt.Sprintf("%s: hooks installed for all %d events", where, len(want))}
}

// checkDaemon asks the daemon's socket one initialize and wants a reply within wait. No daemon is not a
// fault: the first hook starts one, unless the uninstall's mark (mark) is there. A socket whose directory
// or listener is not the user's own is (usersock.Dial): the hooks refuse it too, so nothing is asked of it.
func checkDaemon(socket, mark string, wait time.Duration) Finding {
	conn, err := usersock.Dial(socket, wait)
	if errors.Is(err, usersock.ErrUnsafe) {
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: the hooks refuse the socket, and so does doctor: %v", err)}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			if _, err := os.Stat(mark); mark != "" && err == nil {
				return Finding{Level: Note, Text: "daemon: no daemon running at " + socket + ", and hooks start none: saverd was uninstalled (" + mark + "); saverd install takes that mark away"}
			}
			return Finding{Level: Note, Text: "daemon: no daemon running at " + socket + " — the first hook starts one"}
		}
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: cannot connect to %s: %v", socket, err)}
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(wait))
	req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"saverd-doctor"}}}` + "\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: %s accepted a connection but not the request: %v", socket, err)}
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: %s did not answer initialize within %v: %v", socket, wait, err)}
	}
	var reply struct {
		Result *struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(line, &reply); err != nil || (reply.Result == nil && reply.Error == nil) {
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: %s answered something that is not a JSON-RPC reply: %.200q", socket, line)}
	}
	if reply.Error != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: %s refused initialize: %s", socket, reply.Error.Message)}
	}
	return Finding{Level: OK, Text: fmt.Sprintf("daemon: answers at %s (%s %s)", socket, reply.Result.ServerInfo.Name, reply.Result.ServerInfo.Version)}
}

// firstWord is the program a command line runs, or def for an empty line.
func firstWord(line, def string) string {
	if w := words(line, 1); len(w) == 1 {
		return w[0]
	}
	return def
}

// judgeRole names a judge check, with the setting its command line came from when it is not built in.
func judgeRole(role, line, source string) string {
	if line != "" && source != "" {
		return role + " (" + source + ")"
	}
	return role
}

// checkCommand finds a command on PATH and wants `--version` to answer within wait; saver is saverd's
// command as the harness spells it, for the report.
func checkCommand(ctx context.Context, role, name, saver string, wait time.Duration) Finding {
	path, err := exec.LookPath(name)
	if err != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("%s: %s not found on PATH: %s check cannot run", role, name, saver)}
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	// A child that keeps the output pipe open must not hold doctor past the bound.
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("%s: %s --version did not answer within %v", role, path, wait)}
	}
	if err != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("%s: %s --version failed (%v): %.200s", role, path, err, strings.TrimSpace(string(out)))}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return Finding{Level: OK, Text: fmt.Sprintf("%s: %s runs (%s)", role, path, first)}
}

// InUse reports whether any harness still runs saverd here: saverd's hooks at any scope for dir, or what
// stands in for them (Claude Code's plugin). Uninstall stops the daemon when none is left.
func InUse(hs []Target, dir string) bool {
	for _, h := range hs {
		if _, installed := h.Findings(dir); installed {
			return true
		}
	}
	return false
}
