// Package forkcmd runs a judge or process prompt through a command-line agent when no connected host
// answers model.fork: the session's harness's own client (its Client: `claude -p --resume <session>
// --fork-session` for a Claude Code session, whose first request reuses the parent's prompt cache, `codex
// exec` for a Codex one), or a command the person configured. The fork runs with SAVERD_FORK=1 in its
// environment (and a client's hooks off where it can turn them off), so its own tool calls and turns
// never reach the daemon as events of a session. Pricing what a fork spent and the forks log are the
// caller's.
package forkcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/saverd/saverd/internal/hookcmd"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/state/judge"
)

// EnvMarker is set in every fork's environment; `saverd hook` exits at once, printing nothing, when it
// sees it, so a fork whose hooks were not turned off still records nothing.
const EnvMarker = hookcmd.EnvMarker

// Client is a harness's command-line client as a fork runs it; each harness whose hooks saverd answers
// provides one (harness.Live).
type Client interface {
	// Name is how a person calls the harness ("Claude Code"), for the message that asks to install it.
	Name() string
	// ForkCommand is the built-in fork of req: the program to find on PATH and its arguments, or why req
	// cannot be forked so (an id or model CheckSessionID or CheckModel refuses).
	ForkCommand(req Request) (program string, args []string, err error)
	// ForkLine is the command line cfg names for the harness's sessions; "" runs ForkCommand's.
	ForkLine(cfg Config) string
	// ForkResult reads what the fork printed (the configured command answers in the client's form): its
	// text, its own usage and session id; a result that says it failed is an error, with what it spent.
	ForkResult(out []byte) (Result, error)
}

// Configured is the Client of a harness that has none of its own to run (Gemini CLI, OpenCode, Qwen
// Code): only the configured judgeCommand, read as claude -p's result (ParseClaude).
type Configured struct{}

// ErrNoFork is Configured's answer when no command is configured.
var ErrNoFork = errors.New("no built-in judge fork for this harness's sessions: set $SAVERD_JUDGE_CMD or judgeCommand in the config file")

func (Configured) Name() string                                  { return "" }
func (Configured) ForkCommand(Request) (string, []string, error) { return "", nil, ErrNoFork }
func (Configured) ForkLine(cfg Config) string                    { return cfg.Claude }
func (Configured) ForkResult(out []byte) (Result, error)         { return ParseClaude(out) }

// Request is one fork: the session it judges and the prompt.
type Request struct {
	Harness   string // the session's harness (harness.ID), for the fork's environment
	SessionID string // the harness's own session id: claude --resume takes it
	Cwd       string // where the session runs: claude finds its transcript by the working directory
	Model     string // the session's model, when known: the fork then shares its cache
	Purpose   string // judge | process
	Prompt    string
}

// Result is what the fork answered and what its own requests used. No cost comes with it: a client's
// figure is not the fork's alone (claude -p --resume … --fork-session reports a total_cost_usd that
// includes the resumed transcript's earlier spend), so the fork is priced from Usage by its caller.
type Result struct {
	Text  string
	Usage judge.ForkUsage
	// Model is the model the fork ran on: the one it was asked for, else the one its client names when
	// it names one; "" when unknown.
	Model string
	// ForkID is the session id the fork ran as (claude -p's session_id, codex exec's thread_id), so the
	// session readers can tell a fork from a session the person ran.
	ForkID string
}

// Spent says whether a result carries anything a run spent: tokens, or a fork id to record it by.
func (r Result) Spent() bool { return r.ForkID != "" || r.Usage != (judge.ForkUsage{}) }

// Config says which command forks a session of each harness. Empty fields mean the built-in command.
type Config struct {
	// Claude and Codex are shell command lines (run with /bin/sh -c, the prompt on stdin, the request in
	// SAVERD_SESSION_ID, SAVERD_CWD, SAVERD_MODEL, SAVERD_PURPOSE, SAVERD_HARNESS); their standard output
	// is read as the client's JSON result (claude -p --output-format json) or event stream (codex exec --json).
	Claude string `json:"judgeCommand,omitempty"`
	Codex  string `json:"codexJudgeCommand,omitempty"`
	// Source says where the configuration came from, for doctor and the logs.
	Source string `json:"-"`
}

// ConfigFile is the configuration file's name under paths.ConfigDir.
const ConfigFile = "config.json"

// Load reads the configuration: $SAVERD_JUDGE_CMD (for every harness) wins over the config file, and
// a missing file is the built-in commands. A file that does not parse is an error naming it, so a typo
// never silently falls back to spending through another command.
func Load() (Config, error) {
	var cfg Config
	if dir, err := paths.ConfigDir(); err == nil {
		path := filepath.Join(dir, ConfigFile)
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := json.Unmarshal(data, &cfg); err != nil {
				return Config{}, fmt.Errorf("read %s: %w", path, err)
			}
			cfg.Source = path
		case !errors.Is(err, os.ErrNotExist):
			return Config{}, fmt.Errorf("read %s: %w", path, err)
		}
	}
	if cmd := os.Getenv("SAVERD_JUDGE_CMD"); cmd != "" {
		cfg.Claude, cfg.Codex, cfg.Source = cmd, cmd, "SAVERD_JUDGE_CMD"
	}
	return cfg, nil
}

// maxIDLen bounds a session id or a model name given to a client's command line: the harnesses' own
// are UUIDs and short model ids.
const maxIDLen = 128

// CheckSessionID says why id cannot be handed to a client as the session to fork, or nil. A session id
// comes from a hook payload, which is data: only letters, digits, '-', '_' and '.' are taken, starting
// with a letter or a digit (Claude Code's and Codex's ids are UUIDs), so no id can name an option, a
// path or a second argument.
func CheckSessionID(id string) error {
	if id == "" {
		return errors.New("no session id to fork")
	}
	if len(id) > maxIDLen || !isAlnum(id[0]) || strings.IndexFunc(id, notIDRune) >= 0 {
		return fmt.Errorf("the session id %q is not one a client names a session by (letters, digits, '-', '_', '.'): not forked", cut(id))
	}
	return nil
}

// CheckModel says why model cannot be handed to a client as the model to run, or nil ("" is none).
// Model ids carry more than an id's characters (claude-opus-4-6[1m]), so only what could never be one
// is refused: a leading '-', whitespace or a control character, or an overlong name.
func CheckModel(model string) error {
	if model == "" {
		return nil
	}
	if len(model) > maxIDLen || model[0] == '-' || strings.IndexFunc(model, func(r rune) bool { return r <= ' ' || r == 0x7f || unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return fmt.Errorf("the session's model %q is not a model name: not forked", cut(model))
	}
	return nil
}

// notIDRune: a character no session id holds.
func notIDRune(r rune) bool {
	return r > 0x7f || !isAlnum(byte(r)) && r != '-' && r != '_' && r != '.'
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cut is s shortened for a message: a hostile id may be long.
func cut(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Run forks the model for req through c and waits for its answer, ctx bounding the wait (the process
// group is killed when ctx ends). A run that failed after its client reported what it spent (a result
// that says it failed, a Codex turn that failed) comes back with that Result beside the error: it was
// billed all the same.
func Run(ctx context.Context, cfg Config, c Client, req Request) (Result, error) {
	cmd, err := command(ctx, cfg, c, req)
	if err != nil {
		return Result{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdin = strings.NewReader(req.Prompt)
	cmd.Stdout = &stdout
	cmd.Stderr = &limited{buf: &stderr, max: 4096}
	start := time.Now()
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("the fork did not answer within %s", time.Since(start).Round(time.Second))
	}
	res, parseErr := c.ForkResult(stdout.Bytes())
	if req.Model != "" {
		res.Model = req.Model // the model asked for, when there was one
	}
	if runErr != nil {
		if parseErr != nil && res.Spent() {
			return res, parseErr // the client's own words for why it failed, and what it spent
		}
		why := lastLine(stderr.String())
		if why == "" {
			why = lastLine(stdout.String())
		}
		if why == "" {
			return res, fmt.Errorf("%s: %w", cmd.Args[0], runErr)
		}
		return res, fmt.Errorf("%s: %w: %s", filepath.Base(cmd.Args[0]), runErr, why)
	}
	return res, parseErr
}

// Available says why req cannot be forked through c with cfg (no client binary on PATH, no session id),
// or nil.
func Available(cfg Config, c Client, req Request) error {
	_, err := command(context.Background(), cfg, c, req)
	return err
}

// command builds the process for req: the configured shell line, or c's built-in command.
func command(ctx context.Context, cfg Config, c Client, req Request) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	if line := c.ForkLine(cfg); line != "" {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", line)
	} else {
		program, args, err := c.ForkCommand(req)
		if err != nil {
			return nil, err
		}
		bin, err := exec.LookPath(program)
		if err != nil {
			return nil, fmt.Errorf("no %s on PATH to run the judge (install %s, or set SAVERD_JUDGE_CMD or %s)", program, c.Name(), configPath())
		}
		cmd = exec.CommandContext(ctx, bin, args...)
	}
	if req.Cwd != "" {
		if fi, err := os.Stat(req.Cwd); err == nil && fi.IsDir() {
			cmd.Dir = req.Cwd
		}
	}
	cmd.Env = append(os.Environ(), EnvMarker+"=1",
		"SAVERD_SESSION_ID="+req.SessionID, "SAVERD_CWD="+req.Cwd, "SAVERD_MODEL="+req.Model,
		"SAVERD_PURPOSE="+req.Purpose, "SAVERD_HARNESS="+req.Harness)
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	return cmd, nil
}

// claudeResult is `claude -p --output-format json`'s result object. Its total_cost_usd and modelUsage
// are cumulative over the session, the resumed transcript's earlier runs included, so only modelUsage's
// keys are read (which models ran); usage is this run's own.
type claudeResult struct {
	Type       string                     `json:"type"`
	Subtype    string                     `json:"subtype"`
	IsError    bool                       `json:"is_error"`
	Result     *string                    `json:"result"`
	SessionID  string                     `json:"session_id"`
	Usage      *judge.ForkUsage           `json:"usage"`
	ModelUsage map[string]json.RawMessage `json:"modelUsage"`
}

// ParseClaude reads a `claude -p --output-format json` result: its text, this run's usage, the fork's
// session id, and the model when the result names one only. A result that says it failed is an error
// saying why, with what it spent beside it; one that is not that object is an error saying what came back.
func ParseClaude(out []byte) (Result, error) {
	out = bytes.TrimSpace(out)
	// Some versions print a JSON array of events: the result object is the last element.
	if len(out) > 0 && out[0] == '[' {
		var events []json.RawMessage
		if err := json.Unmarshal(out, &events); err != nil || len(events) == 0 {
			return Result{}, fmt.Errorf("the fork printed something that is not its JSON result: %q", head(out))
		}
		out = events[len(events)-1]
	}
	var r claudeResult
	if err := json.Unmarshal(out, &r); err != nil {
		return Result{}, fmt.Errorf("the fork printed something that is not its JSON result: %q", head(out))
	}
	spent := Result{ForkID: r.SessionID}
	if r.Usage != nil {
		spent.Usage = *r.Usage
	}
	if len(r.ModelUsage) == 1 {
		for m := range r.ModelUsage {
			spent.Model = m
		}
	}
	if r.IsError {
		why := r.Subtype
		if r.Result != nil && *r.Result != "" {
			why += ": " + *r.Result
		}
		return spent, fmt.Errorf("the fork failed (%s)", strings.TrimSpace(why))
	}
	if r.Result == nil || r.Usage == nil {
		return spent, fmt.Errorf("the fork's result has no result text or usage: %q", head(out))
	}
	spent.Text = *r.Result
	return spent, nil
}

func head(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// limited keeps the first max bytes written: a chatty client cannot fill the daemon's memory.
type limited struct {
	buf *bytes.Buffer
	max int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		if len(p) > room {
			l.buf.Write(p[:room])
		} else {
			l.buf.Write(p)
		}
	}
	return len(p), nil
}

// configPath is where Load reads the configuration file, for the messages that send a person there.
func configPath() string {
	dir, err := paths.ConfigDir()
	if err != nil {
		return "$XDG_CONFIG_HOME/saverd/" + ConfigFile
	}
	return filepath.Join(dir, ConfigFile)
}
