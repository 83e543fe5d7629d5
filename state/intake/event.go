package intake

import (
	"slices"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
)

// ToolEvent is the flat event a ledger row is built from: `tool`, `tool_use_id`, an optional `agentId`,
// and the tool's own arguments beside them. Numbers decoded from the wire are json.Number (see
// ToolEventFromJSON), so a key built from them prints them as JavaScript would.
//
// It holds its members in a short list rather than a map: an event has a handful, one arrives with
// every tool call, and a map cost two allocations and a hash per member where a list costs one
// allocation and a scan of a few names. The zero ToolEvent is an event not given at all (Given);
// member order means nothing (Map, MarshalJSON).
type ToolEvent struct {
	members []eventMember
}

// eventMember is one member; a string the reader copied out of the text is held as it is (str, its
// value the unboxed mark), boxed only when a caller asks for it as a value.
type eventMember struct {
	name  string
	value any
	str   string
}

// unboxed marks a member whose value is its str.
var unboxed any = new(struct{ unboxed byte })

// unboxedString is a member holding s unboxed.
func unboxedString(name, s string) eventMember {
	return eventMember{name: name, value: unboxed, str: s}
}

func (m *eventMember) isStr() bool { return m.value == unboxed }

// get is the member as a value.
func (m *eventMember) get() any {
	if m.isStr() {
		return m.str
	}
	return m.value
}

// Room is the array of an event its holder is done with, for ReadToolEventInto to build the next one in.
// A holder keeps it Emptied, so what the event held is not kept alive by it.
type Room []eventMember

// Room is e's array, for the next event read (ReadToolEventInto). e, and every copy of it, must not be
// used after: the next event is written over its members.
func (e ToolEvent) Room() Room { return Room(e.members) }

// Emptied is r with every entry of its array cleared, a read that failed partway included.
func (r Room) Emptied() Room {
	clear(r[:cap(r)])
	return r[:0]
}

// NewToolEvent is an empty event with room for n members.
func NewToolEvent(n int) ToolEvent { return ToolEvent{members: make([]eventMember, 0, n)} }

// ToolEventOf is the event holding m's members (a copy of the map's entries, not of their values).
func ToolEventOf(m map[string]any) ToolEvent {
	e := NewToolEvent(len(m) + 3)
	for k, v := range m {
		e.members = append(e.members, eventMember{name: k, value: v})
	}
	// A fixed order, so that no reader of the members could ever depend on the map's.
	slices.SortFunc(e.members, func(a, b eventMember) int { return strings.Compare(a.name, b.name) })
	return e
}

// Given says whether the event was given: an event `{}` was, the zero ToolEvent was not.
func (e ToolEvent) Given() bool { return e.members != nil }

// Len is how many members the event has.
func (e ToolEvent) Len() int { return len(e.members) }

// Lookup is the member named name, and whether there is one.
func (e ToolEvent) Lookup(name string) (any, bool) {
	for i := range e.members {
		if e.members[i].name == name {
			return e.members[i].get(), true
		}
	}
	return nil, false
}

// Has says whether the event has a member named name.
func (e ToolEvent) Has(name string) bool {
	for i := range e.members {
		if e.members[i].name == name {
			return true
		}
	}
	return false
}

// String is the member named name when it is a string, and whether it is.
func (e ToolEvent) String(name string) (string, bool) {
	for i := range e.members {
		if m := &e.members[i]; m.name == name {
			if m.isStr() {
				return m.str, true
			}
			s, ok := m.value.(string)
			return s, ok
		}
	}
	return "", false
}

// Text is the member named name when it is a string, else "".
func (e ToolEvent) Text(name string) string {
	s, _ := e.String(name)
	return s
}

// TextOr is the member named name when it is a string, else fallback.
func (e ToolEvent) TextOr(name, fallback string) string {
	if s, ok := e.String(name); ok {
		return s
	}
	return fallback
}

// Get is the member named name, nil when absent.
func (e ToolEvent) Get(name string) any {
	v, _ := e.Lookup(name)
	return v
}

// Set gives the member named name the value v, in place when there is one.
func (e *ToolEvent) Set(name string, v any) {
	for i := range e.members {
		if e.members[i].name == name {
			e.members[i] = eventMember{name: name, value: v}
			return
		}
	}
	if e.members == nil {
		e.members = make([]eventMember, 0, 4)
	}
	e.members = append(e.members, eventMember{name: name, value: v})
}

// Delete removes the member named name, if there is one.
func (e *ToolEvent) Delete(name string) {
	e.members = slices.DeleteFunc(e.members, func(m eventMember) bool { return m.name == name })
}

// Map is the event as a JSON object's map (a new map; the values are shared).
func (e ToolEvent) Map() map[string]any {
	m := make(map[string]any, len(e.members))
	for i := range e.members {
		m[e.members[i].name] = e.members[i].get()
	}
	return m
}

// MarshalJSON writes the event as the JSON object it is, its names sorted.
func (e ToolEvent) MarshalJSON() ([]byte, error) {
	if !e.Given() {
		return []byte("null"), nil
	}
	return jstext.Marshal(e.Map())
}

// UnmarshalJSON reads an event as ToolEventFromJSON does; null is an event not given.
func (e *ToolEvent) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*e = ToolEvent{}
		return nil
	}
	v, err := ToolEventFromJSON(data)
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// Tool is the event's tool name ("" when absent or not a string).
func (e ToolEvent) Tool() string { return e.Text("tool") }
