#!/bin/sh
# t-offcpu.sh: record examples/offcpu/offcpu-demo, whose threads sleep
# (nanosleep) and wait on a pipe another thread fills slowly, each timing
# its own blocking with CLOCK_MONOTONIC, and check that "jitsym fold
# --off-cpu --include-tid" gives each thread an off-CPU weight within 5% of
# the time it measured: once from sched:sched_switch samples with stacks,
# once from --switch-events records. A kind perf cannot record here is
# skipped (both: exit 77). The check is relative and each thread blocks
# for LIVE_ROUNDS (30) rounds of 10 ms, long against scheduling noise; the
# time a woken thread waits for a CPU is inside both figures.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init offcpu
live_require_perf
live_find_jitsym

demo=${OFFCPU_DEMO:-${abs_top_builddir:-$live_top}/examples/offcpu/offcpu-demo}
if [ ! -x "$demo" ]; then
	command -v "${CC:-cc}" >/dev/null 2>&1 || live_skip "no offcpu-demo and no C compiler"
	${CC:-cc} -O2 -g -fno-omit-frame-pointer -pthread -o "$live_tmp/offcpu-demo" \
		"$live_top/examples/offcpu/offcpu-demo.c" >"$live_tmp/build.log" 2>&1 ||
		{ live_show "$live_tmp/build.log" 20 >&2; live_hard_error "cannot build offcpu-demo"; }
	demo=$live_tmp/offcpu-demo
fi
rounds=${LIVE_ROUNDS:-30}

# check KIND PERF-RECORD-OPTIONS...: record, fold, compare per thread
check() {
	kind=$1
	shift
	data=$live_tmp/$kind.data
	# shellcheck disable=SC2086
	if ! "$PERF" record -q -N -k 1 "$@" -o "$data" -- "$demo" "$rounds" 10 \
		>"$data.measured" 2>"$data.log"; then
		live_say "$kind: perf record $* cannot record here: $(head -n 2 "$data.log" | tr '\n\t' '  ')"
		return 1
	fi
	live_jitsym fold -q --off-cpu --include-tid "$data" >"$data.folded" ||
		{ live_fail "$kind: jitsym fold --off-cpu failed"; return 0; }
	# the weight per thread: the label is comm-PID/TID, the weight last
	awk '{ n = split($1, f, ";"); t = f[1]; sub(/.*\//, "", t); w[t] += $NF }
	     END { for (t in w) print t, w[t] }' "$data.folded" >"$data.weights"
	while read -r name tid measured; do
		weight=$(awk -v t="$tid" '$1 == t { print $2 }' "$data.weights")
		weight=${weight:-0}
		verdict=$(awk -v m="$measured" -v w="$weight" 'BEGIN {
			d = w - m; if (d < 0) d = -d
			printf "%s %.2f", (d <= m * 0.05 ? "ok" : "off"), (m ? 100 * (w - m) / m : 0) }')
		live_say "$kind: $name ($tid) blocked $measured ns, off-CPU weight $weight ns (${verdict#* }%)"
		[ "${verdict%% *}" = ok ] ||
			live_fail "$kind: $name's off-CPU weight $weight ns is more than 5% from its measured $measured ns"
	done <"$data.measured"
	[ -s "$data.measured" ] || live_fail "$kind: offcpu-demo printed nothing"
	return 0
}

recorded=0
check sched -e sched:sched_switch -g && recorded=$((recorded + 1))
check switch -e cpu-clock -g --switch-events && recorded=$((recorded + 1))
[ "$recorded" -gt 0 ] || live_skip "perf can record neither sched:sched_switch nor switch events"
live_finish
