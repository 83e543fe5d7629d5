package hookcmd

import (
	"os"
	"strings"

	"github.com/saverd/saverd/internal/paths"
)

// declinedLaunch: no daemon answered, and none was started, because saverd was uninstalled and the
// harness's settings name none of its hooks: the hook is one a client still runs from memory (Codex's
// app-server keeps the hooks it loaded until it exits), and a daemon it started would idle on for
// nobody.
type declinedLaunch struct {
	harness string   // the hook's harness id, as saverd install names it
	mark    string   // the uninstall's mark (paths.Uninstalled)
	files   []string // the settings files that name none of saverd's hooks
	err     error    // what the call without a launch met
}

// Error is the hook log's line: where the mark is and which files were read.
func (e *declinedLaunch) Error() string {
	return "saverd was uninstalled (" + e.mark + ") and " + strings.Join(e.files, ", ") +
		" name none of its hooks, so no daemon was started; saverd install " + e.harness + " puts them back"
}

// block is what a person who typed prompt reads: what happened and the command that undoes it.
func (e *declinedLaunch) block(prompt string) string {
	return "saverd was uninstalled, so " + prompt + " did nothing. To use it again, run: saverd install " + e.harness
}

func (e *declinedLaunch) Unwrap() error { return e.err }

// uninstalled is the declined launch of a hook of harness when the uninstall's mark is there and no
// settings file of the harness names saverd's hooks; nil when a daemon may be started. It costs a stat
// when saverd is installed, and the settings files' reads only after an uninstall.
func uninstalled(harness string) *declinedLaunch {
	mark, err := paths.Uninstalled()
	if err != nil {
		return nil
	}
	if _, err := os.Stat(mark); err != nil {
		return nil
	}
	files := SettingsFiles(harness)
	for _, f := range files {
		if hasSaverdHooks(f) {
			return nil // installed again by hand, or at another scope
		}
	}
	return &declinedLaunch{harness: harness, mark: mark, files: files}
}
