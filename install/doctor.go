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
	Dir           string        // the project directory of Claude Code's project and local scopes
	Socket        string        // the daemon's socket (paths.Socket())
	JudgeCmd      string        // the Claude Code judge's command line; "" is the built-in claude
	CodexJudgeCmd string        // the Codex judge's command line; "" is the built-in codex
	JudgeSource   string        // where those came from ($SAVERD_JUDGE_CMD, the config file), for the report
	JudgeErr      error         // the judge configuration could not be read
	DaemonWait    time.Duration // how long the daemon has to answer initialize (1 s)
	VersionWait   time.Duration // how long a judge command has to answer --version (5 s)
}

// Doctor checks the hooks of both harnesses, the daemon and the judge commands, untrusted Codex hooks
// first and the rest in the order checked.
func Doctor(ctx context.Context, o DoctorOptions) []Finding {
	claude, claudeInstalled := claudeFindings(o.Dir)
	codex, codexInstalled := codexFindings(o.Dir)
	out := append(claude, codex...)
	if !claudeInstalled && !codexInstalled {
		out = append(out, Finding{Level: Fix, Text: "no saverd hooks installed for Claude Code or Codex: run `saverd install claude-code` (or `codex`)"})
	}
	out = append(out, checkDaemon(o.Socket, o.DaemonWait))
	if o.JudgeErr != nil {
		out = append(out, Finding{Level: Fix, Text: "judge: " + o.JudgeErr.Error() + ": /saver check fails until it parses"})
	}
	out = append(out, checkCommand(ctx, judgeRole("judge", o.JudgeCmd, o.JudgeSource), firstWord(o.JudgeCmd, "claude"), o.VersionWait))
	if codexInstalled {
		out = append(out, checkCommand(ctx, judgeRole("codex judge", o.CodexJudgeCmd, o.JudgeSource), firstWord(o.CodexJudgeCmd, "codex"), o.VersionWait))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].First && !out[j].First })
	return out
}

// claudeFindings reports Claude Code's hooks at every scope, and whether any scope has them.
func claudeFindings(dir string) ([]Finding, bool) {
	var out []Finding
	var installed, read []string
	for _, scope := range []string{"user", "project", "local"} {
		path, err := SettingsPath(ClaudeCode, scope, dir)
		if err != nil {
			out = append(out, Finding{Level: Fix, Text: "claude-code " + scope + ": " + err.Error()})
			continue
		}
		if slices.Contains(read, path) {
			continue // a project at the home directory: its project file is the user's
		}
		read = append(read, path)
		text, exists, err := readFile(path)
		if err != nil || !exists {
			if err != nil {
				out = append(out, Finding{Level: Fix, Text: "claude-code: " + err.Error()})
			}
			continue
		}
		root, err := parseObject(text)
		if err != nil {
			out = append(out, Finding{Level: Fix, Text: fmt.Sprintf("claude-code %s: %s does not parse (%v): Claude Code ignores it", scope, path, err)})
			continue
		}
		var present []string
		if hooks, _ := hooksTable(root, false); hooks != nil {
			for _, event := range hooks.Keys() {
				groups, _ := hooks.Get(event).([]any)
				for _, g := range groups {
					group, _ := g.(*object)
					if group == nil {
						continue
					}
					handlers, _ := group.Get("hooks").([]any)
					for _, v := range handlers {
						if cmd, ok := commandOf(v); ok && Ours(cmd) {
							present = append(present, event+"\x00"+cmd)
						}
					}
				}
			}
		}
		if len(present) == 0 {
			continue
		}
		installed = append(installed, scope)
		out = append(out, coverage("claude-code", scope, path, present, claudeEvents))
	}
	if len(installed) > 1 {
		out = append(out, Finding{Level: Fix, Text: fmt.Sprintf("claude-code: hooks installed at %s: Claude Code runs every one, so each event reaches saverd %d times; uninstall all but one scope", strings.Join(installed, " and "), len(installed))})
	}
	plugin, err := ClaudePlugin(dir)
	switch {
	case err != nil:
		out = append(out, Finding{Level: Fix, Text: "claude-code: " + err.Error()})
	case plugin != "" && len(installed) > 0:
		out = append(out, Finding{Level: Fix, Text: fmt.Sprintf("claude-code: the %s plugin and saverd's hooks at %s are both installed: the plugin's hooks stand down while those are there, so only one set runs; remove one route (`saverd uninstall claude-code --scope %s`, or `claude plugin uninstall %s`)", plugin, strings.Join(installed, " and "), installed[0], plugin)})
	case plugin != "":
		out = append(out, Finding{Level: OK, Text: "claude-code: the " + plugin + " plugin brings saverd's hooks (its command is /saver:saver)"})
	case len(installed) == 0:
		out = append(out, Finding{Level: Note, Text: "claude-code: no saverd hooks at any scope here (user, project, local)"})
	}
	if len(installed) > 0 || plugin != "" {
		out = append(out, commandFinding(dir, installed))
	}
	return out, len(installed) > 0 || plugin != ""
}

// commandFinding says whether /saver is known to Claude Code's interactive UI: without a command file
// the UI answers "Unknown command: /saver" and no hook runs.
func commandFinding(dir string, scopes []string) Finding {
	if len(scopes) == 0 {
		scopes = []string{"user"}
	}
	var looked []string
	for _, scope := range []string{"user", scopes[0]} {
		files, err := ClaudeOwnFiles(scope, dir)
		if err != nil {
			return Finding{Level: Fix, Text: "claude-code: " + err.Error()}
		}
		if _, exists, err := readFile(files[0].Path); err == nil && exists {
			return Finding{Level: OK, Text: "claude-code: /saver is known to the interactive UI (" + files[0].Path + ")"}
		}
		looked = append(looked, files[0].Path)
	}
	return Finding{Level: Fix, Text: fmt.Sprintf("claude-code: no /saver command file (%s): typed in the interactive UI, /saver is an unknown command that no hook sees; run `saverd install claude-code --scope %s`", strings.Join(looked, " or "), scopes[0])}
}

// coverage says whether every event saverd hooks has one of its handlers, and whether the binary they
// run is still there. present holds "event\x00command" for each handler of saverd's found.
func coverage(harness, scope, path string, present []string, want []Handler) Finding {
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

// codexFindings reports Codex's hooks at the user and project scopes, every handler's trust first.
func codexFindings(dir string) ([]Finding, bool) {
	var out []Finding
	cfg, err := CodexConfigPath()
	if err != nil {
		return []Finding{{Level: Fix, Text: "codex: " + err.Error()}}, false
	}
	cfgText, _, err := readFile(cfg)
	var trust map[string]string
	if err == nil {
		trust, err = ReadTrust(cfg, cfgText)
	}
	if err != nil {
		out = append(out, Finding{Level: Fix, First: true, Text: "codex: " + err.Error() + ": Codex trusts no hook"})
	}
	var installed []string // the scopes holding saverd's handlers
	var read []string
	for _, scope := range []string{"user", "project"} {
		path, err := SettingsPath(Codex, scope, dir)
		if err != nil {
			out = append(out, Finding{Level: Fix, Text: "codex " + scope + ": " + err.Error()})
			continue
		}
		if slices.Contains(read, path) {
			continue // a project at the home directory: its project file is the user's
		}
		read = append(read, path)
		text, exists, err := readFile(path)
		if err != nil {
			out = append(out, Finding{Level: Fix, Text: "codex: " + err.Error()})
			continue
		}
		if !exists {
			continue
		}
		decls, err := Declarations(path, text)
		if err != nil {
			out = append(out, Finding{Level: Fix, Text: fmt.Sprintf("codex %s: %v: Codex ignores it", scope, err)})
			continue
		}
		var present []string
		for _, d := range decls {
			if d.Ours {
				present = append(present, d.Event+"\x00"+d.Command)
			}
			if f, bad := untrusted(d, trust, cfg); bad {
				out = append(out, f)
			}
		}
		if len(present) > 0 {
			installed = append(installed, scope)
			out = append(out, coverage("codex", scope, path, present, codexEvents))
			if dir := projectOf(path); dir != "" && trust != nil {
				if ok, _ := ProjectTrusted(cfg, cfgText, dir); !ok {
					out = append(out, Finding{Level: Fix, First: true, Text: "codex: UNTRUSTED PROJECT — " + untrustedProject(dir, cfg)})
				}
			}
		}
	}
	if len(installed) > 1 {
		out = append(out, Finding{Level: Fix, Text: fmt.Sprintf("codex: hooks installed at %s: Codex runs both files' hooks, so each event reaches saverd %d times; uninstall all but one scope", strings.Join(installed, " and "), len(installed))})
	}
	if len(installed) == 0 {
		out = append(out, Finding{Level: Note, Text: "codex: no saverd hooks in " + strings.Join(read, " or ")})
	}
	return out, len(installed) > 0
}

// untrusted reports a handler Codex will skip because config.toml does not trust its declaration.
// A foreign handler is only a note (it is the person's own), and one whose hash saverd cannot compute
// is left unjudged.
func untrusted(d Declared, trust map[string]string, cfg string) (Finding, bool) {
	if d.Hash == "" || trust[d.Key] == d.Hash {
		return Finding{}, false
	}
	why := "has no trust entry"
	if _, ok := trust[d.Key]; ok {
		why = "has a trust entry for a different declaration (changed since it was trusted)"
	}
	if d.Ours {
		return Finding{Level: Fix, First: true, Text: fmt.Sprintf("codex: UNTRUSTED — Codex skips saverd's %s hook without a word: %s in %s: run `saverd install codex`", d.Event, why, cfg)}, true
	}
	return Finding{Level: Note, First: true, Text: fmt.Sprintf("codex: untrusted — Codex skips your %s hook %q: %s in %s", d.Event, d.Command, why, cfg)}, true
}

// checkDaemon asks the daemon's socket one initialize and wants a reply within wait. No daemon is not a
// fault: the first hook starts one. A socket whose directory or listener is not the user's own is
// (usersock.Dial): the hooks refuse it too, so nothing is asked of it.
func checkDaemon(socket string, wait time.Duration) Finding {
	conn, err := usersock.Dial(socket, wait)
	if errors.Is(err, usersock.ErrUnsafe) {
		return Finding{Level: Fix, Text: fmt.Sprintf("daemon: the hooks refuse the socket, and so does doctor: %v", err)}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
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

// checkCommand finds a command on PATH and wants `--version` to answer within wait.
func checkCommand(ctx context.Context, role, name string, wait time.Duration) Finding {
	path, err := exec.LookPath(name)
	if err != nil {
		return Finding{Level: Fix, Text: fmt.Sprintf("%s: %s not found on PATH: /saver check cannot run", role, name)}
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

// InUse reports whether any harness still runs saverd here: saverd's hooks in Claude Code's settings at
// any scope for dir, the saver plugin enabled, or saverd's hooks in either Codex hooks.json. Uninstall
// stops the daemon when none is left.
func InUse(dir string) bool {
	_, claude := claudeFindings(dir)
	_, codex := codexFindings(dir)
	return claude || codex
}
