package impact

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/saverd/saverd/internal/safefile"
)

// maxLine bounds one line of a sessions or decisions file. A record is a few hundred bytes; a line past
// this is skipped with a warning, never held whole (a file of zeros without a newline grew the process
// by gigabytes).
const maxLine = 1 << 20

// openInput opens a sessions or decisions file. Only a regular file is opened: a FIFO's open blocks
// until a writer comes, which may be never, and a device (/dev/zero) never ends.
func openInput(path string) (*os.File, error) { return safefile.Open(path) }

func lineTooLong(path string, n int) string {
	return fmt.Sprintf("%s:%d: line longer than %d bytes, skipped", path, n, maxLine)
}

// noSessionsReadable is the error Query fails with when sessions files were named and not one of them
// could be opened: an empty report would read like "no agent work". nil when any could be.
func noSessionsReadable(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	var why []string
	for _, p := range paths {
		f, err := openInput(p)
		if err == nil {
			f.Close()
			return nil
		}
		why = append(why, err.Error())
	}
	return errors.New("impact: no sessions file could be read: " + strings.Join(why, "; "))
}
