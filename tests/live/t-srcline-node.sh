#!/bin/sh
# t-srcline-node.sh: record node running a main script whose hot loop
# TurboFan inlines a module's small functions (another script), under
#   node --perf-prof --interpreted-frames-native-stack
# and check that no source line jitsym reports (report --source-lines,
# script -F srcline, pprof's Lines) lies outside the file it names: the
# line is at most the file's last, the column at most one past the line's
# last byte. Node v20 names an inlined function's lines with its caller's
# script, or with bytes from freed memory; such lines must not be shown
# under the caller's file (issue 21); 'JS:*hot' must have samples (else
# the test skips: nothing was checked). The module's functions sit below a
# block of comments, at lines the main script does not have, so any line
# of theirs put under main.js is out of it.
# Skips (77) when perf cannot record or node is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init srcline-node
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"

run=$live_tmp/run
mkdir "$run"
{
	echo "'use strict';"
	i=0
	while [ $i -lt 30 ]; do
		echo "// the functions below are at lines main.js does not have"
		i=$((i + 1))
	done
	echo "function sq(x) { return (x * x) % 1000003; }"
	echo "function mix(a, b) { return ((a ^ (b << 3)) + sq(b)) | 0; }"
	echo "module.exports = { sq, mix };"
} >"$run/mod.js"
cat >"$run/main.js" <<'EOF'
'use strict';
const { sq, mix } = require('./mod.js');
function hot(n) {
	let s = 0;
	for (let i = 0; i < n; i++) s = mix(s, sq(i) + i);
	return s;
}
const end = Date.now() + 1000 * Number(process.argv[2]);
let t = 0;
while (Date.now() < end) t += hot(100000);
console.log(t & 1);
EOF
data=$run/perf.data
# node writes jit-PID.dump into its working directory
(cd "$run" && live_record "$data" "$NODE" --perf-prof \
	--interpreted-frames-native-stack main.js "${LIVE_SECONDS:-2}")
ls "$run"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $run"

live_jitsym report --source-lines --full-paths "$data" >"$live_tmp/report.txt" \
	2>"$live_tmp/report.err"
live_jitsym script -F comm,tid,ip,sym,srcline "$data" >"$live_tmp/script.txt" 2>/dev/null
live_jitsym pprof -o "$live_tmp/p.pb.gz" "$data" 2>/dev/null
DUMP=${PPROF_DUMP:-$abs_top_builddir/tests/tools/pprof-dump}
[ -x "$DUMP" ] || live_hard_error "no '$DUMP' (make tests/tools/pprof-dump)"
"$DUMP" "$live_tmp/p.pb.gz" >"$live_tmp/pprof.txt"

# "FILE LINE COLUMN" (column 0: none) of each source line of run's scripts
{
	# report: a source row is "PERCENT PATH:LINE[:COLUMN]"
	awk 'NF == 2 && $1 ~ /%$/ { print $2 }' "$live_tmp/report.txt"
	# script: "  BASENAME:LINE" under a frame
	awk 'NF == 1 && $1 ~ /^(main|mod)\.js:[0-9]+$/ { print "'"$run"'/" $1 }' \
		"$live_tmp/script.txt"
	# pprof-dump: a location's lines follow its name, "PATH:LINE[:COLUMN]"
	awk '$1 ~ /^0x/ && $2 ~ /^m[0-9]+$/ && NF >= 5 { print $NF }' "$live_tmp/pprof.txt"
} | sed -n "s|^\\($run/[a-z]*\\.js\\):\\([0-9]*\\)\\(:\\([0-9]*\\)\\)\\{0,1\\}\$|\\1 \\2 \\4|p" |
	awk 'NF == 2 { $3 = 0 } { print $1, $2, $3 }' | sort | uniq -c >"$live_tmp/lines.txt"

checked=0
bad=0
while read -r n file line col; do
	checked=$((checked + n))
	# LC_ALL=C (tests/setup.sh, lib.sh): length() counts bytes
	verdict=$(awk -v l="$line" -v c="$col" '
		NR == l { len = length($0) }
		END {
			last = NR + 1        # the empty line after the last LF
			if (l < 1 || l > last) { print "line " l " of " NR; exit }
			if (l == last) len = 0
			if (c > len + 1) print "column " c " of a line of " len
		}' "$file")
	if [ -n "$verdict" ]; then
		live_say "outside ${file#"$run"/}: $line:$col ($verdict; $n times)"
		bad=$((bad + n))
	fi
done <"$live_tmp/lines.txt"
live_say "$checked source lines of main.js and mod.js checked, $bad outside their file"
# Not vacuous: TurboFan's hot (which inlines mod.js) was sampled. Its lines
# may all be gone: Node v20 sometimes names every entry from freed memory.
grep -q "JS:\*hot $run/main.js:" "$live_tmp/report.txt" ||
	live_skip "TurboFan's 'JS:*hot' took no sample in ${LIVE_SECONDS:-2} s (raise LIVE_SECONDS)"
[ "$bad" -eq 0 ] || live_fail "$bad source lines lie outside the file they name"
live_finish
