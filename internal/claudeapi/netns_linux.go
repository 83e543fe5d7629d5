package claudeapi

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// Netns is a network namespace of its own with only loopback, up. One OS thread of the test process
// lives in it: sockets made there (Listen) and processes started there (Start) belong to it, while the
// rest of the test process keeps the machine's network. A process started in it reaches the Server
// listening in it and nothing else; a Unix socket on the file system is reachable from both sides.
type Netns struct {
	work chan func()
	done chan struct{}
}

// Isolate makes a Netns that lasts until the test ends, or skips the test saying why when the machine
// does not allow one (making a network namespace needs root or CAP_SYS_ADMIN).
func Isolate(t testing.TB) *Netns {
	t.Helper()
	ns, err := newNetns()
	if err != nil {
		t.Skipf("claudeapi: no isolated network namespace for the real client (it needs root or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(ns.Close)
	return ns
}

func newNetns() (*Netns, error) {
	ns := &Netns{work: make(chan func()), done: make(chan struct{})}
	ready := make(chan error, 1)
	go func() {
		// Never unlocked: when this goroutine returns, the runtime ends its thread instead of handing a
		// thread in another namespace to other goroutines. Threads the runtime starts later are cloned
		// from its template thread, never from this one.
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_NEWNET); err != nil {
			ready <- fmt.Errorf("unshare network namespace: %w", err)
			return
		}
		if err := loopbackUp(); err != nil {
			ready <- err
			return
		}
		ready <- nil
		for {
			select {
			case f := <-ns.work:
				f()
			case <-ns.done:
				return
			}
		}
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	return ns, nil
}

// do runs f on the namespace's thread and waits for it.
func (ns *Netns) do(f func()) error {
	finished := make(chan struct{})
	select {
	case ns.work <- func() { f(); close(finished) }:
	case <-ns.done:
		return errors.New("claudeapi: the network namespace is closed")
	}
	<-finished
	return nil
}

// Listen is net.Listen inside the namespace ("tcp", "127.0.0.1:0" for a Server).
func (ns *Netns) Listen(network, addr string) (net.Listener, error) {
	var ln net.Listener
	var err error
	if derr := ns.do(func() { ln, err = net.Listen(network, addr) }); derr != nil {
		return nil, derr
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s %s in the network namespace: %w", network, addr, err)
	}
	return ln, nil
}

// Start starts cmd inside the namespace: the process and everything it starts see only its loopback.
// Wait for it as usual.
func (ns *Netns) Start(cmd *exec.Cmd) error {
	var err error
	if derr := ns.do(func() { err = cmd.Start() }); derr != nil {
		return derr
	}
	return err
}

// Run is Start then Wait.
func (ns *Netns) Run(cmd *exec.Cmd) error {
	if err := ns.Start(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// Close ends the namespace's thread; the namespace itself goes when its last socket and process do.
// Calling it again does nothing.
func (ns *Netns) Close() {
	select {
	case <-ns.done:
	default:
		close(ns.done)
	}
}

// loopbackUp sets IFF_UP on lo, what `ip link set lo up` does, through the SIOCGIFFLAGS/SIOCSIFFLAGS
// ioctls, so no iproute2 is needed.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket to bring lo up: %w", err)
	}
	defer syscall.Close(fd)
	var req struct { // struct ifreq: the name, then the flags in the union
		name  [syscall.IFNAMSIZ]byte
		flags uint16
		_     [22]byte
	}
	copy(req.name[:], "lo")
	if err := ioctl(fd, syscall.SIOCGIFFLAGS, unsafe.Pointer(&req)); err != nil {
		return fmt.Errorf("read lo flags: %w", err)
	}
	req.flags |= syscall.IFF_UP
	if err := ioctl(fd, syscall.SIOCSIFFLAGS, unsafe.Pointer(&req)); err != nil {
		return fmt.Errorf("bring lo up: %w", err)
	}
	return nil
}

func ioctl(fd int, op uintptr, arg unsafe.Pointer) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), op, uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}
