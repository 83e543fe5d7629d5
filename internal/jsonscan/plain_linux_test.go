package jsonscan

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestPlainEndReadsNoByteOutsideTheText: texts that start just after and end just before a page no
// read may touch (the kernel faults the process on one), so a scan (plainEnd, NextPair) that reads a
// byte before the text's start or past its end fails here, as it could on a buffer the allocator placed
// at a page's edge.
func TestPlainEndReadsNoByteOutsideTheText(t *testing.T) {
	page := unix.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 3*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mapping three pages: %v", err)
	}
	defer unix.Munmap(mem)
	for _, guard := range [][]byte{mem[:page], mem[2*page:]} {
		if err := unix.Mprotect(guard, unix.PROT_NONE); err != nil {
			t.Fatalf("guarding a page: %v", err)
		}
	}
	body := mem[page : 2*page]
	for i := range body {
		body[i] = 'a'
	}
	for n := 0; n <= 80; n++ {
		for _, d := range [][]byte{body[:n], body[page-n:]} {
			for from := 0; from <= n; from++ {
				for _, p := range plainEnds {
					if got := p.f(d, from); got != n {
						t.Fatalf("%s: %d plain bytes from %d: %d, want %d", p.name, n, from, got, n)
					}
				}
				for _, p := range nextPairs {
					if got := p.f(d, from, 'a', 'b', 'c', 'd'); got != -1 {
						t.Fatalf("%s: %d bytes with no pair, from %d: %d, want -1", p.name, n, from, got)
					}
				}
			}
		}
	}
}
