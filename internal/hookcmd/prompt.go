package hookcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/saverd/saverd/internal/hookline"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/internal/saverline"
)

// ExpansionEvent is Claude Code's UserPromptExpansion: it fires for a known slash command after
// UserPromptSubmit, and only when UserPromptSubmit did not block the line. saverd's guard runs on it
// for the /saver command alone (install's matcher), answered here without the daemon.
const ExpansionEvent = "UserPromptExpansion"

// promptOf reads the typed line of a UserPromptSubmit or UserPromptExpansion payload, "" when there is
// none or the payload does not read.
func promptOf(payload []byte) string {
	var p struct {
		Prompt string `json:"prompt"`
	}
	if json.Unmarshal(payload, &p) != nil {
		return ""
	}
	return p.Prompt
}

// runsJudge reports whether a typed prompt is a saverd command that waits for the judge's run: `/saver
// check` (session's saverReply waits for no other).
func runsJudge(prompt string) bool {
	args, ok := saverline.Args(prompt)
	f := strings.Fields(args)
	return ok && len(f) > 0 && f[0] == "check"
}

// unanswered is the answer for a saverd command the daemon did not answer (none running and none
// could start, a timeout, an error): the line is blocked all the same, so the command file's body never
// goes to the model, and the person reads why in one line. nil for any other prompt, which goes on to
// the model as typed.
func unanswered(harness string, payload []byte, err error) []byte {
	prompt := strings.TrimSpace(promptOf(payload))
	if _, ok := saverline.Args(prompt); !ok {
		return nil
	}
	var declined *declinedLaunch
	if errors.As(err, &declined) {
		return BlockAnswer(harness, "UserPromptSubmit", declined.block(prompt))
	}
	why := err.Error()
	var ne net.Error
	switch {
	case errors.Is(err, errHung):
		why = "the daemon at " + paths.Socket() + " is running but did not read the command (stopped or hung?)"
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED):
		why = "no daemon answers at " + paths.Socket() + " and none could be started"
	case errors.As(err, &ne) && ne.Timeout():
		why = "the daemon did not answer in time"
	}
	return BlockAnswer(harness, "UserPromptSubmit", fmt.Sprintf("saverd did not answer %s: %s. Nothing was sent to the model (%s says more; saverd doctor checks the installation).", prompt, why, logPath()))
}

// guard is the UserPromptExpansion answer: UserPromptSubmit let a saverd command through (its hook
// failed, timed out or answered nothing), so the guard blocks it and says what it can see.
func guard(payload []byte) []byte {
	prompt := strings.TrimSpace(promptOf(payload))
	if _, ok := saverline.Args(prompt); !ok {
		return nil
	}
	sock := paths.Socket()
	why := "no saverd daemon answers at " + sock
	if c, err := net.DialTimeout("unix", sock, 200*time.Millisecond); err == nil {
		c.Close()
		why = "the daemon is running, so its UserPromptSubmit hook failed or timed out"
	}
	return BlockAnswer(expansionHarness, ExpansionEvent, fmt.Sprintf("saverd did not answer %s: %s. Nothing was sent to the model (%s says more; saverd doctor checks the installation).", prompt, why, logPath()))
}

// BlockAnswer is a hook answer that blocks the prompt with reason, in harness's words: with
// suppressOriginalPrompt (the reason shows without the typed line again) where it takes it (Claude Code,
// on UserPromptSubmit and UserPromptExpansion).
func BlockAnswer(harness, event, reason string) []byte {
	a := map[string]any{"decision": "block", "reason": reason}
	if harnesses[harness].suppress {
		a["hookSpecificOutput"] = map[string]any{"hookEventName": event, "suppressOriginalPrompt": true}
	}
	b, _ := json.Marshal(a)
	return append(b, '\n')
}

func logPath() string {
	if dir, err := paths.StateDir(); err == nil {
		return filepath.Join(dir, "hook.log")
	}
	return "saverd's hook.log"
}

// standDown reports whether the plugin's hooks should stand down because saverd's hooks are in the
// harness's settings already (installed with `saverd install` before or after the plugin): every event
// then reaches saverd once, through the settings' hooks.
func standDown(harness string) bool {
	for _, f := range SettingsFiles(harness) {
		if hasSaverdHooks(f) {
			return true
		}
	}
	return false
}

// hasSaverdHooks reports whether a settings file declares one of saverd's hooks. Only a regular file is
// read (a FIFO's open must not hold the hook), and one that does not parse declares nothing.
func hasSaverdHooks(path string) bool {
	data, err := safefile.Read(path, 4<<20)
	if err != nil || !strings.Contains(string(data), "saverd") {
		return false
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(data, &s) != nil {
		return false
	}
	for _, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if hookline.Hook(h.Command) {
					return true
				}
			}
		}
	}
	return false
}
