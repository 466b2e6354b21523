#!/bin/sh
# t-jit-minijit.sh: record examples/minijit in each of its modes, the hard
# cases of JIT symbolization, and check jitsym's answers:
#  - every function that ran is named, and no frame in JIT code (anonymous
#    memory) stays [unknown], in every mode but truncate (where the cut
#    function has no description) ;
#  - reuse: the function loaded first is never named after the second one
#    replaced it at the same address;
#  - truncate: a warning names the jitdump and the offset it stopped at;
#  - mixed (one function only in the jitdump, one only in the perf map):
#    both named, which perf cannot do in either of its two ways;
#  - where perf inject --jit is right (basic, coalesce, move, threads,
#    fork), jitsym fold agrees with it on at least 99% of samples.
# Skips (77) when perf cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init jit-minijit
live_require_perf
live_find_jitsym
live_find_minijit
live_say "minijit: $MINIJIT"

# Functions a mode's run named in its summary, with a state that ran.
ran_functions() {
	sed -n 's/^minijit\[[0-9]*\]: func \(mj:[^ ]*\) .* state=\([a-z]*\).*/\1 \2/p' "$1" |
		awk '$2 != "cut" { print $1 }' | sort -u
}

# Times of samples whose leaf frame is NAME, from jitsym script output.
leaf_times() {
	awk -v name="$2" '
		/^[^\t]/ { t = $0; sub(/:.*/, "", t); n = split(t, w, " "); t = w[n]; leaf = 1; next }
		/^\t/ { if (leaf && index($0, " " name "+0x")) print t; leaf = 0 }' "$1"
}

run_mode() { # mode describe
	mode=$1
	run=$live_tmp/$mode
	mkdir "$run"
	data=$run/perf.data
	(cd "$run" && live_record "$data" "$MINIJIT" --mode="$mode" --describe="$2" \
		--dir "$run" --perfmap-dir "$run" "${LIVE_SECONDS:-1}")
	live_jitsym fold "$data" >"$run/jitsym.folded" 2>"$run/jitsym.stderr" ||
		{ live_show "$run/jitsym.stderr" >&2; live_fail "$mode: jitsym fold failed"; return 0; }
	for f in $(ran_functions "$data.stderr"); do
		grep -q ";$f;\\|;$f " "$run/jitsym.folded" ||
			live_fail "$mode: '$f' ran but jitsym fold never names it"
	done
	[ "$mode" = truncate ] || live_expect_jit_resolved "$data"
}

run_mode basic jitdump
live_compare_jit_fold "$live_tmp/basic/perf.data"
run_mode coalesce jitdump

live_compare_jit_fold "$live_tmp/coalesce/perf.data"
run_mode move jitdump
live_compare_jit_fold "$live_tmp/move/perf.data"
run_mode threads jitdump
live_compare_jit_fold "$live_tmp/threads/perf.data"
run_mode fork jitdump
live_compare_jit_fold "$live_tmp/fork/perf.data"

run_mode reuse both
live_jitsym script "$live_tmp/reuse/perf.data" >"$live_tmp/reuse/script.txt" 2>/dev/null
last_a=$(leaf_times "$live_tmp/reuse/script.txt" mj:reuse_a | sort -n | tail -n 1)
first_b=$(leaf_times "$live_tmp/reuse/script.txt" mj:reuse_b | sort -n | head -n 1)
live_say "reuse: last mj:reuse_a sample at ${last_a:-none}, first mj:reuse_b at ${first_b:-none}"
if [ -z "$last_a" ] || [ -z "$first_b" ] ||
   ! awk -v a="$last_a" -v b="$first_b" 'BEGIN { exit !(a < b) }'; then
	live_fail "reuse: mj:reuse_a is named after mj:reuse_b replaced it"
fi

run_mode truncate jitdump
grep -q "jit-[0-9]*\\.dump'.* at offset [0-9]*; using the [0-9]* records before it" \
	"$live_tmp/truncate/jitsym.stderr" ||
	{ live_show "$live_tmp/truncate/jitsym.stderr" >&2
	  live_fail "truncate: no warning naming the jitdump and the offset"; }

run_mode mixed both

live_finish
