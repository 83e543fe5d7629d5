// Package judge builds the two judges' prompts and reads their replies: the habit judge (what repeated,
// where the time and the context went) and the process judge (how the work is being run). It ports
// ContextSaver's two judges, plus the evidence blocks their prompts show, designed here from the
// headings the prompt prints above each block.
//
// The package is pure like state: no I/O, no clock, no goroutines. The prompts are ContextSaver's text,
// embedded byte for byte from judge-prompt.txt and process-prompt.txt.
//
// # The evidence blocks
//
// Each block prints exactly the columns its heading in judge-prompt.txt promises, in that order, cells
// joined by ` | `, one line per record, `(none)` when a block is empty (see each file's comment):
//
//   - LEDGER (ledger.go): the citable window — the newest JudgeLedgerRows rows, at most JudgeAgentRows
//     of any one loop — as `r<seq> | tool | key | cls | agent | turn | ms | chars | flags | paths`;
//     every other row, with state.Folded, as `~ | tool | key | ×count | Σchars` lines before them.
//     CitableRows is that window: the only rows a reply may cite or take a signature from.
//   - STATS (stats.go): per repeated call, `waits:`, per class, per loop, over the whole session.
//   - TIME and CONTEXT (sinks.go): total, named sinks with their share, the Agent rows apart, the five
//     largest rows of the window.
//   - AGENTS (agents.go): runs, then loops oldest first by alias, the older ones folded per run.
//   - TURNS (turns.go): one line per turn with how it ended and the idle after it, then the facts line.
//   - KNOWN PATTERNS and DECISIONS (known.go).
//
// Every cell is cut to a width and every block to a line count, so BuildPrompt's output is at most
// PromptMaxChars UTF-16 units (322,245) whatever the session holds (bound.go); a real full session
// (RowCap rows, LoopCap loops, MaxPatterns patterns) prints about 65,000.
//
// # One alias table per run
//
// BuildPrompt (or BuildProcessPrompt) prints loops under an alias table, and ParseReply (or
// ParseProcessReply) must be handed the same table, so an `agent:aN` handle reads back to the loop the
// prompt meant even after a new loop renumbered today's table. Rows are resolved against the session
// as it is when the reply is read: a row that left the window meanwhile is no longer citable.
//
// # Text rules
//
// Lengths are UTF-16 units (state.Len16) and cuts stop on whole characters. Whitespace and
// lower-casing follow Go's Unicode rules (unicode.IsSpace, strings.ToLower: `İ` lowers to `i`), where
// ContextSaver used JavaScript's. ContextSaver's regular expressions that JavaScript runs without the u flag
// (\b, \d, the i flag) match ASCII only here too. Reply JSON is read as JavaScript's JSON.parse reads
// it: numbers stay numbers (a quoted "0.9" is a string), a literal past the double range is infinite.
package judge
