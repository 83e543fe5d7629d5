// Package paths names where saverd keeps its socket, its state and its configuration on one machine,
// so the daemon, `saverd hook`, `saverd statusline`, `saverd install` and `saverd doctor` agree without
// talking to each other.
package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Socket is the Unix socket of the user's shared daemon: $SAVERD_SOCKET when set, else
// $XDG_RUNTIME_DIR/saverd/saverd.sock, else ${TMPDIR:-/tmp}/saverd-$UID/saverd.sock. The runtime dir is
// per user and cleaned at logout; the /tmp fallback carries the uid so two users never share one.
func Socket() string {
	if p := os.Getenv("SAVERD_SOCKET"); p != "" {
		return p
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "saverd", "saverd.sock")
	}
	// os.TempDir is $TMPDIR or /tmp on Unix, and the user's own %TMP% on Windows.
	return filepath.Join(os.TempDir(), "saverd-"+strconv.Itoa(os.Getuid()), "saverd.sock")
}

// StateDir is where saverd keeps what it learns: $XDG_STATE_HOME/saverd, else ~/.local/state/saverd.
// A relative XDG_STATE_HOME is ignored, as the XDG base directory spec asks.
func StateDir() (string, error) { return xdgDir("state", "XDG_STATE_HOME", ".local", "state") }

// ConfigDir is where saverd reads its configuration: $XDG_CONFIG_HOME/saverd, else ~/.config/saverd.
func ConfigDir() (string, error) { return xdgDir("config", "XDG_CONFIG_HOME", ".config") }

// SessionsLog is the file the daemon appends one record to per ended session.
func SessionsLog() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sessions.jsonl"), nil
}

// ForksLog is the file the socket daemon appends one line to per fork it ran through a client (a judge
// run through claude -p --fork-session): the session readers count a fork's spend as its parent's.
func ForksLog() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "forks.jsonl"), nil
}

// Uninstalled is the mark `saverd uninstall` leaves when nothing uses saverd any more, and `saverd
// install` takes away: a hook a client still runs from memory (Codex's app-server keeps the hooks it
// loaded until it exits) then starts no daemon unless its settings name saverd's hooks again.
func Uninstalled() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "uninstalled"), nil
}

// CacheDir is where saverd keeps what it can make again: $XDG_CACHE_HOME/saverd, else ~/.cache/saverd.
func CacheDir() (string, error) { return xdgDir("cache", "XDG_CACHE_HOME", ".cache") }

// xdgDir is saverd's directory of a kind: $env/saverd, else <home>/<under…>/saverd. A relative $env is
// ignored, as the XDG base directory spec asks.
func xdgDir(kind, env string, under ...string) (string, error) {
	if d := os.Getenv(env); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "saverd"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("%s directory: neither %s nor a home directory: %w", kind, env, err)
	}
	return filepath.Join(append(append([]string{home}, under...), "saverd")...), nil
}

// LogCache is the file `saverd sessions`, `blocks`, `report` and `impact` keep what they read of each
// agent log in (agentlog.Cache), so that a log unchanged since is not read again.
func LogCache() (string, error) {
	d, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "logs.cache"), nil
}
