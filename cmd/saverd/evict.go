package main

import "time"

// idleEvictOption is --idle-evict as handlers.Options.IdleEvict: the flag's 0 (never) is the option's
// negative, since the option's 0 is its default.
func idleEvictOption(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
