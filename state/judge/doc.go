// Package judge builds the two judges' prompts and reads their replies: the habit judge (what repeated,
// where the time and the context went) and the process judge (how the work is being run). It is a port
// of ContextSaver's core/judge.ts and core/process.ts, plus the evidence blocks the seed's missing
// core/blocks.ts rendered, designed here from the headings the prompt prints above each block.
//
// The package is pure like state: no I/O, no clock, no goroutines. The prompts are the seed's text,
// embedded byte for byte from judge-prompt.txt and process-prompt.txt.
//
// One alias table serves one judge run: BuildPrompt (or BuildProcessPrompt) prints loops under it, and
// ParseReply (or ParseProcessReply) must be handed the same table, so an `agent:aN` handle reads back to
// the loop the prompt meant even after a new loop renumbered today's table.
//
// Text rules follow package state: lengths in UTF-16 units (state.Len16), cuts on whole characters,
// whitespace and lower-casing by Go's Unicode rules (unicode.IsSpace, unicode.ToLower), where the seed
// used JavaScript's. The model's regular expressions that JavaScript runs without the u flag (\b, \d,
// the i flag) are matched on ASCII only, as JavaScript does.
package judge
