package agentlog

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/sourcegraph/conc/iter"

	"github.com/saverd/saverd/prices"
)

// File is one log a harness package's Discover lists: a Claude Code transcript (its subagents are found
// beside it), a Codex rollout, an OpenCode database, …, with the Reader that reads it.
type File struct {
	Path    string
	Harness string
	Size    int64 // bytes on disk, what the reader finds beside it not included; for progress
	// Reader reads the file into the records of its sessions. A Reader may carry what Discover saw of
	// the file (Claude Code's: whether its session has a subagents directory to look in).
	Reader Reader
}

// WalkLogs lists the regular files under root that keep accepts, as Files of harness (their Reader is the
// caller's to set), and, with dirs, every directory and symbolic link the walk met (a reader that looks
// beside a log: Claude Code's subagents directory of a session). A directory that cannot be read is a
// warning and the walk goes on around it; a root that does not exist is no warning (that agent is simply
// not installed).
func WalkLogs(root, harness string, keep func(path string) bool, dirs bool) ([]File, map[string]bool, []string) {
	if _, err := os.Stat(root); err != nil {
		if os.IsNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, []string{fmt.Sprintf("%s: %v, skipped", root, err)}
	}
	return walkFS(os.DirFS(root), root, harness, keep, dirs)
}

// walkFS lists the logs of fsys, named under root. A directory it cannot read is a warning; the walk
// goes on around it. The directories under root are walked in parallel (their lstat calls were most of a
// scan's serial start: 5,000 transcripts in 50 projects took 25-30 ms on one core), and the lists joined in
// the order of a walk of the whole tree.
func walkFS(fsys fs.FS, root, harness string, keep func(string) bool, dirs bool) ([]File, map[string]bool, []string) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil || len(entries) < 2 || runtime.GOMAXPROCS(0) < 2 {
		w := walker{root: root, keep: keep, harness: harness, seeDirs: dirs}
		w.walk(fsys, ".")
		return w.files, w.dirs, w.warn
	}
	// The root, a directory, as fs.WalkDir visits it first; then each entry, a directory walked whole by
	// a walker of its own.
	top := walker{root: root, keep: keep, harness: harness, seeDirs: dirs}
	if dirs {
		top.dirs = map[string]bool{root: true}
	}
	parts := make([]walker, len(entries))
	iter.Iterator[fs.DirEntry]{MaxGoroutines: runtime.GOMAXPROCS(0)}.ForEachIdx(entries, func(i int, d *fs.DirEntry) {
		w := &parts[i]
		*w = walker{root: root, keep: keep, harness: harness, seeDirs: dirs}
		if (*d).IsDir() {
			w.walk(fsys, (*d).Name())
		} else {
			_ = w.visit((*d).Name(), *d, nil) // a file never stops the walk
		}
	})
	for i := range parts {
		top.files = append(top.files, parts[i].files...)
		top.warn = append(top.warn, parts[i].warn...)
		for d := range parts[i].dirs {
			top.dirs[d] = true
		}
	}
	return top.files, top.dirs, top.warn
}

// walker collects the logs of one walk.
type walker struct {
	root, harness string
	keep          func(string) bool
	files         []File
	warn          []string
	seeDirs       bool            // collect dirs
	dirs          map[string]bool // what may be a directory: directories and symbolic links
}

// walk walks fsys from rel.
func (w *walker) walk(fsys fs.FS, rel string) {
	if err := fs.WalkDir(fsys, rel, w.visit); err != nil {
		w.warn = append(w.warn, fmt.Sprintf("%s: %v", w.root, err))
	}
}

// visit is fs.WalkDir's function.
func (w *walker) visit(rel string, d fs.DirEntry, err error) error {
	path := filepath.Join(w.root, filepath.FromSlash(rel))
	if err != nil {
		w.warn = append(w.warn, fmt.Sprintf("%s: %v, skipped", path, err))
		if d != nil && d.IsDir() {
			return fs.SkipDir
		}
		return nil
	}
	if w.seeDirs && (d.IsDir() || d.Type()&fs.ModeSymlink != 0) {
		if w.dirs == nil {
			w.dirs = make(map[string]bool)
		}
		w.dirs[path] = true
	}
	if d.IsDir() || !w.keep(path) {
		return nil
	}
	fi, err := d.Info()
	if err != nil {
		w.warn = append(w.warn, fmt.Sprintf("%s: %v, skipped", path, err))
		return nil
	}
	if fi.Mode().IsRegular() {
		w.files = append(w.files, File{Path: path, Harness: w.harness, Size: fi.Size()})
	}
	return nil
}

// ScanOptions tune Scan.
type ScanOptions struct {
	Options
	// Workers bounds the files read at once; 0: GOMAXPROCS.
	Workers int
	// Done, when set, is called (from the reading goroutines) after each file with its size.
	Done func(size int64)
	// Forks names the sessions saverd itself forked (a judge run through claude -p --fork-session or
	// codex exec), from the forks log: fork session id → its record. A fork is no session of its own;
	// its spend is its parent's judge spend.
	Forks map[string]ForkRecord
	// Cache, when set, keeps what the readers found of each log between runs (OpenCache); a log unchanged
	// since is not read again.
	Cache *Cache
}

// Scan reads every file with its Reader, in parallel, into one record per session, oldest first. A file
// that cannot be read is a warning; the records' own warnings come back too. Calls that several logs share
// (a --fork-session transcript copies its parent's history with the same message ids) are counted once, in
// the session that wrote them (ownerOf), never in a fork saverd ran; the same session found twice (a
// rollout in sessions/ and archived_sessions/) is kept once, the copy with more calls.
func Scan(ctx context.Context, files []File, opt ScanOptions) ([]Record, []string) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0) // the CPUs Go runs on (a container's quota included)
	}
	opt.tops = &sync.Map{}
	// The files are read largest first, so that no long file is left to one worker at the end while the
	// others have nothing; the results stay in the files' order.
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return files[order[a]].Size > files[order[b]].Size })
	// A file that is one session is read into its place in recs, so thousands of transcripts make no
	// list each; what any other file's Reader found is kept by file (more) with what it said of the
	// sessions it left out.
	recs, errs := make([]Record, len(files)), make([]error, len(files))
	var more [][]Record
	var moreWarn [][]string
	for i := range files {
		if _, one := files[i].Reader.(SessionReader); !one {
			more, moreWarn = make([][]Record, len(files)), make([][]string, len(files))
			break
		}
	}
	iter.Iterator[int]{MaxGoroutines: workers}.ForEach(order, func(i *int) {
		f := &files[*i]
		if ctx.Err() != nil {
			errs[*i] = fmt.Errorf("%s: %w", f.Path, ctx.Err())
			return
		}
		if sr, one := f.Reader.(SessionReader); one {
			recs[*i], errs[*i] = readSession(f, sr, opt)
			hashCalls(&recs[*i])
		} else {
			more[*i], moreWarn[*i], errs[*i] = readFile(f, opt)
		}
		if opt.Done != nil {
			opt.Done(f.Size)
		}
	})
	// The records of the files that are one session stay where they are, then the others', in the
	// files' order; a file that could not be read is a warning.
	var warn []string
	n := 0
	for i := range recs {
		if errs[i] != nil {
			warn = append(warn, errs[i].Error())
			continue
		}
		if _, one := files[i].Reader.(SessionReader); !one {
			warn = append(warn, moreWarn[i]...) // its records are in more
			continue
		}
		if n != i {
			recs[n] = recs[i]
		}
		n++
	}
	clear(recs[n:])
	recs = recs[:n]
	for _, got := range more {
		recs = append(recs, got...)
	}
	recs, w := sameSession(recs)
	warn = append(warn, w...)
	warn = append(warn, sharedCalls(recs, opt.Table(), opt.Forks)...)
	for i := range recs {
		recs[i].CheckHarnessFigure() // each call is now counted once, in its owner
	}
	recs, w = foldForks(recs, opt.Forks, opt.Table())
	warn = append(warn, w...)
	sort.Slice(recs, func(i, j int) bool {
		if !recs[i].Start.Equal(recs[j].Start) {
			return recs[i].Start.Before(recs[j].Start)
		}
		return recs[i].SessionID < recs[j].SessionID
	})
	return recs, append(warn, warnings(recs)...)
}

// warnings are the records' warnings, with a model that has no price named once for all the sessions
// that called it rather than once a session (hundreds of lines for a person whose agent's model has
// none).
func warnings(recs []Record) []string {
	var warn []string
	unpriced := map[string][]int{} // model → the records that called it
	for i := range recs {
		r := &recs[i]
		for _, w := range r.Warnings {
			if !r.isUnpricedWarning(w) {
				warn = append(warn, w)
			}
		}
		for _, m := range r.Cost.Unpriced {
			unpriced[m] = append(unpriced[m], i)
		}
	}
	models := make([]string, 0, len(unpriced))
	for m := range unpriced {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		switch in := unpriced[m]; {
		case len(in) == 1:
			warn = append(warn, recs[in[0]].unpricedWarning(m))
		case m == "":
			warn = append(warn, fmt.Sprintf("the logs of %d sessions name no model for some calls: they have no cost (cost.total is null)", len(in)))
		default:
			warn = append(warn, fmt.Sprintf("no price for model %s: the calls of %d sessions have no cost%s", quote(m), len(in), unpricedFix))
		}
	}
	return warn
}

// readSession reads a file that is one session, or takes its record from opt.Cache.
func readSession(f *File, sr SessionReader, opt ScanOptions) (Record, error) {
	got, err := cached(f, opt, func() ([]Record, error) {
		r, err := sr.ReadSession(*f, opt.Options)
		return []Record{r}, err
	})
	if err != nil {
		return Record{}, err
	}
	if len(got) != 1 {
		return Record{}, fmt.Errorf("%s: %d sessions where one was read: %w", f.Path, len(got), errCache)
	}
	return got[0], nil
}

// cached is what read finds of f, taken from opt.Cache when f and what its reader read with it are as
// they were when kept, and kept when its reader may be cached (CacheableReader).
func cached(f *File, opt ScanOptions, read func() ([]Record, error)) ([]Record, error) {
	cr, ok := f.Reader.(CacheableReader)
	if opt.Cache == nil || !ok {
		return read()
	}
	setting, ok := cr.CacheSetting(*f)
	if !ok {
		return read()
	}
	key := cacheKey(f, setting, opt.Options)
	if recs, ok := opt.Cache.lookup(key); ok {
		for i := range recs {
			recs[i].FinishWith(opt.Options, nil)
		}
		return recs, nil
	}
	recs, err := read()
	if err == nil {
		opt.Cache.store(key, f, cr.CacheDeps(*f, recs), recs)
	}
	return recs, err
}

// readFile reads one file with a Reader that is no SessionReader; its records are hashed for sharedCalls
// as they are read, in parallel, and a session with no dated line is left out with a warning.
func readFile(f *File, opt ScanOptions) ([]Record, []string, error) {
	if f.Reader == nil {
		return nil, nil, fmt.Errorf("%s: no reader for %s's logs, skipped", f.Path, f.Harness)
	}
	got, err := cached(f, opt, func() ([]Record, error) { return f.Reader.ReadFile(*f, opt.Options) })
	if err != nil {
		return nil, nil, err
	}
	var warn []string
	out := got[:0]
	for i := range got {
		if got[i].Start.IsZero() {
			warn = append(warn, fmt.Sprintf("%s: session %s has no dated line: not a session (yet), skipped", f.Path, got[i].SessionID))
			continue
		}
		hashCalls(&got[i])
		out = append(out, got[i])
	}
	return out, warn, nil
}

// NoDatedLine is a SessionReader's error for a log that holds no dated line: an empty file, or one
// cut before its first dated line, is no session to show (it would read as one dated year 1).
func NoDatedLine(path string) error {
	return fmt.Errorf("%s: no dated line: not a session (yet), skipped", path)
}

// sameSession keeps one record per harness and session id: the one with more calls.
func sameSession(recs []Record) ([]Record, []string) {
	if len(recs) == 0 {
		return nil, nil
	}
	type id struct{ harness, session string }
	at := make(map[id]int, len(recs))
	for i := range recs {
		k := id{recs[i].Harness, recs[i].SessionID}
		if _, dup := at[k]; dup {
			break
		}
		at[k] = i
	}
	if len(at) == len(recs) {
		return recs, nil // every session once, as nearly always: the records stay where they are
	}
	clear(at)
	var warn []string
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		k := id{r.Harness, r.SessionID}
		i, dup := at[k]
		if !dup {
			at[k] = len(out)
			out = append(out, r)
			continue
		}
		keep, drop := out[i], r
		if r.Calls > keep.Calls {
			keep, drop = r, keep
		}
		warn = append(warn, fmt.Sprintf("session %s found twice (%s, %s): kept %s", r.SessionID, keep.Files[0], drop.Files[0], keep.Files[0]))
		out[i] = keep
	}
	return out, warn
}

// foldForks takes the forks out of the session list and adds each one's spend to its parent's judge
// spend: a fork whose own log was read (a --fork-session transcript, its copied calls already counted
// once, in the parent) from its calls, else from the tokens its forks-log line records at the price of
// its model when it ran (an --ephemeral Codex fork leaves no log). A fork whose parent was not read is
// left out, with a warning.
func foldForks(recs []Record, forks map[string]ForkRecord, tab *prices.Table) ([]Record, []string) {
	if len(forks) == 0 {
		return recs, nil
	}
	at := make(map[string]int, len(recs))
	for i := range recs {
		at[recs[i].SessionID] = i
	}
	var warn []string
	keep := make([]bool, len(recs))
	for i := range recs {
		keep[i] = true
		f, isFork := forks[recs[i].SessionID]
		if !isFork {
			continue
		}
		keep[i] = false
		p, ok := at[f.Parent]
		if !ok || p == i {
			warn = append(warn, orphanFork(f))
			continue
		}
		judgeOf(&recs[p]).add(&recs[i])
	}
	// The forks no log of their own holds, in a fixed order: their sums are the same on every run.
	ids := make([]string, 0, len(forks))
	for id, f := range forks {
		if _, read := at[id]; !read && f.Tokens != nil {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		f := forks[id]
		p, ok := at[f.Parent]
		if !ok {
			if _, fork := forks[f.Parent]; !fork {
				warn = append(warn, orphanFork(f))
			}
			continue
		}
		judgeOf(&recs[p]).addLogged(f, tab)
	}
	out := recs[:0]
	for i := range recs {
		if keep[i] {
			out = append(out, recs[i])
		}
	}
	return out, warn
}

func orphanFork(f ForkRecord) string {
	return fmt.Sprintf("fork %s of session %s: the session is not among the logs read, so the fork's spend is left out", f.SessionID, f.Parent)
}

// judgeOf is r's judge spend, made when it has none yet.
func judgeOf(r *Record) *ForkSpend {
	if r.Judge == nil {
		r.Judge = &ForkSpend{}
	}
	return r.Judge
}
