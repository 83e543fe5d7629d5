//go:build unix

package usersock

import (
	"io/fs"
	"syscall"
)

// checksMode: a Unix mode says who else may enter the directory.
const checksMode = true

// ownerOf is the uid owning a file, from its stat.
func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
