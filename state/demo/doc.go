// Package demo is the sample session `/saver demo` shows: its usage, turns, rows and wasters. Only the
// demo command and tests import it, so the production core carries no sample data.
package demo
