// Builds serve.ts against the plugin's TypeScript (ContextSaver) in an oracle checkout (its node_modules hold esbuild):
//
//	node bench/node/build.mjs ORACLE_DIR OUT.js [--fold-in-place]
//
// --fold-in-place swaps the oracle's stand-in for foldRows (which copies every folded record on each
// fold: the plugin's source does not contain the real one) for one that folds into the records it is given, the
// cheapest that function could be, so the comparison does not rest on the stand-in's cost.
import { createRequire } from 'node:module'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const [oracle, outfile, flag] = process.argv.slice(2)
if (!oracle || !outfile) {
  console.error('usage: node build.mjs ORACLE_DIR OUT.js [--fold-in-place]')
  process.exit(2)
}
const esbuild = createRequire(path.join(path.resolve(oracle), 'package.json'))('esbuild')
const inPlace = flag === '--fold-in-place'
const copyAll = 'const out: Record<string, Folded> = { ...folded }'

await esbuild.build({
  entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.ts')],
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'warning',
  alias: { '@seed': path.join(path.resolve(oracle), 'src') },
  plugins: [{
    name: 'fold-in-place',
    setup(build) {
      build.onLoad({ filter: /core[\\/]evidence\.ts$/ }, async args => {
        let text = await readFile(args.path, 'utf8')
        if (inPlace) {
          if (!text.includes(copyAll)) throw new Error(`${args.path}: foldRows no longer reads "${copyAll}"`)
          text = text.replace(copyAll, 'const out = folded as Record<string, Folded>')
        }
        return { contents: text, loader: 'ts' }
      })
    },
  }],
})
