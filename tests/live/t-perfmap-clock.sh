#!/bin/sh
# t-perfmap-clock.sh: times for perf-map lines on a real kernel. minijit's
# flush mode does what LuaJIT does around jit.flush(): per trace, its code
# area made writable, the code written, the area made executable again
# (mprotect: the kernel records an exec mmap), then the trace's perf-map
# line; every few traces the area is unmapped and mapped again at the same
# address, so later traces reuse earlier ones' addresses. Checks:
#  - sources says the map's lines got the times of as many exec mmaps as
#    there are traces;
#  - every sample whose leaf jitsym names as a trace was taken while that
#    trace ran (minijit says when each ran, on CLOCK_MONOTONIC, the clock
#    of perf record -k 1), so no sample gets another trace's name.
# (On this machine perf script, with one name per address for the whole
# run, misnamed 1434 of 2000 such samples; jitsym before times, 1549.)
# Skips (77) when perf cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init perfmap-clock
live_require_perf
live_find_jitsym
live_find_minijit

run=$live_tmp/flush
mkdir "$run"
data=$run/perf.data
(cd "$run" && live_record "$data" "$MINIJIT" --mode=flush --describe=perfmap \
	--dir "$run" --perfmap-dir "$run" "${LIVE_SECONDS:-1}")
# "minijit[PID]: ran NAME at ADDR from T0 to T1"
sed -n 's/^minijit\[[0-9]*\]: ran \([^ ]*\) at [^ ]* from \([0-9.]*\) to \([0-9.]*\)$/\1 \2 \3/p' \
	"$data.stderr" >"$run/ran.txt"
traces=$(wc -l <"$run/ran.txt")
[ "$traces" -gt 0 ] || live_hard_error "minijit ran no trace (see $data.stderr)"

live_jitsym sources "$data" >"$run/sources.txt" 2>"$run/sources.stderr" ||
	live_fail "jitsym sources failed"
grep -q "perfmap .*: $traces entries, .*; times from $traces exec mmaps$" "$run/sources.txt" ||
	{ live_show "$run/sources.txt" >&2; live_fail "sources: not 'times from $traces exec mmaps'"; }

live_jitsym script "$data" >"$run/script.txt" 2>"$run/script.stderr" ||
	live_fail "jitsym script failed"
# "TIME NAME" of each sample whose leaf is a trace
awk '/^[^\t]/ { t = $0; sub(/:.*/, "", t); n = split(t, w, " "); t = w[n]; leaf = 1; next }
	/^\t/ { if (leaf && $2 ~ /^TRACE_/) { name = $2; sub(/\+0x[0-9a-f]*$/, "", name); print t, name }
		leaf = 0 }' "$run/script.txt" >"$run/leaves.txt"
# a microsecond of slack: script prints times to the microsecond
result=$(awk 'NR == FNR { from[$1] = $2; to[$1] = $3; next }
	{ n++; if (!($2 in from) || $1 < from[$2] - 0.000001 || $1 > to[$2] + 0.000001) bad++ }
	END { print n + 0, bad + 0 }' "$run/ran.txt" "$run/leaves.txt")
set -- $result
live_say "$traces traces; $1 samples named as a trace, $2 of them outside that trace's run"
[ "$1" -gt 0 ] || live_fail "no sample was named as a trace"
[ "$2" -eq 0 ] || live_fail "$2 samples got the name of a trace that was not running"
live_finish
