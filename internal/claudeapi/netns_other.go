//go:build !linux

package claudeapi

import (
	"errors"
	"net"
	"os/exec"
	"testing"
)

// Netns is a network namespace of its own; only Linux has them, so elsewhere Isolate skips.
type Netns struct{}

// Isolate skips the test: network namespaces are Linux-only, and the real client must never run with
// the machine's network.
func Isolate(t testing.TB) *Netns {
	t.Helper()
	t.Skip("claudeapi: the real client runs only inside a Linux network namespace")
	return nil
}

var errNoNetns = errors.New("claudeapi: network namespaces are Linux-only")

// Listen fails: there is no namespace.
func (ns *Netns) Listen(network, addr string) (net.Listener, error) { return nil, errNoNetns }

// Start fails: there is no namespace.
func (ns *Netns) Start(cmd *exec.Cmd) error { return errNoNetns }

// Run fails: there is no namespace.
func (ns *Netns) Run(cmd *exec.Cmd) error { return errNoNetns }

// Close does nothing.
func (ns *Netns) Close() {}
