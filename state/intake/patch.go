package intake

import (
	"slices"
	"strings"

	"github.com/saverd/saverd/state"
)

// Codex edits files with apply_patch, whose one argument is a patch in its own format:
//
//	*** Begin Patch
//	*** Update File: src/a.ts
//	@@ context
//	-old line
//	+new line
//	*** Add File: src/b.ts
//	+a line
//	*** Delete File: src/c.ts
//	*** End Patch
//
// (an Update may be followed by `*** Move to: <path>`). A row of it is an edit like Edit's: keyed by the
// files it names, with their paths and its + and - lines.

// applyPatchTool is Codex's edit tool, as its hooks and rollouts name it.
const applyPatchTool = "apply_patch"

// patchHeaders are the lines that name a file the patch touches.
var patchHeaders = []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "}

// patchText is an apply_patch call's patch: `command` as Codex's hooks send it, `patch` as a rollout
// reads (agentlog), `input` as the tool's own argument is named.
func patchText(e ToolEvent) string {
	for _, name := range []string{"command", "patch", "input"} {
		if s, ok := e.String(name); ok {
			return s
		}
	}
	return ""
}

// readPatch is the files a patch names, in order and once each, and its + and - lines.
func readPatch(patch string) (paths []string, lines state.Lines) {
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "***") {
			for _, h := range patchHeaders {
				if p, ok := strings.CutPrefix(line, h); ok {
					if p = strings.TrimSpace(p); p != "" && !slices.Contains(paths, p) {
						paths = append(paths, p)
					}
				}
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "+"):
			lines.Add++
		case strings.HasPrefix(line, "-"):
			lines.Del++
		}
	}
	return paths, lines
}

// patchKey is an apply_patch row's key: the files it names, as an Edit's is its file; false when it
// names none, whose key is any unknown tool's (its arguments).
func patchKey(e ToolEvent) (string, bool) {
	paths, _ := readPatch(patchText(e))
	return strings.Join(paths, " "), len(paths) > 0
}

// patchRow is an answered apply_patch row's paths (never nil, as a row's are) and lines.
func patchRow(e ToolEvent) ([]string, *state.Lines) {
	paths, lines := readPatch(patchText(e))
	if paths == nil {
		paths = []string{}
	}
	return paths, &lines
}
