package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"syscall"
	"time"

	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/paths"
)

// stopWait is how long `saverd stop` waits for the daemon to go: it flushes every session's registry
// before it exits.
const stopWait = 5 * time.Second

// newStopCmd is `saverd stop`: the user's shared daemon is asked to end and stop waits until it has. 0
// when it stopped or none was running, 1 when it could not be stopped, 2 on a usage error.
func newStopCmd() *cli.Command {
	return &cli.Command{Short: "end the user's shared daemon (it flushes every session first); the next hook starts it again",
		Run: runStop}
}

func runStop(_ context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	sock := paths.Socket()
	pid, err := stopDaemon(sock, stopWait)
	switch {
	case err != nil:
		fmt.Fprintf(e.Err, "saverd stop: %v\n", err)
		return 1
	case pid == 0:
		fmt.Fprintf(e.Out, "no daemon running at %s\n", sock)
	default:
		fmt.Fprintf(e.Out, "stopped the daemon at %s (pid %d)\n", sock, pid)
	}
	return 0
}

// stopDaemon ends the daemon serving sock: its pid is the socket's peer (so no pid file can be stale),
// it gets SIGTERM, on which it flushes every session's registry and exits, and stopDaemon waits up to
// wait for the socket to stop answering. pid 0: no daemon was running.
func stopDaemon(sock string, wait time.Duration) (int, error) {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return 0, nil
		}
		return 0, fmt.Errorf("connect to %s: %w", sock, err)
	}
	pid, err := peerPID(c)
	c.Close()
	if err != nil {
		return 0, fmt.Errorf("the daemon at %s: %w", sock, err)
	}
	if err := terminate(pid); err != nil {
		return 0, fmt.Errorf("stop the daemon at %s (pid %d): %w", sock, pid, err)
	}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("unix", sock, 100*time.Millisecond)
		if err != nil {
			return pid, nil
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("the daemon at %s (pid %d) still answers %v after SIGTERM", sock, pid, wait)
}

// daemonAnswers reports whether a daemon accepts connections at sock.
func daemonAnswers(sock string) bool {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
