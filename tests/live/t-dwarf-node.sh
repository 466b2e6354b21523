#!/bin/sh
# t-dwarf-node.sh: record examples/node/hot.js under
#   node --perf-prof --perf-prof-unwinding-info --interpreted-frames-native-stack
# with "perf record --call-graph dwarf" and check that jitsym unwinds
# through JS code, by the jitdump's JIT_CODE_UNWINDING_INFO where V8 wrote
# rules and by the frame pointer where it did not:
#  - JS frames (JS:) are named, with node's C++ stack below them down to
#    main, _start or node::Start, and no stack ends at JIT code for want
#    of CFI;
#  - jitsym fold agrees with perf's route, perf inject --jit + perf script
#    folded, on at least 99% of samples.
# Skips (77) when perf cannot record or node is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init dwarf-node
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"

run=$live_tmp/run
mkdir "$run"
cp "$live_top/examples/node/hot.js" "$run/"
# node's bootstrap stacks are deep: a larger dump leaves few cut short (where perf
# adds an unnamed frame for the last address and jitsym stops)
LIVE_CALLGRAPH='--call-graph dwarf,32768'
# perf prints inlined functions of dwarf stacks as frames of their own; jitsym does not
LIVE_SCRIPT_OPTS=--no-inline
data=$run/perf.data
# node writes jit-PID.dump into its working directory
(cd "$run" && live_record "$data" "$NODE" --perf-prof --perf-prof-unwinding-info \
	--interpreted-frames-native-stack hot.js "${LIVE_SECONDS:-2}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"

src=$live_tmp/sources
live_jitsym sources "$data" >"$src" 2>/dev/null || live_fail "jitsym sources failed"
live_show "$src" 8
grep -q 'unwinding info' "$src" || live_fail "no JIT_CODE_UNWINDING_INFO read from the jitdump"
if grep -E "no CFI for '(//anon|\[unknown\])'" "$src" >&2; then
	live_fail "stacks ended at JIT code for want of CFI (above)"
fi

folded=$live_tmp/jitsym.folded
live_jitsym fold "$data" >"$folded" 2>/dev/null || live_fail "jitsym fold failed"
js=$(awk '/;JS:/ { n += $NF } END { print n + 0 }' "$folded")
deep=$(awk '/;JS:/ && /;(main|_start|node::Start);/ { n += $NF } END { print n + 0 }' "$folded")
live_say "$js samples in JS code, $deep of them down to main"
[ "$js" -gt 0 ] || live_fail "no JS: frame in jitsym fold"
grep -q ';JS:[*^~+]*fib [^;]*hot.js' "$folded" || live_fail "no JS:fib frame from hot.js"
[ $((deep * 100)) -ge $((js * 95)) ] ||
	live_fail "only $deep of $js samples in JS code have the C++ stack down to main"

live_compare_jit_fold "$data"
live_finish
