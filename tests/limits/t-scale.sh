#!/bin/sh
# t-scale.sh: a million of everything finishes, with the right answers:
#   - 1 M threads (FORK + COMM each) of one process;
#   - 1 M MMAP2 records into one process, non-overlapping, in scattered
#     address order (each insert lands in the middle of the map);
#   - 1 M MMAP2 records that overlap: a first half of two-page maps on the
#     even pages, then a second half on the odd pages, each cutting the
#     tail of one map and the head of the next;
#   - a perf map of 1 M lines in scattered order.
# No timing is asserted (a loaded machine must not fail it); a hang guard
# (SCALE_TIMEOUT seconds per run, default 900) stops a run that would
# never end. SCALE_N changes the size (default 1000000, or 250000 when
# jitsym is built with sanitizers, JITSYM_SAN, to keep that run short).
set -u
. "$(dirname "$0")/lib.sh"
N=1000000
[ -n "${JITSYM_SAN:-}" ] && N=250000
N=${SCALE_N:-$N}
echo "# $N of each"
TMO=${SCALE_TIMEOUT:-900}
guard=
command -v timeout >/dev/null 2>&1 && guard="timeout $TMO"
cd "$tmp" || exit 99
j() { $guard ${JITSYM_WRAPPER:-} "$JITSYM" "$@"; }
ATTR="attr type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD sample_period=1 mmap=1 comm=1 task=1 mmap2=1"
STEP=$((N / 1000))
# a stride coprime with N visits every index once, far from in order
STRIDE=7919

# ---- threads: thread i is tid 1000+i named t<i>; a sample every STEP threads
awk -v n=$N -v step=$STEP -v attr="$ATTR" 'BEGIN {
	print attr
	print "comm pid=100 tid=100 comm=prog exec=1"
	print "mmap2 pid=100 tid=100 start=0x10000 len=0x10000 prot=7 flags=0x22 filename=//anon"
	for (i = 0; i < n; i++)
		printf "fork pid=100 ppid=100 tid=%d ptid=100\ncomm pid=100 tid=%d comm=t%d\n", 1000 + i, 1000 + i, i
	for (i = 0; i < n; i += step)
		printf "sample pid=100 tid=%d time=3000 ip=0x10010 callchain=user:0x10010\n", 1000 + i
}' >s.spec && "$MKPERF" s.spec threads.data || exit 99
j fold -q --include-tid threads.data >threads.out; rc=$?
[ $rc -eq 0 ] && ok "threads: exit 0" || bad "threads: exit $rc"
awk -v n=$N -v step=$STEP '{ split($1, a, "[-/;]"); if (a[1] != "t" (a[3] - 1000) || a[2] != 100) b++ }
	END { exit !(NR == n / step && !b) }' threads.out &&
	ok "threads: $((N / STEP)) sampled threads, each with its own name" ||
	{ bad "threads: wrong names"; head -3 threads.out; }

# Addresses pass 2^31: awk prints them with %.0f (mawk's %d and %x stop there).
# ---- mmaps: page k holds /m/f<k%100>.so (pgoff (k%4099)*0x1000); a sample every STEP pages
awk -v n=$N -v step=$STEP -v stride=$STRIDE -v attr="$ATTR" 'BEGIN {
	print attr
	print "comm pid=100 tid=100 comm=prog exec=1"
	for (i = 0; i < n; i++) {
		k = (i * stride) % n
		printf "mmap2 pid=100 tid=100 start=%.0f len=4096 pgoff=%d prot=5 flags=2 filename=/m/f%d.so\n", 1048576 + k * 4096, (k % 4099) * 4096, k % 100
	}
	for (k = 0; k < n; k += step)
		printf "sample pid=100 tid=100 time=%d ip=%.0f callchain=user:%.0f\n", 3000 + k, 1048576 + k * 4096 + 16, 1048576 + k * 4096 + 16
}' >s.spec && "$MKPERF" s.spec mmap.data || exit 99
j script -q --kallsyms /dev/null mmap.data >mmap.out; rc=$?
[ $rc -eq 0 ] && ok "mmap: exit 0" || bad "mmap: exit $rc"
# each frame: ADDR (file offset) [unknown] (DSO)
awk -v step=$STEP '/\(\/m\// { k = i * step; i++
		if ($3 != "(/m/f" (k % 100) ".so)" || $1 != sprintf("%x", (k % 4099) * 4096 + 16)) b++ }
	END { exit !(i == 1000 && !b) }' mmap.out &&
	ok "mmap: 1000 samples, each in its own mapping at its offset" ||
	{ bad "mmap: wrong mappings"; grep '/m/' mmap.out | head -3; }

# ---- overlapping: a<j> on pages 2j..2j+1, then b<j> on pages 2j+1..2j+2;
# page 0 stays a0's, page 2j+1 is b<j>'s first page, page 2j+2 its second
H=$((N / 2))
awk -v h=$H -v step=$STEP -v stride=$STRIDE -v attr="$ATTR" 'BEGIN {
	print attr
	print "comm pid=100 tid=100 comm=prog exec=1"
	for (p = 0; p < 2; p++)
		for (i = 0; i < h; i++) {
			k = (i * stride) % h
			printf "mmap2 pid=100 tid=100 start=%.0f len=8192 pgoff=0 prot=5 flags=2 filename=/m/%s%d.so\n", 1048576 + (2 * k + p) * 4096, p ? "b" : "a", k
		}
	for (q = 0; q < 2 * h; q += step)
		printf "sample pid=100 tid=100 time=%d ip=%.0f callchain=user:%.0f\n", 3000 + q, 1048576 + q * 4096 + 16, 1048576 + q * 4096 + 16
}' >s.spec && "$MKPERF" s.spec mmapov.data || exit 99
j script -q --kallsyms /dev/null mmapov.data >mmapov.out; rc=$?
[ $rc -eq 0 ] && ok "overlapping mmap: exit 0" || bad "overlapping mmap: exit $rc"
awk -v step=$STEP '/\(\/m\// { q = i * step; i++
		if (q == 0) { want = "(/m/a0.so)"; off = 16 }
		else if (q % 2) { want = "(/m/b" (q - 1) / 2 ".so)"; off = 16 }
		else { want = "(/m/b" (q / 2 - 1) ".so)"; off = 4096 + 16 }
		if ($3 != want || $1 != sprintf("%x", off)) { b++; if (b < 4) print "# page " q ": " $0 " want " want }
	}
	END { exit !(i == 1000 && !b) }' mmapov.out &&
	ok "overlapping mmap: each page belongs to the last map over it, at the right offset" ||
	bad "overlapping mmap: wrong mappings"

# ---- perf map: symbol s<k> at 0x10000000 + 16k, lines in scattered order
awk -v n=$N -v stride=$STRIDE 'BEGIN {
	for (i = 0; i < n; i++) { k = (i * stride) % n; printf "%x 10 s%d\n", 268435456 + k * 16, k }
}' >perf-100.map
awk -v n=$N -v step=$STEP -v attr="$ATTR" 'BEGIN {
	print attr
	print "comm pid=100 tid=100 comm=prog exec=1"
	print "mmap2 pid=100 tid=100 start=0x10000000 len=0x10000000 prot=7 flags=0x22 filename=//anon"
	for (k = 0; k < n; k += step)
		printf "sample pid=100 tid=100 time=%d ip=%d callchain=user:%d\n", 3000 + k, 268435456 + k * 16 + 4, 268435456 + k * 16 + 4
}' >s.spec && "$MKPERF" s.spec pm.data || exit 99
j script -q --kallsyms /dev/null pm.data >pm.out; rc=$?
[ $rc -eq 0 ] && ok "perf map: exit 0" || bad "perf map: exit $rc"
awk -v step=$STEP '/perf-100\.map/ { k = i * step; i++; if ($2 != "s" k "+0x4") b++ }
	END { exit !(i == 1000 && !b) }' pm.out &&
	ok "perf map: 1000 samples, each on its own symbol" ||
	{ bad "perf map: wrong symbols"; grep perf-100 pm.out | head -3; }
exit $fail
