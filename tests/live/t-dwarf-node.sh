#!/bin/sh
# t-dwarf-node.sh: record examples/node/hot.js under
#   node --perf-prof --perf-prof-unwinding-info --interpreted-frames-native-stack
# with "perf record --call-graph dwarf" and check that jitsym unwinds
# through JS code, by the jitdump's JIT_CODE_UNWINDING_INFO where V8 wrote
# rules and by the frame pointer where it did not:
#  - JS frames (JS:) are named, with node's C++ stack below them down to
#    main, _start or node::Start, and at most 1% of the stacks end at JIT
#    code for want of CFI (lib.sh: live_expect_unwound_jit);
#  - jitsym fold agrees with perf's route, perf inject --jit + perf script
#    folded, on at least 99% of samples: inline frames and all (perf prints
#    the functions inlined at an address of a dwarf stack as frames of
#    their own, as jitsym does), and both with --no-inline.
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
data=$run/perf.data
# node writes jit-PID.dump into its working directory
(cd "$run" && live_record "$data" "$NODE" --perf-prof --perf-prof-unwinding-info \
	--interpreted-frames-native-stack hot.js "${LIVE_SECONDS:-2}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"

live_expect_unwound_jit "$data" ';JS:' ';JS:[*^~+]*fib [^;]*hot\.js'

live_compare_jit_fold "$data"
live_no_inline live_compare_jit_fold "$data"
live_finish
