// Package install writes saverd's hook entries into the settings files of the harnesses it watches,
// removes exactly those entries again, and checks an installation (doctor). What differs by harness (its
// files at each scope, the hooks saverd declares there, Codex's trust in config.toml, the command file or
// skill, what doctor checks) is the harness package's Target (harness/claude, harness/codex); this
// package keeps what they share: the settings editing, the install record that gives a file back byte
// for byte, the atomic writes, and doctor's daemon and judge checks.
//
// Every edit keeps what it does not own: other settings and foreign hooks stay in their order, a file
// that does not parse is refused and left as it was, and writes are atomic with the file's mode kept.
// The merge functions are pure (text in, text out); the file and process work lives in files.go and
// doctor.go.
package install
