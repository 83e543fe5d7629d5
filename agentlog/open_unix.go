//go:build unix

package agentlog

import (
	"errors"
	"io"
	"io/fs"
	"syscall"

	"github.com/saverd/saverd/internal/safefile"
)

// openFile opens path for reading with open(2) and reads it on the descriptor (read(2); on Linux first
// without waiting, see read), without an *os.File: for a regular file os.Open also asks the poller to take
// the descriptor (which it refuses) and sets and clears non-blocking mode, five system calls more per file,
// a tenth of the system calls of a scan of thousands of transcripts. The open is safefile.OpenRaw's: it
// never waits (a FIFO is refused), and only a regular file of at most maxSize bytes is read. Errors read
// as os.Open's and os.File.Read's do.
func openFile(path string, maxSize int64) (io.Reader, int64, func(), error) {
	fd, size, err := safefile.OpenRaw(path, maxSize)
	if err != nil {
		return nil, 0, nil, err
	}
	f := &rawFile{fd: fd, path: path}
	return f, size, func() { syscall.Close(f.fd) }, nil
}

// rawFile reads a descriptor with read(2) (on Linux first with preadv2, see read).
type rawFile struct {
	fd   int
	path string
	// blocking: the file is read with the scheduler told of each read, as syscall.Read does (Linux:
	// RWF_NOWAIT is not supported here; see read).
	blocking bool
}

func (f *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := f.read(p)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
