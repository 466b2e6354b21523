#!/bin/sh
# t-tiers-wasm.sh: record node running a small WebAssembly module (its
# bytes written out below, so that no wabt is needed: one exported
# function, spin(n), a loop of i32 arithmetic) under --perf-prof and check
# that "jitsym tiers" puts V8's wasm code in its tiers (issue 21):
#  - Liftoff (baseline JIT) and wasm TurboFan (optimizing JIT) are both
#    seen: --wasm-tiering-budget is raised so that Liftoff runs long enough
#    to be sampled before V8 tiers the function up (the budget counts the
#    code run, not time);
#  - every sample whose leaf is wasm code ("…-liftoff", "…-turbofan" in
#    jitsym fold) is in the Liftoff or wasm TurboFan series: equal counts,
#    none left as "JIT" without a tier;
#  - interval totals as in tiers-lib.sh.
# Skips (77) when perf cannot record or node is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init tiers-wasm
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"
"$NODE" -e 'process.exit(typeof WebAssembly === "object" ? 0 : 1)' >/dev/null 2>&1 ||
	live_skip "'$NODE' has no WebAssembly"

run=$live_tmp/run
mkdir "$run"
# spin(n): s = ((s + i*i) ^ 7) for i in [0, n); the module's bytes by hand
cat >"$run/wasm.js" <<'EOF'
const body = [0x01, 0x02, 0x7f,                         // locals: i, s (i32)
  0x02, 0x40, 0x03, 0x40,                               // block, loop
  0x20, 0x01, 0x20, 0x00, 0x4e, 0x0d, 0x01,             // br_if out when i >= n
  0x20, 0x02, 0x20, 0x01, 0x20, 0x01, 0x6c, 0x6a,       // s + i*i
  0x41, 0x07, 0x73, 0x21, 0x02,                         // ^ 7 -> s
  0x20, 0x01, 0x41, 0x01, 0x6a, 0x21, 0x01,             // i + 1 -> i
  0x0c, 0x00, 0x0b, 0x0b, 0x20, 0x02, 0x0b];            // br loop; end; end; s
const bytes = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,       // type (i32) -> i32
  0x03, 0x02, 0x01, 0x00,                               // one function
  0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00,   // export "spin"
  0x0a, body.length + 2, 0x01, body.length, ...body]);
const spin = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.spin;
let t = 0;
const rounds = +(process.argv[2] || 50000);
for (let r = 0; r < rounds; r++) t ^= spin(20000);
console.log(t);
EOF
data=$run/perf.data
(unset NODE_EXTRA_CA_CERTS NODE_OPTIONS; cd "$run" &&
	live_record "$data" "$NODE" --perf-prof --wasm-tiering-budget=300000000 wasm.js \
	"${TIERS_ROUNDS:-50000}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"
pid=$(basename "$(find "$run" -name 'jit-*.dump' | head -n 1)" .dump)
pid=${pid#jit-}
live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$data.stderr" | tail -n 1)

tiers_run "$data" "$pid"
live_say "series: $(tiers_series)"
tiers_seen Liftoff || live_fail "no Liftoff samples"
tiers_seen "wasm TurboFan" || live_fail "no wasm TurboFan samples"
# the wasm leaves of jitsym fold against the two series of the CSV
live_jitsym fold "$data" >"$live_tmp/fold.txt" 2>/dev/null || live_fail "jitsym fold failed"
fold_wasm=$(awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";")
	if (f[k] ~ /-(liftoff|turbofan)$/) w += n } END { print w + 0 }' "$live_tmp/fold.txt")
csv_wasm=$(awk -F, -v pid="$pid" '$3 == pid && ($7 == "Liftoff" || $7 == "wasm TurboFan") { n += $8 }
	END { print n + 0 }' "$tiers_csv")
live_say "wasm leaves: jitsym fold $fold_wasm samples, Liftoff + wasm TurboFan $csv_wasm"
[ "$fold_wasm" -gt 0 ] || live_fail "no samples in wasm code (…-liftoff, …-turbofan) in jitsym fold"
[ "$fold_wasm" -eq "$csv_wasm" ] ||
	live_fail "wasm leaves: $fold_wasm samples in jitsym fold, $csv_wasm in the Liftoff and wasm TurboFan series"
live_finish
