package hookcmd

import (
	"os"
	"time"
)

// A daemon that is up but does not read its socket (stopped with SIGSTOP, wedged) accepts every
// connection the kernel queues for it and answers none. The first hook that finds it so leaves a mark
// beside the socket, in its directory (0700, the user's own: usersock.Dial checked it before the hook
// sent a byte); the hooks of the next BreakerOpen give the daemon BreakerWait to read their request
// instead of StallWait, and the first one it answers takes the mark away. The mark is a file whose
// modification time is when a hook last found the daemon hung, so a hook reads it with one stat.

// BreakerOpen is how long after a hook found the daemon hung the next hooks give it only BreakerWait.
const BreakerOpen = 30 * time.Second

// BreakerWait is how long a hook gives a daemon found hung lately to read its request.
const BreakerWait = 200 * time.Millisecond

// BreakerFile is the mark a hook leaves beside the socket sock when its daemon did not answer.
func BreakerFile(sock string) string { return sock + ".hung" }

// hungLately reports whether a hook found the daemon at sock hung within BreakerOpen of now.
func hungLately(sock string, now time.Time) bool {
	fi, err := os.Lstat(BreakerFile(sock))
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	age := now.Sub(fi.ModTime())
	return age < BreakerOpen && age > -BreakerOpen // a clock set back does not hold it open for good
}

// tripBreaker marks the daemon at sock hung as of now; the file says when in words, for a person who
// finds it. Failing to write it costs the next hooks a longer wait, nothing else.
func tripBreaker(sock string, now time.Time) {
	_ = os.WriteFile(BreakerFile(sock), []byte("a hook found saverd not answering at "+now.UTC().Format(time.RFC3339)+"\n"), 0o600)
}

// clearBreaker takes the mark away: the daemon answered.
func clearBreaker(sock string) {
	if err := os.Remove(BreakerFile(sock)); err != nil && !os.IsNotExist(err) {
		hookLog("clear %s: %v", BreakerFile(sock), err)
	}
}
