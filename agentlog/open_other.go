//go:build !unix

package agentlog

import (
	"io"

	"github.com/saverd/saverd/internal/safefile"
)

// openFile opens path for reading: a regular file of at most maxSize bytes (safefile.OpenSized).
func openFile(path string, maxSize int64) (io.Reader, int64, func(), error) {
	f, size, err := safefile.OpenSized(path, maxSize)
	if err != nil {
		return nil, 0, nil, err
	}
	return f, size, func() { f.Close() }, nil
}
