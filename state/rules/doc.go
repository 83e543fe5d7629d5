// Package rules produces the lasting rules the pane offers to write: the artifact each decided habit
// proposes (a CLAUDE.md line, a skill, an agent brief, a settings allow-list entry), its file contents,
// the merge into an existing settings file, and whether a file already holds a rule.
//
// It is pure, as the core is (see package state): file contents come in and go out as strings.
package rules
