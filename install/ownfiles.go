package install

import (
	"fmt"
	"path/filepath"
)

// ownFile is a file saverd writes whole: the one that makes its command known to a harness's
// interactive UI.
type ownFile struct {
	Path string
	Text string
	What string // what the file is, for the report
	Dirs int    // levels of its directories uninstall removes when they are left empty
}

// ClaudeCommand is the command file that makes /saver known to Claude Code's interactive UI: without it
// the UI answers "Unknown command: /saver" and no hook runs. The UI then autocompletes /saver with the
// description, and the UserPromptSubmit hook receives the typed line and blocks it, so the body is never
// expanded. disable-model-invocation keeps the command out of the skill listing every request carries
// (the model could otherwise run it itself). The body reaches the model only if both saverd's
// UserPromptSubmit hook and the UserPromptExpansion guard failed to answer: it is one short line that
// asks for one short line back.
const ClaudeCommand = `---
description: saverd — the pane; check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
argument-hint: "check | fix N [note] | ignore N | write N | undo | debug | reset"
disable-model-invocation: true
---
saverd's hook did not answer this command. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// PluginCommand is the plugin's /saver:saver command file: ClaudeCommand, its body naming the arguments
// ($ARGUMENTS also keeps Codex from turning the file into a second skill when it installs the plugin).
const PluginCommand = `---
description: saverd — the pane; check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
argument-hint: "check | fix N [note] | ignore N | write N | undo | debug | reset"
disable-model-invocation: true
---
saverd's hook did not answer /saver:saver $ARGUMENTS. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// CodexSkill is the skill that gives Codex users `$saver …`: Codex 0.169.0 has no custom slash commands
// (an unknown /saver is refused in the TUI before any hook), but a skill pops up when `$sav` is typed,
// and the UserPromptSubmit hook receives the typed `$saver check` verbatim and blocks it. The body reaches
// the model only when the hook did not block (it failed or is missing): one short line.
const CodexSkill = `---
name: saver
description: saverd — the pane; $saver check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
---
saverd's hook did not answer this $saver line. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// PluginSkill is the Codex plugin's skill: CodexSkill under the plugin's name, typed `$saver:saver …`.
const PluginSkill = `---
name: saver
description: saverd — the pane; $saver:saver check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
---
saverd's hook did not answer this $saver:saver line. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// CodexSkillPolicy keeps the skill out of the skill listing Codex sends with every request (so the model
// never invokes it on its own); `$saver` still pops up and works when typed.
const CodexSkillPolicy = "policy:\n  allow_implicit_invocation: false\n"

// ClaudeOwnFiles are the files install writes whole for Claude Code at a scope: the /saver command file,
// beside the settings of that scope (~/.claude/commands, DIR/.claude/commands; the local scope has no
// command directory of its own, so it shares the project's).
func ClaudeOwnFiles(scope, dir string) ([]ownFile, error) {
	settings, err := SettingsPath(ClaudeCode, scope, dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(filepath.Dir(settings), "commands", "saver.md")
	return []ownFile{{Path: path, Text: ClaudeCommand, What: "the /saver command file", Dirs: 1}}, nil
}

// CodexOwnFiles are the files install writes whole for Codex at a scope: the saver skill, in
// ${CODEX_HOME:-~/.codex}/skills for the user scope and DIR/.agents/skills (where Codex reads a
// repository's skills) for the project scope.
func CodexOwnFiles(scope, dir string) ([]ownFile, error) {
	hooks, err := SettingsPath(Codex, scope, dir)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(filepath.Dir(hooks), "skills", "saver")
	if scope == "project" {
		root = filepath.Join(filepath.Dir(filepath.Dir(hooks)), ".agents", "skills", "saver")
	}
	return []ownFile{
		{Path: filepath.Join(root, "SKILL.md"), Text: CodexSkill, What: "the $saver skill"},
		{Path: filepath.Join(root, "agents", "openai.yaml"), Text: CodexSkillPolicy, What: "the $saver skill's policy (not invoked by the model)", Dirs: 2},
	}, nil
}

// installOwnFiles reports each file: written when absent; left as it is, with a note, when it holds
// anything else (the person's own, or one they changed).
func installOwnFiles(files []ownFile, err error) ([]FileReport, error) {
	return ownReports(files, err, func(f ownFile, r *FileReport, text string, exists bool) {
		switch {
		case !exists:
			r.Edit = Edit{Text: f.Text, Changes: []string{"added " + f.What}}
		case text != f.Text:
			r.Edit.Notes = []string{fmt.Sprintf("kept it: it is not the text saverd writes (yours, or changed since); %s is what saverd would write", f.What)}
		}
	})
}

// uninstallOwnFiles reports each file: removed when it holds exactly what install wrote, else left, with
// a note naming it.
func uninstallOwnFiles(files []ownFile, err error) ([]FileReport, error) {
	return ownReports(files, err, func(f ownFile, r *FileReport, text string, exists bool) {
		switch {
		case exists && text == f.Text:
			r.Edit.Changes = []string{"removed " + f.What}
			r.Remove, r.RemoveDirs = true, f.Dirs
		case exists:
			r.Edit.Notes = []string{"left it: it is not the text saverd wrote (yours, or changed since)"}
		}
	})
}

// ownReports reads each file (a regular file only) and reports what decide makes of it.
func ownReports(files []ownFile, err error, decide func(f ownFile, r *FileReport, text string, exists bool)) ([]FileReport, error) {
	if err != nil {
		return nil, err
	}
	out := make([]FileReport, 0, len(files))
	for _, f := range files {
		text, exists, err := readFile(f.Path)
		if err != nil {
			return nil, err
		}
		r := FileReport{Path: f.Path, Edit: Edit{Text: text}}
		decide(f, &r, text, exists)
		out = append(out, r)
	}
	return out, nil
}
