#!/bin/sh
# t-agreement-native.sh: record examples/native/native-demo (three threads,
# recursion, a shared library, libc callbacks, system calls) and check that
# "jitsym fold" and "jitsym script" agree with perf's own symbolisation.
# See lib.sh for the environment it reads; exit 77 when perf cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init agreement-native
live_require_perf
live_find_jitsym
live_build_demo

data=$live_tmp/perf.data
live_record "$data" "$NATIVE_DEMO" "${LIVE_SECONDS:-2}"
live_compare_all "$data"
# The demo's own functions must be in perf's profile; if not, the build or
# the unwinding here is off and the comparisons above prove little.
live_expect_frames "$data.fold.perf.folded" hash_bytes mix_block stage_b \
	descend spin_leaf demo_lib_checksum step_callback fill_keys cmp_keys
live_finish
