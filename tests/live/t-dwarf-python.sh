#!/bin/sh
# t-dwarf-python.sh: record CPython 3.13 "-X perf_jit" with
# "perf record --call-graph dwarf" and check that jitsym unwinds through the
# Python trampolines by the jitdump's JIT_CODE_UNWINDING_INFO (the
# trampolines keep no frame pointer):
#  - Python functions (py::) are named, with the C stack below them down to
#    main or _start, and at most 1% of the stacks end at JIT code for want
#    of CFI (lib.sh: live_expect_unwound_jit);
#  - jitsym fold agrees with perf's route, perf inject --jit + perf script
#    folded, on at least 99% of samples: inline frames and all (perf prints
#    the functions inlined at an address of a dwarf stack as frames of
#    their own, as jitsym does), and both with --no-inline.
# CPython writes /tmp/jit-PID.dump and perf inject writes
# /tmp/jitted-PID-N.so next to it: both are removed afterwards.
# Skips (77) when perf cannot record or no CPython 3.13 is found
# ($PYTHON313, pyenv's 3.13.0, or python3.13 in PATH).
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init dwarf-python
live_require_perf
live_find_jitsym
PY=${PYTHON313:-/root/.pyenv/versions/3.13.0/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3.13 2>/dev/null || true)
[ -n "$PY" ] && [ -x "$PY" ] || live_skip "no CPython 3.13 (pyenv 3.13.0 or python3.13 in PATH)"
"$PY" -c 'import sys; sys.exit(sys.version_info[:2] < (3, 13))' ||
	live_skip "'$PY' is older than 3.13: no -X perf_jit"

run=$live_tmp/run
mkdir "$run"
# shallow calls, so that the stack dump reaches main
cp "$live_top/tests/live/python-loop.py" "$run/w.py"
# Python's startup (importlib) runs deep: a larger dump leaves few stacks cut
# short (where perf adds an unnamed frame for the last address and jitsym stops)
LIVE_CALLGRAPH='--call-graph dwarf,32768'
data=$run/perf.data
(cd "$run" && live_record "$data" "$PY" -X perf_jit w.py "${LIVE_SECONDS:-2}")
dump=$(ls /tmp/jit-*.dump 2>/dev/null | while read -r f; do
	[ "$f" -nt "$run/w.py" ] && echo "$f"; done | head -n 1)
[ -n "$dump" ] || live_hard_error "python wrote no /tmp/jit-PID.dump"
pid=$(basename "$dump" .dump)
pid=${pid#jit-}
trap 'rm -f "/tmp/jit-$pid.dump" /tmp/jitted-"$pid"-*.so; live_on_exit $?' EXIT

live_expect_unwound_jit "$data" ';py::' ';py::leaf:[^;]*w\.py'

live_compare_jit_fold "$data"
live_no_inline live_compare_jit_fold "$data"
live_finish
