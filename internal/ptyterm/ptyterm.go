//go:build linux

// Package ptyterm runs an interactive program (Claude Code's or Codex's TUI) on a pseudo-terminal and
// reads what it draws through a terminal emulator (github.com/hinshun/vt10x), so a test asserts on
// the screen as a person sees it — words in their places, lines redrawn, the input box cleared — not
// on a flattened byte stream. The emulator also answers the program's terminal queries (the cursor
// position a TUI asks for before it draws). Keys are typed one at a time, as a person types.
package ptyterm

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/hinshun/vt10x"
)

// Keys a test presses.
const (
	Enter  = "\r"
	Tab    = "\t"
	Escape = "\x1b"
	CtrlU  = "\x15"
	End    = "\x1b[F"
)

// Term is one program on a pseudo-terminal.
type Term struct {
	t      testing.TB
	master *os.File
	cmd    *exec.Cmd
	vt     vt10x.Terminal
	done   chan struct{}

	mu  sync.Mutex
	raw []byte // everything the program wrote, for a failure's log
}

// Start starts cmd on a new pseudo-terminal of cols×rows, through start (cmd.Start, or a start inside a
// network namespace), and stops it when the test ends. The test is skipped when the machine has no
// pseudo-terminals.
func Start(t testing.TB, cmd *exec.Cmd, cols, rows int, start func(*exec.Cmd) error) *Term {
	t.Helper()
	master, slave, err := OpenPTY(uint16(rows), uint16(cols))
	if err != nil {
		t.Skipf("no pseudo-terminal for the interactive client: %v", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	cmd.WaitDelay = 2 * time.Second
	if start == nil {
		start = (*exec.Cmd).Start
	}
	if err := start(cmd); err != nil {
		master.Close()
		slave.Close()
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	slave.Close()
	tm := &Term{t: t, master: master, cmd: cmd, done: make(chan struct{})}
	tm.vt = vt10x.New(vt10x.WithSize(cols, rows), vt10x.WithWriter(master))
	go tm.read()
	t.Cleanup(tm.Stop)
	return tm
}

// read feeds the emulator what the program writes; a rune cut between two reads waits for its rest.
func (tm *Term) read() {
	defer close(tm.done)
	buf := make([]byte, 64<<10)
	var carry []byte
	for {
		n, err := tm.master.Read(buf)
		if n > 0 {
			data := append(carry, buf[:n]...)
			cut := completeRunes(data)
			tm.mu.Lock()
			tm.raw = append(tm.raw, data[:cut]...)
			tm.mu.Unlock()
			tm.vt.Write(data[:cut])
			carry = append([]byte(nil), data[cut:]...)
		}
		if err != nil {
			return
		}
	}
}

// completeRunes is the length of b's prefix that ends on a whole UTF-8 sequence.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// Screen is what the terminal shows now: one line per row, trailing spaces cut, trailing empty rows
// dropped.
func (tm *Term) Screen() string {
	rows := strings.Split(tm.vt.String(), "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " \x00")
	}
	return strings.TrimRight(strings.Join(rows, "\n"), "\n")
}

// Type types s one character at a time, as a person types (a burst would read as a paste).
func (tm *Term) Type(s string) {
	for _, r := range s {
		tm.Press(string(r))
		time.Sleep(15 * time.Millisecond)
	}
}

// Press sends one key (Enter, Escape, …) or sequence as it is.
func (tm *Term) Press(key string) {
	if _, err := tm.master.Write([]byte(key)); err != nil {
		tm.t.Fatalf("type %q: %v", key, err)
	}
}

// WaitFor polls the screen every 50 ms until ok holds for it, and returns that screen; after timeout the
// test fails, showing the screen it waited on.
func (tm *Term) WaitFor(what string, timeout time.Duration, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := tm.Screen()
		if ok(s) {
			return s
		}
		select {
		case <-tm.done:
			tm.t.Fatalf("the program exited while waiting for %s; last screen:\n%s", what, s)
		default:
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("no %s on the screen after %v; the screen:\n%s", what, timeout, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitText waits until every one of texts is on the screen.
func (tm *Term) WaitText(timeout time.Duration, texts ...string) string {
	tm.t.Helper()
	return tm.WaitFor(fmt.Sprintf("%q", texts), timeout, func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// Raw is every byte the program wrote so far.
func (tm *Term) Raw() []byte {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return append([]byte(nil), tm.raw...)
}

// Resize makes the terminal cols×rows, as a person dragging the window's edge does: the emulator's
// screen and the pseudo-terminal's size both, which signals the program (SIGWINCH) to draw again.
func (tm *Term) Resize(cols, rows int) error {
	tm.vt.Resize(cols, rows)
	return setSize(tm.master, uint16(rows), uint16(cols))
}

// setSize sets a pseudo-terminal's window size (either end of it).
func setSize(f *os.File, rows, cols uint16) error {
	ws := struct{ Row, Col, X, Y uint16 }{rows, cols, 0, 0}
	return ioctl(f, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
}

// Stop ends the program and waits for it; calling it again does nothing.
func (tm *Term) Stop() {
	if tm.cmd.ProcessState == nil && tm.cmd.Process != nil {
		_ = tm.cmd.Process.Kill()
		_ = tm.cmd.Wait()
	}
	tm.master.Close()
	<-tm.done
}

// OpenPTY opens a pseudo-terminal pair of the given size through /dev/ptmx.
func OpenPTY(rows, cols uint16) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	if err := ioctl(master, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("unlock pty: %w", err)
	}
	var n uint32
	if err := ioctl(master, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pty number: %w", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	if err := setSize(slave, rows, cols); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, fmt.Errorf("pty size: %w", err)
	}
	return master, slave, nil
}

func ioctl(f *os.File, req, arg uintptr) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, arg); e != 0 {
		return e
	}
	return nil
}
