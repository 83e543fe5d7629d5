package npmclient

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeNPM writes an npm that installs a tool in two steps with a pause between (the binary is there
// and executable before it is whole, as a real install's is), counting its runs in dir/runs; with
// fail it exits 1 saying so.
func fakeNPM(t *testing.T, dir string, fail bool) string {
	t.Helper()
	script := `#!/bin/sh
prefix="$5"
echo run >> "` + filepath.Join(dir, "runs") + `"
`
	if fail {
		script += "echo 'npm ERR! 404 not found' >&2\nexit 1\n"
	} else {
		script += `mkdir -p "$prefix/bin"
printf 'partial' > "$prefix/bin/tool"
chmod +x "$prefix/bin/tool"
sleep 0.3
printf 'whole' > "$prefix/bin/tool"
`
	}
	path := filepath.Join(dir, "npm")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func findTool(dir string) string {
	path := filepath.Join(dir, "bin", "tool")
	if st, err := os.Stat(path); err == nil && st.Mode()&0o111 != 0 {
		return path
	}
	return ""
}

func runs(t *testing.T, dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "runs"))
	return strings.Count(string(b), "run")
}

// TestInstallOnceForAll: callers asking at once get the binary only once it is whole, and npm runs once.
func TestInstallOnceForAll(t *testing.T) {
	work := t.TempDir()
	npm, dir := fakeNPM(t, work, false), filepath.Join(work, "cache", "tool-1.0")
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bin, err := Install(context.Background(), npm, dir, "tool@1.0", findTool)
			if err != nil {
				errs <- err
				return
			}
			if b, _ := os.ReadFile(bin); string(b) != "whole" {
				errs <- errors.New("Install returned " + bin + " holding " + string(b) + ", before npm finished")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := runs(t, work); n != 1 {
		t.Errorf("npm ran %d times, want 1", n)
	}
	if Installed(dir, findTool) == "" {
		t.Error("Installed says nothing after the install")
	}
}

// TestInstallTakesAClientPutThereBefore: a directory filled without the marker (CI's own npm install)
// is used as it is, and marked.
func TestInstallTakesAClientPutThereBefore(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(work, "tool-1.0")
	if Installed(dir, findTool) != "" {
		t.Fatal("Installed before anything was installed")
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "tool"), []byte("whole"), 0o755); err != nil {
		t.Fatal(err)
	}
	if Installed(dir, findTool) != "" {
		t.Fatal("Installed counts a directory no install finished in")
	}
	bin, err := Install(context.Background(), fakeNPM(t, work, true), dir, "tool@1.0", findTool)
	if err != nil || bin != findTool(dir) {
		t.Fatalf("Install = %q, %v", bin, err)
	}
	if runs(t, work) != 0 || Installed(dir, findTool) == "" {
		t.Errorf("npm ran %d times; Installed %q", runs(t, work), Installed(dir, findTool))
	}
}

// TestInstallFailures: npm failing is an NPMError with its words; npm installing no binary is ErrNoBinary.
func TestInstallFailures(t *testing.T) {
	work := t.TempDir()
	_, err := Install(context.Background(), fakeNPM(t, work, true), filepath.Join(work, "a"), "tool@1.0", findTool)
	var npmErr *NPMError
	if !errors.As(err, &npmErr) || !strings.Contains(err.Error(), "404 not found") {
		t.Errorf("npm failing: %v, want an NPMError with npm's words", err)
	}
	_, err = Install(context.Background(), fakeNPM(t, work, false), filepath.Join(work, "b"), "tool@1.0", func(string) string { return "" })
	if !errors.Is(err, ErrNoBinary) || errors.As(err, &npmErr) {
		t.Errorf("no binary: %v, want ErrNoBinary", err)
	}
	if Installed(filepath.Join(work, "b"), findTool) != "" {
		t.Error("an install with no binary is marked")
	}
}
