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

type eventMember struct {
	name  string
	value any
}

// NewToolEvent is an empty event with room for n members.
func NewToolEvent(n int) ToolEvent { return ToolEvent{members: make([]eventMember, 0, n)} }

// ToolEventOf is the event holding m's members (a copy of the map's entries, not of their values).
func ToolEventOf(m map[string]any) ToolEvent {
	e := NewToolEvent(len(m) + 3)
	for k, v := range m {
		e.members = append(e.members, eventMember{k, v})
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
			return e.members[i].value, true
		}
	}
	return nil, false
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
			e.members[i].value = v
			return
		}
	}
	if e.members == nil {
		e.members = make([]eventMember, 0, 4)
	}
	e.members = append(e.members, eventMember{name, v})
}

// Delete removes the member named name, if there is one.
func (e *ToolEvent) Delete(name string) {
	e.members = slices.DeleteFunc(e.members, func(m eventMember) bool { return m.name == name })
}

// Map is the event as a JSON object's map (a new map; the values are shared).
func (e ToolEvent) Map() map[string]any {
	m := make(map[string]any, len(e.members))
	for _, mb := range e.members {
		m[mb.name] = mb.value
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
func (e ToolEvent) Tool() string { return anyString(e.Get("tool")) }
