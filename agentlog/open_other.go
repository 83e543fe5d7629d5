//go:build !unix

package agentlog

import (
	"io"
	"os"
)

// openFile opens path for reading.
func openFile(path string) (io.Reader, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}
