package detect

import (
	"reflect"
	"testing"
)

// TestRepeats: only true repeats are listed — TodoWrites and Greps by their whole input, edits never —
// and each says how many of its repeats came after a change to what it depends on.
func TestRepeats(t *testing.T) {
	s := newSession()
	long := "rewrite the checkout flow so that the cart total is computed once on the server and sent to the client"
	s.todo(long, "first")
	s.todo(long, "second") // same first 200 characters of key, a different list
	s.todo(long, "second") // the same list again: a repeat
	s.patch("*** Begin Patch\n*** Update File: src/a.ts\n-a\n+b\n*** End Patch")
	s.patch("*** Begin Patch\n*** Update File: src/a.ts\n-b\n+c\n*** End Patch")
	s.edit("/home/dev/shop/src/cart.ts", "a", "b")
	s.edit("/home/dev/shop/src/cart.ts", "b", "c")
	s.bash("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x\n*** End Patch\nEOF", 10)
	s.bash("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: y\n*** End Patch\nEOF", 10)
	s.read("/home/dev/shop/src/cart.ts", 4000)
	s.edit("/home/dev/shop/src/cart.ts", "c", "d")
	s.read("/home/dev/shop/src/cart.ts", 4000)
	s.read("/home/dev/shop/src/cart.ts", 4000)
	s.grep("useCart", "src", map[string]any{"output_mode": "content"}, 100)
	s.grep("useCart", "src", map[string]any{"output_mode": "count"}, 100)
	s.bash("npm test", 500, denied)
	s.bash("npm test", 500)
	got := s.repeats()
	want := []Repeat{
		{Tool: "Read", Key: "/home/dev/shop/src/cart.ts:-", Count: 3, Chars: 12_000, AfterEdit: 1, IsRead: true},
		{Tool: "TodoWrite", Count: 2, Chars: 2 * int64(len("Todos have been modified successfully.")), Key: s.rows[1].Key},
	}
	if len(got) != len(want) {
		t.Fatalf("repeats %+v, want %d", got, len(want))
	}
	for i := range want {
		g := got[i]
		g.Rows = nil
		if !reflect.DeepEqual(g, want[i]) {
			t.Errorf("repeat %d: %+v, want %+v", i, g, want[i])
		}
	}
	if got[1].Rows[0] != s.rows[1].ID || got[1].Rows[1] != s.rows[2].ID {
		t.Errorf("TodoWrite repeat rows %v, want the second and third lists", got[1].Rows)
	}
}
