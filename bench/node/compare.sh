#!/bin/sh
# The plugin's reducer path (ContextSaver, under Node) against `saverd < FILE`, on the replay BenchmarkDaemonFloors builds
# (a full session: RowCap rows and more, LoopCap loops, then 20,000 more tool.calls), five alternating
# runs each; prints the medians of CPU (user+system) and wall seconds, and the ratios.
#
#	bench/node/compare.sh ORACLE_DIR     # an oracle checkout with `npm ci` done (it holds esbuild)
#
# Run from the repository's root. Needs node and go; the Go tests never need this.
set -eu
oracle=${1:?usage: bench/node/compare.sh ORACLE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/saverd" ./cmd/saverd
go test ./cmd/saverd -run '^$' -bench DaemonFloors -benchtime 1x -args -replay-file "$work/replay.ndjson" >/dev/null
node bench/node/build.mjs "$oracle" "$work/plugin.js"
node bench/node/build.mjs "$oracle" "$work/plugin-inplace.js" --fold-in-place
mkdir "$work/store"
for _ in 1 2 3 4 5; do
	/usr/bin/time -a -o "$work/saverd.t" -f '%U %S %e' "$work/saverd" --store "$work/store" --log-level error <"$work/replay.ndjson" >/dev/null
	/usr/bin/time -a -o "$work/plugin.t" -f '%U %S %e' node "$work/plugin.js" <"$work/replay.ndjson" >/dev/null 2>&1
	/usr/bin/time -a -o "$work/plugin-inplace.t" -f '%U %S %e' node "$work/plugin-inplace.js" <"$work/replay.ndjson" >/dev/null 2>&1
done
median() { awk "{print $1}" "$2" | sort -n | sed -n 3p; }
s_cpu=$(median '$1+$2' "$work/saverd.t") s_wall=$(median '$3' "$work/saverd.t")
for run in plugin plugin-inplace; do
	cpu=$(median '$1+$2' "$work/$run.t") wall=$(median '$3' "$work/$run.t")
	echo "$run: cpu ${cpu}s wall ${wall}s; saverd: cpu ${s_cpu}s wall ${s_wall}s; saverd is $(echo "$cpu $s_cpu" | awk '{printf "%.1f", $1/$2}')x less CPU, $(echo "$wall $s_wall" | awk '{printf "%.1f", $1/$2}')x faster"
done
