package install

import (
	"fmt"
)

// OwnFile is a file saverd writes whole: the one that makes its command known to a harness's
// interactive UI (Claude Code's /saver command file, Codex's $saver skill).
type OwnFile struct {
	Path string
	Text string
	What string // what the file is, for the report
	Dirs int    // levels of its directories uninstall removes when they are left empty
}

// InstallOwnFiles reports each file: written when absent; left as it is, with a note, when it holds
// anything else (the person's own, or one they changed).
func InstallOwnFiles(files []OwnFile, err error) ([]FileReport, error) {
	return ownReports(files, err, func(f OwnFile, r *FileReport, text string, exists bool) {
		switch {
		case !exists:
			r.Edit = Edit{Text: f.Text, Changes: []string{"added " + f.What}}
		case text != f.Text:
			r.Edit.Notes = []string{fmt.Sprintf("kept it: it is not the text saverd writes (yours, or changed since); %s is what saverd would write", f.What)}
		}
	})
}

// UninstallOwnFiles reports each file: removed when it holds exactly what install wrote, else left, with
// a note naming it.
func UninstallOwnFiles(files []OwnFile, err error) ([]FileReport, error) {
	return ownReports(files, err, func(f OwnFile, r *FileReport, text string, exists bool) {
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
func ownReports(files []OwnFile, err error, decide func(f OwnFile, r *FileReport, text string, exists bool)) ([]FileReport, error) {
	if err != nil {
		return nil, err
	}
	out := make([]FileReport, 0, len(files))
	for _, f := range files {
		text, exists, err := ReadFile(f.Path)
		if err != nil {
			return nil, err
		}
		r := FileReport{Path: f.Path, Edit: Edit{Text: text}}
		decide(f, &r, text, exists)
		out = append(out, r)
	}
	return out, nil
}
