#!/bin/sh
# t-dwarf-native.sh: record examples/native/native-demo with
# "perf record --call-graph dwarf" (user stacks as register sets and stack
# dumps, unwound afterwards) and check that jitsym's unwinding agrees with
# perf's own: "jitsym fold" against perf script folded, and "jitsym
# script" against perf script line by line. perf prints the functions
# inlined at an address of a dwarf stack as "(inlined)" frames of their
# own, and so does jitsym by default; the same comparisons are made again
# with --no-inline on both sides (lib.sh: live_no_inline). The fold
# comparisons allow for the rare stack through the vdso (see below) within
# 99%.
# The same recording is made again in pipe mode (perf record -o -) and
# with -z (zstd), each checked with the plain fold comparison, the -z one
# with the script comparison too; the pipe-mode file is also fed to
# jitsym through a pipe.
# Exit 77 when perf cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init dwarf-native
live_require_perf
live_find_jitsym
live_build_demo

LIVE_CALLGRAPH='--call-graph dwarf'
# perf records with -N here, so it has no copy of the vdso and its stacks
# end at a [vdso] frame; jitsym goes on below it by frame pointer. Script
# lines are compared down to that frame.
LIVE_NORMALIZE_OPTS=--cut-after-vdso
data=$live_tmp/perf.data
live_record "$data" "$NATIVE_DEMO" "${LIVE_SECONDS:-2}"
live_compare_all "$data"
live_no_inline live_compare_all "$data"
live_expect_frames "$data.fold.perf.folded" hash_bytes mix_block stage_b \
	descend spin_leaf demo_lib_checksum step_callback fill_keys cmp_keys

# pipe mode: from the file, then through a real pipe (stdin)
pdata=$live_tmp/pipe.data
LIVE_RECORD_PIPE=1
live_record "$pdata" "$NATIVE_DEMO" "${LIVE_FORM_SECONDS:-1}"
LIVE_RECORD_PIPE=0
# No script comparison here: a pipe-mode recording has no build id for
# the vdso, so perf script uses its own process's vdso image (same kernel)
# and names __vdso_clock_gettime and unwinds through it, where jitsym,
# without an image, has an [unknown] frame and goes on by frame pointer.
# The few samples in the vdso stay within the fold comparison's 1%.
live_compare_fold "$pdata" fold
live_say "fold: jitsym fold - (a pipe) vs jitsym fold FILE"
# a real pipe, not a file on stdin: cat is the point
# shellcheck disable=SC2002
if ! cat "$pdata" | live_jitsym fold - >"$pdata.stdin.folded" 2>"$pdata.stdin.stderr"; then
	live_show "$pdata.stdin.stderr" >&2
	live_fail "jitsym fold - failed on the pipe-mode recording"
elif ! cmp -s "$pdata.fold.jitsym.folded" "$pdata.stdin.folded"; then
	diff "$pdata.fold.jitsym.folded" "$pdata.stdin.folded" | sed -n '1,20s/^/    /p' >&2
	live_fail "jitsym fold reads the pipe-mode recording differently from a pipe"
else
	live_say "fold: identical from the file and from a pipe"
fi

# zstd-compressed (perf record -z)
zdata=$live_tmp/z.data
LIVE_RECORD_OPTS=-z
live_record "$zdata" "$NATIVE_DEMO" "${LIVE_FORM_SECONDS:-1}"
LIVE_RECORD_OPTS=
live_compare_fold "$zdata" fold
live_compare_script "$zdata"
live_finish
