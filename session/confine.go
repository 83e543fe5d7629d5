package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state/rules"
)

// A rule is written inside the session's directory, and nowhere else: every symlink on the way is
// resolved before anything is written, and a path that leaves the directory once resolved is refused.
// With `.claude` a symlink, skills, briefs and settings used to land wherever it pointed while the reply
// said `Wrote <cwd>/…`; and a CLAUDE.md linked to a file elsewhere was replaced by a copy of that file,
// its secret and all, inside the repository.

// confine is where path really lands when written, symlinks resolved, or an error saying why it may not
// be written: it resolves outside cwd, or through a link that points nowhere. The parts of path that do
// not exist yet are taken as they are, since creating them follows no link.
func confine(cwd, path string) (string, error) {
	realCwd, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return "", fmt.Errorf("the session's directory %s cannot be resolved: %w", cwd, err)
	}
	resolved, err := resolve(path, 0)
	if err != nil {
		return "", err
	}
	if !within(realCwd, resolved) {
		return "", fmt.Errorf("%s resolves to %s, outside the session's directory %s", path, resolved, cwd)
	}
	return resolved, nil
}

// maxLinks bounds the links followed for one path, as the kernel bounds them: a loop is refused.
const maxLinks = 40

// resolve is path with every link resolved. A link to a file not created yet (CLAUDE.md linked to
// docs/CLAUDE.md, say) resolves to where that file would be.
func resolve(path string, hops int) (string, error) {
	if hops > maxLinks {
		return "", fmt.Errorf("%s: too many links", path)
	}
	existing, rest := path, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s cannot be resolved: %w", existing, err)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	resolved, err := filepath.EvalSymlinks(existing)
	if err != nil {
		// A dangling link: follow it by hand to where its target would be created.
		target, lerr := os.Readlink(existing)
		if lerr != nil {
			return "", fmt.Errorf("%s cannot be resolved: %w", existing, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(existing), target)
		}
		return resolve(filepath.Join(target, rest), hops+1)
	}
	if rest != "" {
		resolved = filepath.Join(resolved, rest)
	}
	return resolved, nil
}

// shownPath is the path a reply names for a rule written at resolved: the rule's own path when no link
// inside the project moved it (cwd itself may be reached through one), else where it really went.
func shownPath(cwd, path, resolved string) string {
	realCwd, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return resolved
	}
	rel, err := filepath.Rel(cwd, path)
	if err == nil && filepath.Join(realCwd, rel) == resolved {
		return path
	}
	return resolved
}

// maxNames bounds the names tried for one skill or brief.
const maxNames = 100

// freeName is a with a name whose file holds no other rule: a skill or a brief whose file exists with
// other content (another rule whose title slugs alike, from this session or an earlier one) is renamed
// -2, -3, … rather than written over.
func (sess *Session) freeName(a rules.Artifact) rules.Artifact {
	if a.Mode != rules.ModeWrite {
		return a
	}
	for n := 2; n <= maxNames; n++ {
		if _, err := os.Lstat(a.Path); errors.Is(err, fs.ErrNotExist) {
			return a
		}
		if b, err := safefile.Read(a.Path, writeFileMax); err == nil && string(b) == a.Content {
			return a
		}
		a = rules.Renamed(sess.st, a, n)
	}
	return a
}

// writeUnder lands a rule under root instead of at its path (Options.WriteRoot), and answers as the
// write at its path would have.
func (sess *Session) writeUnder(root string, a rules.Artifact) string {
	shown := a.Path
	a.Path = filepath.Join(root, a.Path)
	if _, err := landArtifact(a); err != nil {
		return strings.ReplaceAll(err.Error(), root, "")
	}
	sess.handledRule(a.PatternID, a.Kind)
	return "Wrote " + shown
}
