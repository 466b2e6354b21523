#!/bin/sh
# t-tiers-php.sh: record php8.2 with opcache's tracing JIT and its perf map
# (opcache.jit=tracing, opcache.jit_debug=0x10: /tmp/perf-PID.map, removed
# afterwards) running a warming workload written below: first a loop in
# a function defined by eval() (eval'd code is not in opcache's shared
# memory, so the JIT never compiles it: the Zend VM runs it), then a loop
# in the script's own functions, which the tracing JIT compiles after a
# few dozen iterations. Checks of "jitsym tiers" (issue 21):
#  - the interpreter (Zend VM: execute_ex, ZEND_*_HANDLER) and the JIT's
#    traces (trace JIT, "TRACE-N$func$line") are both seen;
#  - every sample whose leaf is the JIT's code (TRACE-…, JIT$…, JIT$$…
#    stubs, jit$$… exit stubs in jitsym fold) is in the trace JIT,
#    function JIT or stub series, and every execute_ex/ZEND_*_HANDLER
#    leaf in the Zend VM series: equal counts, none left without a tier;
#  - the interpreted share of the first tenth of the intervals is above
#    the last tenth's, and the run has a plausible warm-up point
#    (tiers_expect_warm);
#  - interval totals as in tiers-lib.sh.
# Skips (77) when perf cannot record, php8.2 is missing or has no opcache
# JIT (Debian packages php8.2-cli php8.2-opcache; scripts/setup.sh
# installs them).
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init tiers-php
live_require_perf
live_find_jitsym
PHP=${PHP:-php8.2}
command -v "$PHP" >/dev/null 2>&1 || live_skip "no '$PHP' (Debian packages 'php8.2-cli php8.2-opcache')"
php_opts="-d opcache.enable_cli=1 -d opcache.file_update_protection=0 -d opcache.jit=tracing
	-d opcache.jit_buffer_size=16M"
# shellcheck disable=SC2086
[ "$("$PHP" $php_opts -r 'echo (opcache_get_status()["jit"]["on"] ?? false) ? "on" : "off";' 2>/dev/null)" = on ] ||
	live_skip "'$PHP' has no opcache JIT (Debian package 'php8.2-opcache')"

run=$live_tmp/run
mkdir "$run"
cat >"$run/warmup.php" <<'EOF'
<?php
// eval'd code is not in opcache's shared memory: the JIT never compiles it
eval('function slow($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s = ($s * 31 + $i) % 1000003; } return $s; }');
function stage($x) { return ($x * 31 + 7) % 1000003; }
function run($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s = stage($s + $i); } return $s; }
$rounds = (int)($argv[1] ?? 300);
$t = 0;
for ($r = 0; $r < $rounds; $r++) { $t += slow(20000); }
for ($r = 0; $r < 20 * $rounds; $r++) { $t += run(5000); }
echo $t, "\n";
EOF
data=$run/perf.data
pids=
# shellcheck disable=SC2154 # p: the trap's own loop variable
trap 'for p in $pids; do rm -f "/tmp/perf-$p.map"; done; live_on_exit $?' EXIT
# shellcheck disable=SC2086
(cd "$run" && live_record "$data" "$PHP" $php_opts -d opcache.jit_debug=0x10 warmup.php \
	"${TIERS_ROUNDS:-1000}")
pid=$(tiers_main_pid "$data")
[ -n "$pid" ] || live_hard_error "no samples in $data"
pids=$pid
[ -s "/tmp/perf-$pid.map" ] || live_hard_error "php wrote no /tmp/perf-$pid.map"
live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$data.stderr" | tail -n 1)

tiers_run "$data" "$pid"
live_say "series: $(tiers_series)"
tiers_seen "Zend VM" || live_fail "no Zend VM (interpreter) samples"
tiers_seen "trace JIT" || live_fail "no trace JIT samples"
if tiers_seen stub; then
	live_say "PHP JIT stubs seen"
else
	live_say "no samples in the JIT's stubs"
fi
tiers_expect_falling interpreted
tiers_expect_warm

# the leaves of jitsym fold against the series of the CSV
live_jitsym fold "$data" >"$live_tmp/fold.txt" 2>/dev/null || live_fail "jitsym fold failed"
awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";")
	if (f[k] ~ /^(TRACE-|JIT\$|jit\$\$)/) j += n
	else if (f[k] == "execute_ex" || f[k] ~ /^ZEND_.*_HANDLER$/) v += n }
	END { print j + 0, v + 0 }' "$live_tmp/fold.txt" >"$live_tmp/fold.sums"
read -r fold_jit fold_vm <"$live_tmp/fold.sums"
csv_jit=$(awk -F, -v pid="$pid" '$3 == pid && ($7 == "trace JIT" || $7 == "function JIT" || $7 == "stub") { n += $8 }
	END { print n + 0 }' "$tiers_csv")
csv_vm=$(awk -F, -v pid="$pid" '$3 == pid && $7 == "Zend VM" { n += $8 } END { print n + 0 }' "$tiers_csv")
live_say "JIT code leaves: jitsym fold $fold_jit samples, trace/function JIT + stubs $csv_jit;" \
	"VM leaves: fold $fold_vm, Zend VM $csv_vm"
[ "$fold_jit" -gt 0 ] || live_fail "no samples in the JIT's code in jitsym fold"
[ "$fold_jit" -eq "$csv_jit" ] || live_fail "JIT code leaves: fold $fold_jit, tiers $csv_jit"
[ "$fold_vm" -eq "$csv_vm" ] || live_fail "Zend VM leaves: fold $fold_vm, tiers $csv_vm"
live_finish
