//go:build unix

package usersock

import (
	"bufio"
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	// The listener of another uid, in the test binary re-executed as that user (TestDialChecksThePeer).
	if sock := os.Getenv("USERSOCK_TEST_LISTEN"); sock != "" {
		ln, err := net.Listen("unix", sock)
		if err != nil {
			os.Stdout.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("ready\n")
		for {
			c, err := ln.Accept()
			if err != nil {
				os.Exit(0)
			}
			buf := make([]byte, 64)
			_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
			n, _ := c.Read(buf)
			if n > 0 {
				os.Stdout.WriteString("received\n")
			}
			c.Close()
		}
	}
}

func TestCheckDir(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, mode os.FileMode) string {
		p := filepath.Join(root, name)
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return p
	}
	own := mk("own", 0o700)
	open := mk("open", 0o777)
	group := mk("group", 0o750)
	link := filepath.Join(root, "link")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		dir  string
		want string // "" accepted; else what the error says
	}{
		{"own, 0700", own, ""},
		{"open to all", open, "has mode 0777"},
		{"group may enter", group, "has mode 0750"},
		{"a link to a good directory", link, "is a symbolic link"},
		{"a file", file, "is not a directory"},
		{"missing", filepath.Join(root, "none"), "no such file"},
	}
	if os.Getuid() == 0 {
		other := mk("other", 0o700)
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			dir  string
			want string
		}{"another user's", other, "is owned by uid 65534"})
	} else {
		t.Log("a directory of another uid needs root to make (chown); that case is left out")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckDir(tc.dir)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckDir = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckDir = %v, want one saying %q", err, tc.want)
			}
			if tc.dir != filepath.Join(root, "none") && !errors.Is(err, ErrUnsafe) {
				t.Fatalf("CheckDir = %v: not ErrUnsafe", err)
			}
		})
	}
}

// TestMakeDir: a missing directory is made 0700; one that exists and fails the checks is refused and left
// as it was (never chmodded); a link is not followed into its target.
func TestMakeDir(t *testing.T) {
	root := t.TempDir()
	fresh := filepath.Join(root, "a", "fresh")
	if err := MakeDir(fresh); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fresh); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("made %v, %v; want 0700", fi.Mode(), err)
	}
	open := filepath.Join(root, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o777)
	if err := MakeDir(open); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("MakeDir(open) = %v, want a refusal", err)
	}
	if fi, _ := os.Lstat(open); fi.Mode().Perm() != 0o777 {
		t.Fatalf("an open directory was changed to %v instead of refused", fi.Mode())
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(open, link); err != nil {
		t.Fatal(err)
	}
	if err := MakeDir(link); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("MakeDir(link) = %v, want a refusal", err)
	}
}

// TestDialChecksThePeer: a socket in a directory that passes every check, answered by another uid's
// process, is closed before a byte is written; the user's own listener is dialed.
func TestDialChecksThePeer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := MakeDir(dir); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(dir, "own.sock")
	ln, err := net.Listen("unix", own)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := Dial(own, time.Second)
	if err != nil {
		t.Fatalf("Dial of the user's own listener: %v", err)
	}
	c.Close()

	if os.Getuid() != 0 {
		t.Skip("a listener of another uid: starting a process as another uid needs root (CAP_SETUID)")
	}
	// The squatter binds while the directory is open, as if it had been left so; then it is closed.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	binDir, err := os.MkdirTemp("", "usersock-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(binDir)
	os.Chmod(binDir, 0o755)
	bin := filepath.Join(binDir, "listener")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	// t.TempDir's own parent is 0700: the other user must be able to reach dir.
	for p := dir; p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
			os.Chmod(p, fi.Mode().Perm()|0o011)
		}
	}
	other := filepath.Join(dir, "other.sock")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "USERSOCK_TEST_LISTEN="+other)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("listener: %q, %v", line, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	c, err = Dial(other, time.Second)
	if err == nil {
		c.Close()
		t.Fatal("Dial of another uid's listener succeeded")
	}
	if !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "is answered by uid 65534") {
		t.Fatalf("Dial = %v, want a refusal naming uid 65534", err)
	}
	cmd.Process.Kill()
	if rest, _ := r.ReadString(0); strings.Contains(rest, "received") {
		t.Fatal("the other user's listener received bytes")
	}
}

func TestAbsent(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fs.ErrNotExist, true},
		{&net.OpError{Op: "dial", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}, true},
		{unsafe("/tmp/x", "is a symbolic link"), false},
		{errors.New("other"), false},
	} {
		if got := Absent(tc.err); got != tc.want {
			t.Errorf("Absent(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
