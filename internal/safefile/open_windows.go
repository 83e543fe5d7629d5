//go:build windows

package safefile

import "os"

// openNoWait is a plain open on Windows: a path there cannot name a FIFO, so an open never waits for
// a writer.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }

// blocking has nothing to do: the file was opened for blocking reads.
func blocking(*os.File) error { return nil }
