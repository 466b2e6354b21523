#!/bin/sh
# t-dwarf-native.sh: record examples/native/native-demo with
# "perf record --call-graph dwarf" (user stacks as register sets and stack
# dumps, unwound afterwards) and check that jitsym's unwinding agrees with
# perf's own: "jitsym fold" against perf script --no-inline folded, and
# "jitsym script" against perf script line by line. perf prints inlined
# functions of a dwarf stack as extra "(inlined)" frames; jitsym names the
# function the address is in, as for frame-pointer stacks, so the
# comparison asks perf for the same (--no-inline). The fold comparisons
# allow for the rare stack through the vdso (see below) within 99%.
# Exit 77 when perf cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init dwarf-native
live_require_perf
live_find_jitsym
live_build_demo

LIVE_CALLGRAPH='--call-graph dwarf'
LIVE_SCRIPT_OPTS=--no-inline
# perf records with -N here, so it has no copy of the vdso and its stacks
# end at a [vdso] frame; jitsym goes on below it by frame pointer. Script
# lines are compared down to that frame.
LIVE_NORMALIZE_OPTS=--cut-after-vdso
data=$live_tmp/perf.data
live_record "$data" "$NATIVE_DEMO" "${LIVE_SECONDS:-2}"
live_compare_all "$data"
live_expect_frames "$data.fold.perf.folded" hash_bytes mix_block stage_b \
	descend spin_leaf demo_lib_checksum step_callback fill_keys cmp_keys
live_finish
