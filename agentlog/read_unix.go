//go:build unix && !linux

package agentlog

import "syscall"

// read is read(2).
func (f *rawFile) read(p []byte) (int, error) { return syscall.Read(f.fd, p) }
