//go:build !linux

package main

import (
	"errors"
	"net"
)

var errNoPeerPID = errors.New("finding the daemon's process is supported on Linux only here: end its `saverd serve --listen` process yourself")

// peerPID is not read on this system.
func peerPID(net.Conn) (int, error) { return 0, errNoPeerPID }

func terminate(int) error { return errNoPeerPID }
