// Package install writes saverd's hook entries into the settings files of the harnesses it watches
// (Claude Code's settings.json, Codex's hooks.json and the trust entries Codex requires in config.toml),
// removes exactly those entries again, and checks an installation (doctor).
//
// Every edit keeps what it does not own: other settings and foreign hooks stay in their order, a file
// that does not parse is refused and left as it was, and writes are atomic with the file's mode kept.
// The merge functions are pure (text in, text out); the file and process work lives in files.go and
// doctor.go.
package install
