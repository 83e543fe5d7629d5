package jsonobj

import (
	"encoding/json"
	"strings"
	"testing"
)

func plain(b []byte, v any) []byte {
	out, _ := json.Marshal(v)
	return append(b, out...)
}

func TestRoundTripKeepsOrder(t *testing.T) {
	in := `{"z": 1, "a": {"k": [1, 2.50, "x"], "e": {}}, "z": 3, "n": null, "b": []}`
	v, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(*Object)
	if got := strings.Join(obj.Keys(), ","); got != "z,a,n,b" {
		t.Fatalf("keys %s: the file's order, a repeated key in its first place", got)
	}
	if obj.Get("z").(json.Number) != "3" {
		t.Fatalf("z = %v: the last value wins", obj.Get("z"))
	}
	if _, ok := obj.Lookup("n"); !ok {
		t.Fatal("a null value is there")
	}
	obj.Del("a")
	obj.Set("c", "new")
	want := "{\n  \"z\": 3,\n  \"n\": null,\n  \"b\": [],\n  \"c\": \"new\"\n}"
	if got := string(AppendIndented(nil, obj, "", plain)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDecodeRefuses(t *testing.T) {
	for _, in := range []string{`{"a": 1} {}`, `{"a": }`, `[1, 2`, strings.Repeat("[", 200) + strings.Repeat("]", 200)} {
		if _, err := Decode(in); err == nil {
			t.Errorf("Decode(%.30q) took it", in)
		}
	}
}
