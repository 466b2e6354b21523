#!/bin/sh
# Record examples/node/hot.js with perf and produce every jitsym output:
#
#   examples/node/record-all.sh [OUTDIR] [SECONDS]
#
# OUTDIR (default ./node-profile) receives perf.data, node's jit-PID.dump
# and: out.folded (fold), out.svg (flamegraph), out.pb.gz (pprof),
# report.txt (report --source-lines), sources.txt (sources) and
# script.txt (script). JITSYM names the binary (default: jitsym on PATH,
# else build/jitsym of this checkout).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-node-profile}
seconds=${2:-3}
jitsym=${JITSYM:-$(command -v jitsym || echo "$here/../../build/jitsym")}
[ -x "$jitsym" ] || { echo "record-all: no jitsym at '$jitsym' (set JITSYM)" >&2; exit 1; }
command -v node >/dev/null || { echo "record-all: no node" >&2; exit 1; }
mkdir -p "$out"
cp "$here/hot.js" "$out/"
cd "$out"
# -k 1: CLOCK_MONOTONIC, the clock of node's jitdump; node writes
# jit-PID.dump here and /tmp/perf-PID.map
perf record -k 1 -e cpu-clock -F 999 -g -o perf.data -- \
	node --perf-prof --perf-basic-prof --interpreted-frames-native-stack hot.js "$seconds"
"$jitsym" fold perf.data >out.folded
"$jitsym" flamegraph --title "node hot.js" perf.data -o out.svg
"$jitsym" pprof perf.data -o out.pb.gz
"$jitsym" report --source-lines --limit 15 perf.data >report.txt
"$jitsym" sources perf.data >sources.txt
"$jitsym" script perf.data >script.txt
echo "record-all: wrote $(pwd)/{out.folded,out.svg,out.pb.gz,report.txt,sources.txt,script.txt}" >&2
