#!/bin/sh
# t-tiers-node.sh: record examples/node/warmup.js (a task repeated over a
# pipeline of stages that start in Ignition and tier up; see its header)
# under node --perf-prof --interpreted-frames-native-stack and check
# "jitsym tiers" on it (issue 13):
#  - the interpreted share of the first tenth of the intervals is above
#    the last tenth's;
#  - Ignition, Sparkplug and TurboFan are all seen (Maglev is reported
#    when V8 used it: node 20 does not, even with --maglev);
#  - the run has a warm-up point, and a plausible one (tiers_expect_warm:
#    not at 0 s, no later than the last tenth), the node exit's
#    interpreted code in the partial last interval notwithstanding;
#  - every interval's total over the series equals perf script's samples in
#    that interval, and the CSV's total jitsym fold's and perf record's
#    (tiers-lib.sh), so the shares add up to 100%.
# The warm-up is structural: V8 tiers a function up by the bytecode it ran
# and compiles synchronously here, so the stages leave Ignition at the same
# round in every run. Skips (77) when perf cannot record or node is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init tiers-node
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"
# --maglev where this node knows it (V8 11.3+); it does not make V8 use it
maglev=
"$NODE" --maglev -e 0 >/dev/null 2>&1 && maglev=--maglev

run=$live_tmp/run
mkdir "$run"
cp "$live_top/examples/node/warmup.js" "$run/"
data=$run/perf.data
# node writes jit-PID.dump into its working directory. Extra CA
# certificates would make node's startup (not the workload) longer.
(unset NODE_EXTRA_CA_CERTS NODE_OPTIONS; cd "$run" &&
	live_record "$data" "$NODE" --perf-prof --interpreted-frames-native-stack \
	--interrupt-budget-factor-for-feedback-allocation=6000 \
	--no-concurrent-recompilation $maglev warmup.js "${TIERS_ROUNDS:-600000}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"
pid=$(basename "$(ls "$run"/jit-*.dump | head -n 1)" .dump)
pid=${pid#jit-}
trap 'rm -f "/tmp/perf-$pid.map"; live_on_exit $?' EXIT
live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$data.stderr" | tail -n 1)

tiers_run "$data" "$pid"
live_say "series: $(tiers_series)"
tiers_expect_falling interpreted
for tier in Ignition Sparkplug TurboFan; do
	tiers_seen "$tier" || live_fail "no $tier samples"
done
if tiers_seen Maglev; then
	live_say "Maglev seen"
else
	live_say "no Maglev samples (node $("$NODE" --version) ${maglev:-without --maglev})"
fi
# the interpreted code node runs at exit falls in the partial last
# interval, which the warm-up point leaves out: every run has one
tiers_expect_warm
live_say "warm after: $tiers_warm s; interpreted innermost: $(tiers_innermost)% of the samples"
live_finish
