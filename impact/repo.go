package impact

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// defaultBranch returns the first of DefaultBranches that exists. It also
// proves dir is a git repository: for-each-ref fails outside one, before the
// long log starts.
func defaultBranch(ctx context.Context, g git, dir string) (string, error) {
	args := []string{"for-each-ref", "--format=%(refname)"}
	for _, ref := range DefaultBranches {
		if strings.HasPrefix(ref, "refs/") {
			args = append(args, ref)
		}
	}
	out, err := g.output(ctx, dir, args...)
	if err != nil {
		return "", err
	}
	// for-each-ref patterns also match below a name (refs/heads/main/x), so
	// only exact names count.
	have := make(map[string]bool)
	for _, line := range strings.Split(string(out), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	for _, ref := range DefaultBranches {
		if have[ref] {
			return ref, nil
		}
	}
	return "HEAD", nil
}

// localEmails is L-candidate's local author: every user.email configured
// for the repo, in all scopes (system, global, local, worktree).
func localEmails(ctx context.Context, g git, dir string) (map[string]bool, error) {
	out, err := g.output(ctx, dir, "config", "--get-all", "user.email")
	if err != nil && exitCode(err) != 1 { // 1: the key is not set
		return nil, err
	}
	set := make(map[string]bool)
	for _, line := range strings.Split(string(out), "\n") {
		if e := strings.ToLower(strings.TrimSpace(line)); e != "" {
			set[e] = true
		}
	}
	return set, nil
}

// shaKey is a binary object name, big enough for SHA-256 repositories. It
// keeps the rev-list set free of one string allocation per commit.
type shaKey [32]byte

func keyOf(hexSHA []byte) (shaKey, bool) {
	var k shaKey
	if len(hexSHA) > 2*len(k) || len(hexSHA)%2 != 0 {
		return k, false
	}
	_, err := hex.Decode(k[:], hexSHA)
	return k, err == nil
}

// unreachable returns the commits NOT reachable from branch, as far back as
// the log reads (the same --since), from one streamed rev-list. Asking for
// the complement is what makes it cheap: git stops walking as soon as every
// other ref has met the branch's history, which in most repos is a handful
// of commits, where listing the branch would walk the whole window again.
func unreachable(ctx context.Context, g git, dir, branch string, from time.Time) (map[shaKey]struct{}, error) {
	set := make(map[shaKey]struct{})
	args := []string{"rev-list", "--since=@" + strconv.FormatInt(from.Add(-ScanMargin).Unix(), 10),
		"--no-merges", excludeStash, excludeNotes, "--all", "--not", branch, "--"}
	err := g.stream(ctx, dir, args, func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if k, ok := keyOf(bytes.TrimSpace(sc.Bytes())); ok {
				set[k] = struct{}{}
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read rev-list: %w", err)
		}
		return nil
	})
	return set, err
}

// markReachable sets commit.reachable: every scanned commit is reachable
// from some ref (--all), so it is on the default branch unless listed.
func markReachable(commits []*commit, unreached map[shaKey]struct{}) {
	for _, c := range commits {
		if k, ok := keyOf([]byte(c.sha)); ok {
			_, off := unreached[k]
			c.reachable = !off
		}
	}
}
