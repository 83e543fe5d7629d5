//go:build windows

package usersock

import "io/fs"

// checksMode is false on Windows: its mode bits say nothing of who may enter a directory (an ACL does),
// and the default directory is the user's own %TMP%, under a profile only that user can open.
const checksMode = false

// ownerOf is unknown on Windows (an owner there is a SID, not a uid): the profile's ACL keeps others out.
func ownerOf(fs.FileInfo) (int, bool) { return 0, false }
