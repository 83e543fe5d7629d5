// Package view holds the read-only projections of a session: the band's teaser line, the pane's model
// (header, waster cards, decided list), the money line and the debug dump. A view reads a *state.State
// and never changes it; being a separate package makes that a compile-time fact, since the reducer's
// private index is reachable only through state's exported accessors (State.RowPositions).
//
// It is pure, as the core is (see package state).
package view
