#!/bin/sh
# t-python312-fp.sh: record CPython 3.12 "-X perf" with perf record -g
# (frame-pointer call chains) and check what "jitsym sources" says of it:
#  - CPython built without frame pointers (pyenv's: -O3, no
#    -fno-omit-frame-pointer in its CFLAGS): the chains end in [unknown]
#    before they reach a py:: trampoline, and sources names the fix in one
#    line: a build with CFLAGS="-fno-omit-frame-pointer
#    -mno-omit-leaf-frame-pointer", or 3.13's -X perf_jit with
#    --call-graph dwarf;
#  - CPython built with them: py:: frames in most samples, and no such line.
# CPython writes /tmp/perf-PID.map: removed afterwards. Skips (77) when perf
# cannot record or no CPython 3.12 is found ($PYTHON312, pyenv's 3.12.1,
# or python3.12 in PATH).
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init python312-fp
live_require_perf
live_find_jitsym
PY=${PYTHON312:-/root/.pyenv/versions/3.12.1/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3.12 2>/dev/null || true)
[ -n "$PY" ] && [ -x "$PY" ] || live_skip "no CPython 3.12 (pyenv 3.12.1 or python3.12 in PATH)"
"$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' ||
	live_skip "'$PY' is not CPython 3.12"
fp=$("$PY" -c 'import sysconfig; print(int("-fno-omit-frame-pointer" in (sysconfig.get_config_var("CFLAGS") or "")))')
live_say "CPython 3.12 at $PY, built with frame pointers: $fp"

run=$live_tmp/run
mkdir "$run"
cp "$live_top/tests/live/python-loop.py" "$run/w.py"
data=$run/perf.data
(cd "$run" && live_record "$data" "$PY" -X perf w.py "${LIVE_SECONDS:-1}")
pid=$("$PERF" script -F pid -i "$data" 2>/dev/null | awk '{ print $1; exit }')
trap 'rm -f "/tmp/perf-$pid.map"; live_on_exit $?' EXIT
[ -s "/tmp/perf-$pid.map" ] || live_hard_error "python wrote no /tmp/perf-$pid.map"
"$JITSYM" sources --buildid-dir "$live_buildid_dir" "$data" >"$run/sources" 2>"$run/sources.err" ||
	live_hard_error "jitsym sources failed: $(head -n 3 "$run/sources.err")"
live_show "$run/sources" 12
hint=$(grep -c '^  python    .*-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer.*-X perf_jit.*--call-graph dwarf' "$run/sources" || true)
if [ "$fp" = 0 ]; then
	[ "$hint" = 1 ] || live_fail "no frame pointers in CPython, but sources names no fix"
else
	[ "$hint" = 0 ] || live_fail "CPython has frame pointers, but sources says it needs them"
fi
live_finish
