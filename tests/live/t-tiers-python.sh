#!/bin/sh
# t-tiers-python.sh: record a pure-Python loop under CPython 3.12+
# "-X perf" (a perf map of one trampoline per Python function, py::NAME)
# and check that "jitsym tiers" counts Python as interpreted (issue 13):
#  - the interpreted share of the process is above 50%;
#  - every sample whose leaf frame is a py:: trampoline is in the
#    interpreted category (as many as the CSV's interpreted/Python series);
#  - the samples through w.py's leaf() (py::leaf on the stack) are counted
#    as interpreted innermost (py::leaf, or the native code it calls,
#    is the innermost code): at least as many;
#  - interval totals and the grand total as in tiers-lib.sh.
# CPython writes /tmp/perf-PID.map: removed afterwards. Skips (77) when
# perf cannot record or no CPython 3.12 is found ($PYTHON312, pyenv's 3.12,
# or python3.12 in PATH).
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init tiers-python
live_require_perf
live_find_jitsym
PY=${PYTHON312:-}
if [ -z "$PY" ] && command -v pyenv >/dev/null 2>&1; then
	PY=$(ls -d "$(pyenv root)"/versions/3.12.*/bin/python3.12 2>/dev/null | tail -n 1)
fi
[ -n "$PY" ] || PY=$(command -v python3.12 2>/dev/null || true)
[ -n "$PY" ] && [ -x "$PY" ] || live_skip "no CPython 3.12 (pyenv 3.12.*, python3.12 in PATH or \$PYTHON312)"
"$PY" -c 'import sys; sys.exit(sys.version_info[:2] < (3, 12))' ||
	live_skip "'$PY' is older than 3.12: no -X perf"

run=$live_tmp/run
mkdir "$run"
# a loop the eval loop runs by itself: small ints (cached, no allocation),
# comparisons and jumps; calls into C helpers would be native leaf samples
cat >"$run/w.py" <<'PYEOF'
import sys, time
def leaf(n):
    s = 0
    t = 0
    for i in range(n):
        if s < 100 and i > 3:
            s = s + 1
        elif s == i:
            s = 0
        else:
            s = t
        t = s
    return s
def outer(seconds):
    end = time.time() + seconds
    t = 0
    while time.time() < end:
        t = leaf(250)
    return t
outer(float(sys.argv[1]))
PYEOF
# CPython 3.12 keeps no frame pointers in its eval loop: dwarf stacks, so
# that the py:: frames are on them (for the inclusive share)
LIVE_CALLGRAPH='--call-graph dwarf,16384'
LIVE_FREQ=${LIVE_FREQ:-1000}
data=$run/perf.data
(cd "$run" && live_record "$data" "$PY" -X perf w.py "${LIVE_SECONDS:-1}")
pid=$(tiers_main_pid "$data")
[ -f "/tmp/perf-$pid.map" ] || live_hard_error "python (pid $pid) wrote no /tmp/perf-$pid.map"
trap 'rm -f "/tmp/perf-$pid.map"; live_on_exit $?' EXIT
live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$data.stderr" | tail -n 1)

tiers_run "$data" "$pid"
live_say "series: $(tiers_series)"
share=$(tiers_share 0 "$tiers_n" interpreted)
live_say "interpreted share of python $pid: $share%"
awk -v a="$share" 'BEGIN { exit !(a > 50) }' ||
	live_fail "interpreted share $share% of a pure-Python loop is not above 50%"
tiers_tenths interpreted

# leaf frames py::NAME: as many samples as the interpreted/Python series
leaf_py=$(live_jitsym fold --include-pid "$data" 2>/dev/null | awk -v pid="$pid" '
	{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
	  if (f[1] ~ "-" pid "(/|$)" && f[k] ~ /^py::/) s += n } END { print s + 0 }')
csv_py=$(awk -F, -v pid="$pid" '$3 == pid && $6 == "interpreted" && $7 == "Python" { n += $8 }
	END { print n + 0 }' "$tiers_csv")
csv_py_other=$(awk -F, -v pid="$pid" '$3 == pid && $6 != "interpreted" && $7 == "Python" { n += $8 }
	END { print n + 0 }' "$tiers_csv")
live_say "py:: leaf samples: $leaf_py in jitsym fold, $csv_py in interpreted/Python"
[ "$leaf_py" -gt 0 ] || live_say "warning: no sample has a py:: trampoline as its leaf"
[ "$leaf_py" -eq "$csv_py" ] && [ "$csv_py_other" -eq 0 ] ||
	live_fail "py:: leaf samples not all interpreted: fold $leaf_py, interpreted/Python $csv_py, other Python $csv_py_other"
# in the JSON, the group's "inclusive_interpreted":{"total_samples":N,...
# is on a line of its own after the line with its pid
incl=$(awk -v pid="$pid" 'index($0, "{\"pid\":" pid ",") { g = 1 }
	g && sub(/.*"inclusive_interpreted":\{"total_samples":/, "") { print $0 + 0; exit }' "$tiers_json")
through=$(live_jitsym fold --include-pid "$data" 2>/dev/null | awk -v pid="$pid" '
	$1 ~ "-" pid "(/|;)" && /;py::leaf:[^;]*w\.py/ { n += $NF } END { print n + 0 }')
live_say "interpreted innermost: ${incl:-?} samples; through py::leaf: $through"
[ -n "$incl" ] || live_fail "no inclusive_interpreted total for $pid in $tiers_json"
[ "$through" -gt 0 ] || live_fail "no py::leaf frame of w.py on the stacks"
[ -z "$incl" ] || [ "$incl" -ge "$through" ] ||
	live_fail "fewer samples interpreted innermost ($incl) than through py::leaf ($through)"
live_finish
