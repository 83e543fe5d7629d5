package impact

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// commit is what L-scan keeps of one commit. The subject and the rest of the
// body are dropped while streaming; the author email survives only as a hash.
type commit struct {
	sha        string
	ts         time.Time // author date, UTC
	author     string    // sha256(author email)[:12] in hex
	local      bool      // the author email is a user.email of the repo
	agent      string    // harness named by the agent trailer, "" if none
	revertOf   string    // sha (prefix) named by "This reverts commit", "" if none
	files      int
	added      int
	deleted    int
	reachable  bool   // reachable from the default branch
	revertedBy string // sha of a scanned commit that reverts this one
}

func (c *commit) isRevert() bool { return c.revertOf != "" }

// scanParams bound one repository's scan.
type scanParams struct {
	from     time.Time            // author-date lower bound: earliest relevant start − PRE_MIN
	now      time.Time            // author-date upper bound
	local    map[string]bool      // lower-cased user.email values of the repo
	linkable func(time.Time) bool // some session window of the repo holds ts
	count    func()               // called once per streamed commit (progress)
}

// repoLog is the result of streaming one repository's log.
type repoLog struct {
	commits []*commit         // linkable commits, newest first
	reverts map[string]string // sha prefix named by a revert → reverting sha
	// unheld are the trailer commits in the scanned span that no session window of the repo holds:
	// nothing can link them, but the person is told (see linker.orphanWarnings).
	unheld []*commit
	// revertLens are the distinct prefix lengths in reverts, ascending: a
	// commit is looked up at these lengths only, not at all 4..40.
	revertLens []int
}

func (l *repoLog) indexReverts() {
	seen := make(map[int]bool)
	for p := range l.reverts {
		if !seen[len(p)] {
			seen[len(p)] = true
			l.revertLens = append(l.revertLens, len(p))
		}
	}
	sort.Ints(l.revertLens)
}

// recordSep starts every commit in the log output. A commit message cannot
// contain NUL, so NUL followed by RS never occurs inside a record.
var recordSep = []byte("\x00\x1e")

// logFormat prints sha, author time, author email and raw message, each
// NUL-terminated; git appends the --numstat lines after it.
const logFormat = "%x00%x1e%H%x00%at%x00%ae%x00%B%x00"

// logArgs is the one git log L-scan runs per repository. --since filters on
// the committer date, so it is widened by SCAN_MARGIN and the author date is
// filtered while reading. The flags after --numstat keep user configuration
// (signatures, colour, external diff drivers) out of the output.
func logArgs(from time.Time) []string {
	return []string{
		"log", excludeStash, excludeNotes, "--all", "--no-merges", "--numstat",
		"--format=" + logFormat,
		"--since=@" + strconv.FormatInt(from.Add(-ScanMargin).Unix(), 10),
		"--no-show-signature", "--no-color", "--no-ext-diff", "--no-textconv",
	}
}

// excludeStash and excludeNotes keep the commits git makes for `git stash` (an "index on main" commit
// beside the stash's merge) and `git notes` out of --all: they record no work of anyone's.
const (
	excludeStash = "--exclude=refs/stash"
	excludeNotes = "--exclude=refs/notes/*"
)

// scanLog streams `git log` of dir through parseLog.
func scanLog(ctx context.Context, g git, dir string, p scanParams) (*repoLog, error) {
	var out *repoLog
	err := g.stream(ctx, dir, logArgs(p.from), func(r io.Reader) error {
		var err error
		out, err = parseLog(r, p)
		return err
	})
	return out, err
}

// maxRecord bounds one commit's record (message plus numstat lines). A
// commit touching a million files still fits; past that the scan fails
// rather than grow without limit.
const maxRecord = 256 << 20

// parseLog reads records one at a time: only linkable commits and the
// revert references are kept, never the whole log.
func parseLog(r io.Reader, p scanParams) (*repoLog, error) {
	out := &repoLog{reverts: make(map[string]string)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxRecord)
	sc.Split(splitRecords)
	match := newTrailerMatcher(AgentTrailers)
	for sc.Scan() {
		if p.count != nil {
			p.count()
		}
		c, held, err := parseRecord(sc.Bytes(), p, match, out.reverts)
		switch {
		case err != nil:
			return nil, err
		case c != nil && held:
			out.commits = append(out.commits, c)
		case c != nil:
			out.unheld = append(out.unheld, c)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read git log: %w", err)
	}
	out.indexReverts()
	return out, nil
}

// splitRecords is a bufio.SplitFunc that cuts the log at recordSep.
func splitRecords(data []byte, atEOF bool) (int, []byte, error) {
	start := 0
	switch {
	case bytes.HasPrefix(data, recordSep):
		start = len(recordSep)
	case !atEOF && len(data) < len(recordSep):
		return 0, nil, nil // maybe a separator cut in half
	}
	if i := bytes.Index(data[start:], recordSep); i >= 0 {
		return start + i, data[start : start+i], nil
	}
	if !atEOF {
		return 0, nil, nil
	}
	if len(data) > start {
		return len(data), data[start:], nil
	}
	return len(data), nil, nil
}

// parseRecord reads one commit. Every commit up to now may name a revert
// (L-revert: any ref, any time up to now, so even commits authored before
// the window count); only commits that can link are returned, held, and a
// trailer commit of the scanned span that no window holds, not held (its
// sha, time and harness only).
func parseRecord(rec []byte, p scanParams, m *trailerMatcher, reverts map[string]string) (c *commit, held bool, err error) {
	sha, rest, ok1 := cutNUL(rec)
	at, rest, ok2 := cutNUL(rest)
	email, rest, ok3 := cutNUL(rest)
	msg, numstat, ok4 := cutNUL(rest)
	if !(ok1 && ok2 && ok3 && ok4) || len(sha) == 0 {
		return nil, false, fmt.Errorf("malformed git log record %.60q", rec)
	}
	secs, err := strconv.ParseInt(string(at), 10, 64)
	if err != nil {
		return nil, false, fmt.Errorf("commit %s: bad author time %q", sha, at)
	}
	ts := time.Unix(secs, 0).UTC()
	if ts.After(p.now) {
		return nil, false, nil
	}
	m.lower = asciiLower(m.lower[:0], msg)
	revertOf := revertedSHAs(m.lower, string(sha), reverts)
	if ts.Before(p.from) {
		return nil, false, nil
	}
	if !p.linkable(ts) {
		if agent := m.harnessLower(msg, m.lower); agent != "" {
			return &commit{sha: string(sha), ts: ts, agent: agent}, false, nil
		}
		return nil, false, nil
	}
	local := p.local[strings.ToLower(strings.TrimSpace(string(email)))]
	agent := m.harnessLower(msg, m.lower)
	if agent == "" && !local {
		return nil, false, nil // L-candidate: non-local authors without trailer are ignored
	}
	c = &commit{
		sha:      string(sha),
		ts:       ts,
		author:   hashEmail(email),
		local:    local,
		agent:    agent,
		revertOf: revertOf,
	}
	if err := addNumstat(c, numstat); err != nil {
		return nil, false, err
	}
	return c, true, nil
}

func cutNUL(b []byte) (before, after []byte, ok bool) {
	return bytes.Cut(b, []byte{0})
}

var revertPhrase = []byte("this reverts commit ")

// revertedSHAs records every sha named by "This reverts commit <sha>" in the
// lower-cased message and returns the first. Git writes the full sha; people
// write prefixes, which L-revert matches as prefixes (4 hex digits at least,
// git's shortest abbreviation). The sha is a whole word.
func revertedSHAs(lower []byte, sha string, reverts map[string]string) string {
	first := ""
	for rest := lower; ; {
		i := bytes.Index(rest, revertPhrase)
		if i < 0 {
			return first
		}
		rest = rest[i+len(revertPhrase):]
		n := 0
		for n < len(rest) && isHex(rest[n]) {
			n++
		}
		if n < 4 || n > 64 || n < len(rest) && inWord(rest[n]) {
			continue // not a sha but a word that starts like one: "reverts commit deadline handling"
		}
		named := string(rest[:n])
		if _, seen := reverts[named]; !seen {
			reverts[named] = sha
		}
		if first == "" {
			first = named
		}
	}
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// inWord: c continues a word (the message is lower-cased; any byte of a non-ASCII letter counts).
func inWord(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c >= 0x80
}

func hashEmail(email []byte) string {
	sum := sha256.Sum256(email)
	return hex.EncodeToString(sum[:6])
}

// addNumstat adds the "added<TAB>deleted<TAB>path" lines. A binary file
// shows "-" for both counts: it is a file with 0 lines.
func addNumstat(c *commit, b []byte) error {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		if len(line) == 0 {
			continue
		}
		a, rest, ok1 := bytes.Cut(line, []byte{'\t'})
		d, _, ok2 := bytes.Cut(rest, []byte{'\t'})
		if !ok1 || !ok2 {
			return fmt.Errorf("commit %s: malformed numstat line %q", c.sha, line)
		}
		c.files++
		if string(a) == "-" && string(d) == "-" {
			continue
		}
		na, err1 := strconv.Atoi(string(a))
		nd, err2 := strconv.Atoi(string(d))
		if err1 != nil || err2 != nil {
			return fmt.Errorf("commit %s: malformed numstat line %q", c.sha, line)
		}
		c.added += na
		c.deleted += nd
	}
	return nil
}
