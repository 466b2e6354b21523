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
#    folded, on at least 99% of samples, both with --no-inline; with
#    LIVE_SLOW=1 inline frames and all too (perf prints the functions
#    inlined at an address of a dwarf stack as frames of their own, as
#    jitsym does), which takes perf minutes on node's binary.
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

# perf's inline frames cost one addr2line query per address of node's
# 100 MB binary, and binutils walks its whole symbol table for each
# (bfd's _bfd_elf_find_function: node has DWARF for a few units only):
# over ten minutes for this recording, twice per CI run. So by default
# the comparison is made with --no-inline on both sides, and with
# LIVE_SLOW=1 inline frames and all too (100% of 2123 samples when issue
# 23 was done); the inline names themselves are tests/unit/t-inline.c's,
# against addr2line.
if [ "${LIVE_SLOW:-0}" = 1 ]; then
	live_compare_jit_fold "$data"
else
	live_say "fold with inline frames against perf: skipped (LIVE_SLOW=1: perf takes minutes here)"
fi
live_no_inline live_compare_jit_fold "$data"
live_finish
