#!/bin/sh
# t-deep-stacks.sh: the deepest call chains a perf record can hold. A
# record's size is a u16, so a sample with IP, TID, TIME, PERIOD and a
# callchain holds at most 8185 entries (a chain claiming 65535 cannot be
# in a record; t-limits checks that such a claim is skipped). Samples of
# 8184 frames (plus the user context marker) in cycles fa->fb->fc->fa...
# and in plain recursion (fr->fr->...), 20 of each: every command
# finishes, and fold, script and report count every frame; flamegraph
# and pprof write complete files.
set -u
. "$(dirname "$0")/lib.sh"
N=8184
awk -v n=$N 'BEGIN {
	print "attr type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD sample_period=1 mmap=1 comm=1 task=1 mmap2=1"
	print "comm pid=100 tid=100 comm=prog exec=1"
	print "mmap2 pid=100 tid=100 start=0x10000 len=0x10000 prot=7 flags=0x22 filename=//anon"
	for (s = 0; s < 40; s++) {
		line = "sample pid=100 tid=100 time=" (1000 + s) " period=1 ip="
		chain = ""
		for (i = 0; i < n; i++) {
			# decimal addresses keep the line under mkperf'"'"'s 64 KiB
			a = s < 20 ? 65536 + 256 * ((i + s) % 3) + 16 : 65536 + 768 + 16
			chain = chain (i ? "," : "") a
			if (!i)
				first = a
		}
		print line first " callchain=user:" chain
	}
}' >"$tmp/deep.spec"
printf '10000 100 fa\n10100 100 fb\n10200 100 fc\n10300 100 fr\n' >"$tmp/perf-100.map"
"$MKPERF" "$tmp/deep.spec" "$tmp/deep.data" || exit 99
cd "$tmp" || exit 99
j() { ${JITSYM_WRAPPER:-} "$JITSYM" "$@" -q --kallsyms /dev/null deep.data; }

j fold >fold.out; rc=$?
[ $rc -eq 0 ] && ok "fold: exit 0" || bad "fold: exit $rc"
awk -v n=$N -F';' '{ if (NF != n + 1) bad++; sub(/.* /, "", $NF); c += $NF }
	END { exit !(NR == 4 && !bad && c == 40) }' fold.out &&
	ok "fold: 4 stacks of $N frames, 40 samples" || { bad "fold: wrong stacks"; cut -c1-200 fold.out; }
grep -q '^prog;fr;fr;fr;' fold.out && ok "fold: the recursion folds as fr;fr;..." || bad "fold: no recursion line"

j script >script.out; rc=$?
[ $rc -eq 0 ] && ok "script: exit 0" || bad "script: exit $rc"
frames=$(grep -c -E ' f[abcr]\+0x10 \(.*/perf-100\.map\)$' script.out)
[ "$frames" -eq $((40 * N)) ] && ok "script: $frames frames" || bad "script: $frames frames, expected $((40 * N))"

j report >report.out; rc=$?
[ $rc -eq 0 ] && ok "report: exit 0" || bad "report: exit $rc"
# every cyclic sample passes through fa, fb and fc: 50% children each
for f in fa fb fc fr; do
	grep -q -E '^ *50\.00% .* '$f'$' report.out && ok "report: $f in 50% of samples" ||
		{ bad "report: $f not at 50%"; cat report.out; }
done

j flamegraph -o fg.svg; rc=$?
[ $rc -eq 0 ] && tail -c 10 fg.svg | grep -q '</svg>' && ok "flamegraph: a complete file" ||
	bad "flamegraph: exit $rc or cut short"
# three rotations of the cycle and the recursion, N frames each, plus the process and root
g=$(grep -c '^<g class="f' fg.svg)
[ "$g" -eq $((4 * N + 2)) ] && ok "flamegraph: $g frames" || bad "flamegraph: $g frames, expected $((4 * N + 2))"

j pprof -o p.pb.gz; rc=$?
[ $rc -eq 0 ] && gzip -t p.pb.gz && ok "pprof: a complete file" || bad "pprof: exit $rc or corrupt"
if [ -x "$abs_top_builddir/tests/tools/pprof-dump" ]; then
	"$abs_top_builddir/tests/tools/pprof-dump" p.pb.gz >p.txt 2>&1 && ok "pprof-dump reads it" ||
		{ bad "pprof-dump rejects it"; head p.txt; }
fi
exit $fail
