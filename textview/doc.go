// Package textview draws the band and the pane as plain text, for the daemon's `view.text` request:
// editors and scripts that cannot host ContextSaver's terminal UI still see the same figures.
//
// It is pure: a view model (state.BandModel, state.PaneModel) and a width in, a string out; no I/O,
// no clock. Widths are display columns: East Asian wide and fullwidth characters and emoji count two,
// combining marks and zero-width formats count none (a small built-in table, not the full Unicode
// width algorithm, so an emoji ZWJ sequence is over-counted, which only ever makes a line shorter).
// Model text (kinds, reasons, quoted heads) is made single-line first: control characters become
// spaces, whitespace collapses, invalid UTF-8 becomes U+FFFD. Output is deterministic.
package textview
