#!/bin/sh
# t-jit-node.sh: record examples/node/hot.js under
#   node --perf-prof --perf-basic-prof --interpreted-frames-native-stack
# (a jitdump and a perf map) and check that
#  - no frame in JIT code (anonymous memory) stays [unknown] where node's
#    perf map describes the address;
#  - jitsym fold agrees with perf's route, perf inject --jit + perf script
#    folded, on at least 99% of samples;
#  - jitsym writes nothing and changes nothing next to its inputs.
# Skips (77) when perf cannot record or node is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init jit-node
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"

run=$live_tmp/run
mkdir "$run"
cp "$live_top/examples/node/hot.js" "$run/"
data=$run/perf.data
# node writes jit-PID.dump into its working directory
(cd "$run" && live_record "$data" "$NODE" --perf-prof --perf-basic-prof \
	--interpreted-frames-native-stack hot.js "${LIVE_SECONDS:-2}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"
pid=$(basename "$(ls "$run"/jit-*.dump | head -n 1)" .dump)
pid=${pid#jit-}
# node's perf map is in /tmp: not ours to keep
trap 'rm -f "/tmp/perf-$pid.map"; live_on_exit $?' EXIT

# everything jitsym prints goes to the temp dir, outside the recording's
before=$(live_snapshot "$run")
live_expect_jit_resolved "$data" "/tmp/perf-$pid.map"
live_jitsym fold --annotate "$data" >"$live_tmp/annotated.folded" 2>/dev/null
grep -q 'JS:[*^~+]*fib [^;]*hot.js:[0-9:]*_\[j\]' "$live_tmp/annotated.folded" ||
	live_fail "no JS:fib frame from hot.js marked _[j] in jitsym fold --annotate"
live_jitsym script "$data" >"$live_tmp/script.txt" 2>/dev/null
after=$(live_snapshot "$run")
[ "$before" = "$after" ] || live_fail "jitsym changed files in the recording's directory"

live_compare_jit_fold "$data"
live_finish
