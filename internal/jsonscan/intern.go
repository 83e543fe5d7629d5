package jsonscan

// Interned is a set of strings a scanner hands out instead of copies: a member name or a string value
// that equals one, unescaped, is the set's own, its value already boxed, so decoding the names every
// text repeats allocates nothing. The words are kept by length, and a lookup compares a few of them:
// cheaper than hashing the name, and a value that is no word (most are not) costs almost nothing.
type Interned struct {
	byLen [internedMax + 1][]internedWord
}

type internedWord struct {
	s string
	v any // s, boxed once
}

// internedMax is the longest string looked up in an interned set: longer ones are rarely names.
const internedMax = 32

// Intern is the set of words; a word longer than internedMax, never looked up, is left out.
func Intern(words ...string) *Interned {
	set := &Interned{}
	for _, w := range words {
		if w != "" && len(w) <= internedMax {
			set.byLen[len(w)] = append(set.byLen[len(w)], internedWord{s: w, v: w})
		}
	}
	return set
}

// lookup is the set's word b, if it holds it.
func (set *Interned) lookup(b []byte) (internedWord, bool) {
	if set == nil || len(b) == 0 || len(b) > internedMax {
		return internedWord{}, false
	}
	for _, w := range set.byLen[len(b)] {
		if w.s[0] == b[0] && w.s == string(b) {
			return w, true
		}
	}
	return internedWord{}, false
}

// WithNames is a scanner at the start of data that hands out the strings of names as they are.
func WithNames(data []byte, names *Interned) Scanner { return Scanner{data: data, names: names} }

// SetNames makes s hand out the strings of names from here on, and returns the set it used before: a
// reader handed a scanner over a larger text sets its own and puts the old one back.
func (s *Scanner) SetNames(names *Interned) *Interned {
	prev := s.names
	s.names = names
	return prev
}

// Interned is the set's own copy of the string value next in the text, boxed, when it has one (and
// then it is read); ok is false, and nothing read, otherwise.
func (s *Scanner) Interned() (v any, ok bool) {
	if s.names == nil {
		return nil, false
	}
	start := s.pos + 1
	end := start
	for end < len(s.data) && end-start <= internedMax && plain[s.data[end]] {
		end++
	}
	if end == len(s.data) || s.data[end] != '"' {
		return nil, false
	}
	w, ok := s.names.lookup(s.data[start:end])
	if ok {
		s.pos = end + 1
	}
	return w.v, ok
}

// Name is a key Key returned as a string: the interned one when there is one, else a copy.
func (s *Scanner) Name(key []byte) string {
	if w, ok := s.names.lookup(key); ok {
		return w.s
	}
	return string(key)
}
