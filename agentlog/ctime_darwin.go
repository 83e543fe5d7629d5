package agentlog

import "syscall"

// changeTime is the file's change time in nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
