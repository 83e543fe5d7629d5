// The plugin's (ContextSaver's) reducer path run the way saverd serves a host: one JSON-RPC request per line on stdin,
// one reply per request on stdout. A tool.call is parsed, turned into a row (rowOf), folded in through
// the plugin's dispatch (reduce, and the check of the instructions it settled), read for a Workflow run
// or an Agent launch, and answered; session.start and turn.start start the state and the turn. It is
// built against the plugin's TypeScript (see README.md, Performance); nothing in the Go tests needs it.
import { createInterface } from 'node:readline'

import { rowOf } from '@seed/core/ledger'
import { reduce } from '@seed/core/patterns'
import { agentOf, runOf } from '@seed/core/spawns'
import { initialState } from '@seed/core/types'
import type { Action, State } from '@seed/core/types'

type Params = Record<string, any>

let state: State = initialState('', 200_000)
const openIds = (): string[] => state.patterns.filter(p => p.openedAtTurn !== null).map(p => p.id)
let settled = 0

const dispatch = (action: Action): void => {
  const open = openIds()
  state = reduce(state, action)
  if (open.some(id => state.patterns.find(p => p.id === id)?.openedAtTurn === null)) settled++
}

const handle = (method: string, p: Params): unknown => {
  switch (method) {
    case 'session.start':
      state = initialState(p.cwd ?? '', p.usage?.window ?? 200_000)
      return {}
    case 'turn.start':
      dispatch({ type: 'turn.start', now: p.at ?? 0 })
      return {}
    case 'tool.call': {
      const e = p.event
      const result = p.result ?? {}
      dispatch({ type: 'row', row: rowOf(e, result, p.ms ?? 0, state.turn) } as Action)
      const run = runOf(result.result)
      if (run !== null) dispatch({ type: 'run.start', run, now: p.at ?? 0 } as Action)
      const agent = agentOf(result.result)
      if (agent !== null) dispatch({ type: 'agent.start', ...agent } as Action)
      return {}
    }
  }
  return {}
}

const out: string[] = []
const flush = (): void => {
  if (out.length > 0) process.stdout.write(out.join(''))
  out.length = 0
}
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity })
rl.on('line', line => {
  if (line.trim() === '') return
  const msg = JSON.parse(line)
  const result = handle(msg.method, msg.params ?? {})
  if (msg.id !== undefined) out.push(JSON.stringify({ id: msg.id, jsonrpc: '2.0', result }) + '\n')
  if (out.length >= 256) flush() // batched as saverd batches its writes while input is waiting
})
rl.on('close', () => {
  flush()
  process.stderr.write(`rows ${state.rows.length} seq ${state.seq} loops ${state.loops.length} settled ${settled}\n`)
})
