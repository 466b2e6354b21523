#!/bin/sh
# t-erlang.sh: record examples/erlang/busy.erl under erl +JPperf true
# (OTP 25+: a jitdump and a perf map in /tmp) and check that
#  - the BEAM's bottom continuation pointer, erts_beamasm:normal_exit/0's
#    first byte, pushed without a call, names normal_exit/0 and never the
#    prologue before it (normal_exit/0-CodeInfoPrologue): jitsym looks a
#    caller up at ip - 1 only where the code before it ends in a call;
#  - jitsym fold agrees with perf's route, perf inject --jit + perf script
#    folded, on at least 99% of samples, whole stacks, callers named as
#    perf names them (at their ip) except where a call ends at a
#    function's end (fold-perf-script.pl --caller-start-wild), and on at
#    least LIVE_MIN_EXACT (default 98)% with no such allowance (what is
#    left: perf without the vdso's image, ld.so's _start, code the BEAM
#    was still writing).
# Skips (77) when perf cannot record or erl/erlc are missing (Debian
# package erlang-base).
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init erlang
live_require_perf
live_find_jitsym
ERL=${ERL:-erl}
ERLC=${ERLC:-erlc}
command -v "$ERL" >/dev/null 2>&1 || live_skip "no '$ERL' (Debian package 'erlang-base')"
command -v "$ERLC" >/dev/null 2>&1 || live_skip "no '$ERLC' (Debian package 'erlang-base')"

run=$live_tmp/run
mkdir "$run"
"$ERLC" -o "$run" "$live_top/examples/erlang/busy.erl" ||
	live_hard_error "erlc cannot compile examples/erlang/busy.erl"
data=$run/perf.data
# the BEAM writes /tmp/jit-PID.dump and /tmp/perf-PID.map (erl execs it: PID is the shell's)
pid=
cleanup() {
	[ -n "$pid" ] && rm -f "/tmp/jit-$pid.dump" "/tmp/perf-$pid.map" /tmp/jitted-"$pid"-*.so
	live_on_exit "$1"
}
trap 'cleanup $?' EXIT
live_record "$data" sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$run/pid" \
	"$ERL" +JPperf true -noshell -pa "$run" -run busy main "${LIVE_SECONDS:-2}"
pid=$(cat "$run/pid")
# an emulator without the JIT (OTP < 24, or built without it) writes none
[ -f "/tmp/jit-$pid.dump" ] ||
	live_skip "erl +JPperf true wrote no /tmp/jit-$pid.dump (no JIT in this emulator?)"

live_jitsym fold "$data" >"$live_tmp/fold" 2>"$live_tmp/fold.stderr" ||
	{ live_show "$live_tmp/fold.stderr" >&2; live_hard_error "jitsym fold failed"; }
# samples whose stack has the prologue as a caller (any frame but the leaf)
prologue=$(awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";");
	for (i = 1; i < k; i++) if (f[i] ~ /normal_exit\/0-CodeInfoPrologue$/) { s += n; break } }
	END { print s + 0 }' "$live_tmp/fold")
exits=$(awk '/erts_beamasm:normal_exit\/0;/ { s += $NF } END { print s + 0 }' "$live_tmp/fold")
live_say "normal_exit/0 as a caller in $exits samples, its prologue in $prologue"
[ "$prologue" -eq 0 ] ||
	live_fail "$prologue samples name normal_exit/0-CodeInfoPrologue as a caller"
[ "$exits" -gt 0 ] || live_fail "no sample has erts_beamasm:normal_exit/0 as a caller"

live_compare_jit_fold "$data"
# the same, with every caller as perf names it
"$PERL" "$live_here/fold-perf-script.pl" "$data.injected.script" >"$data.inject.exact.folded" ||
	live_hard_error "fold-perf-script.pl cannot read '$data.injected.script'"
if "$PERL" "$live_here/compare-folded.pl" --min "${LIVE_MIN_EXACT:-98}" \
	--label-a perf-inject --label-b jitsym \
	"$data.inject.exact.folded" "$data.inject.jitsym.folded" >"$data.exact.compare" 2>&1; then
	live_show "$data.exact.compare" 4
else
	live_show "$data.exact.compare" 30 >&2
	live_fail "jitsym fold disagrees with perf inject --jit + perf script on whole stacks"
fi
live_finish
