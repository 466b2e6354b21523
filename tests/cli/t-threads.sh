#!/bin/sh
# --threads changes nothing but the time: every command, on a recording
# large enough to fill many of the batches handed between threads
# (src/session/handoff.c) and many chunks of output (src/common/async-out.c), writes the
# same bytes to stdout and stderr and exits the same with --threads 2 (and
# 3, taken as 2) as with --threads 1. The recording renames threads, execs,
# reuses a pid, and has two events, JIT code from a jitdump (loaded as the
# samples go) and from perf maps, so that a thread which saw the session's
# state later than the sample would print something else. It is also read
# from a pipe, compressed, cut short at several places (damage: the same
# output, message and exit status), and written to a full disk.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

P1=7000001 P2=7000002 P3=7000003 NR_SAMPLES=${NR_SAMPLES:-20000}
mkdir "$tmp/maps"
# (awk prints no number past 2^31 with %d or %x everywhere: addresses are
# a fixed prefix and an offset, times go through %.0f)
# perf maps: 300 functions each, 256 bytes apart from 0x7f0000100000
for pid in $P1 $P2 $P3; do
	awk -v pid="$pid" 'BEGIN { for (i = 0; i < 300; i++)
		printf "7f00%08x 100 JS:~fn_%d_%d /app/m%d.js:%d\n", 1048576 + i * 256, pid, i, i % 7, i }' \
		>"$tmp/maps/perf-$pid.map"
done
# P1's jitdump: 200 functions loaded at 0x7f0000200000 as the samples go, some loaded over
awk -v pid="$P1" 'BEGIN { printf "header pid=%d timestamp=9000000000\n", pid
	for (i = 0; i < 400; i++)
		printf "load time=%.0f addr=0x7f00%08x size=0x100 name=\"JS:*opt_%d /app/o.js:%d:1\"\n",
			9000000000 + i * 2500000, 2097152 + (i % 200) * 256, i, i }' >"$tmp/jit-$P1.jdspec"
"$MKJITDUMP" "$tmp/jit-$P1.jdspec" "$tmp/jit-$P1.dump" || { echo "mkjitdump failed"; exit 99; }

# The recording: NR_SAMPLES samples of 1 to 30 frames on three processes
# and their threads, with a COMM rename every 250 samples, an exec of P2
# every 3000, P3 ending (all its threads) and its pid reused every 2000,
# rounds of 100.
awk -v n="$NR_SAMPLES" -v p1="$P1" -v p2="$P2" -v p3="$P3" '
# a sideband record of pid/tid at the next time
function rec(what, pid, tid, rest) {
	printf "%s id=101 pid=%d tid=%d %s time=%.0f cpu=0\n", what, pid, tid, rest, t++
}
# a user address: a perf-map function, a jitdump one, or none
function addr(k, r) {
	if (r < 0.4 && k == 0)
		return sprintf("0x7f00%08x", 2097152 + int(rand() * 200) * 256 + 16)
	if (r < 0.9)
		return sprintf("0x7f00%08x", 1048576 + int(rand() * 300) * 256 + 16)
	return sprintf("0x7f00%08x", 15728640 + int(rand() * 64) * 16)
}
BEGIN {
	srand(42)
	print "feature hostname threads"
	print "feature osrelease 6.1.0-test"
	print "feature arch x86_64"
	print "feature nrcpus 2 2"
	common = "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN sample_id_all=1 use_clockid=1 clockid=1"
	print "attr name=cycles type=0 config=0 sample_period=100000 " common \
		" mmap=1 comm=1 task=1 mmap2=1 comm_exec=1 ids=101"
	print "attr name=instructions type=0 config=1 sample_period=200000 " common " ids=201"
	anon = "start=0x7f0000000000 len=0x1000000 pgoff=0 prot=7 flags=0x22 filename=//anon"
	t = 9000000000
	pids[0] = p1; pids[1] = p2; pids[2] = p3
	for (k = 0; k < 3; k++) {
		rec("comm", pids[k], pids[k], "comm=app" k " exec=1")
		rec("mmap2", pids[k], pids[k], anon)
	}
	rec("mmap2", p1, p1, "start=0x7ffff7ff0000 len=0x1000 pgoff=0 maj=8 min=1 ino=7 prot=5 " \
		"flags=2 filename=/work/run/jit-" p1 ".dump")
	for (i = 0; i < n; i++) {
		t += 1000000
		k = int(rand() * 3); p = pids[k]
		tid = p + int(rand() * 4) * 100
		if (i % 250 == 249)
			rec("comm", p, tid, "comm=t" i "_" k " exec=0")
		if (i % 3000 == 2999)
			rec("comm", p2, p2, "comm=exec" i " exec=1")
		if (i % 2000 == 1999) {
			for (j = 3; j >= 0; j--)
				rec("exit", p3, p3 + j * 100, "ppid=1 ptid=1")
			rec("fork", p3, p3, "ppid=" p1 " ptid=" p1)
			rec("comm", p3, p3, "comm=reuse" i " exec=1")
			rec("mmap2", p3, p3, anon)
		}
		chain = ""
		if (rand() < 0.2)
			chain = sprintf("kernel:0xffffffff81%06x,", int(rand() * 4096) * 16)
		d = 1 + int(rand() * 30)
		for (j = 0; j < d; j++) {
			a = addr(k, rand())
			chain = chain (j ? "," : "user:") a
			if (j == 0)
				ip = a
		}
		id = rand() < 0.2 ? 201 : 101
		printf "sample id=%d pid=%d tid=%d time=%.0f cpu=%d period=%d ip=%s callchain=%s\n",
			id, p, tid, t, i % 2, id == 101 ? 100000 : 200000, ip, chain
		if (i % 100 == 99)
			print "finished_round"
	}
}' >"$tmp/rec.spec"
"$MKPERF" "$tmp/rec.spec" "$tmp/rec.data" &&
"$MKPERF" --pipe "$tmp/rec.spec" "$tmp/rec.pipe" &&
"$MKPERF" --compress "$tmp/rec.spec" "$tmp/rec.zst.data" || { echo "mkperf failed"; exit 99; }
size=$(wc -c <"$tmp/rec.data")
for cut in 3 20 50 81 97; do
	head -c $((size * cut / 100)) "$tmp/rec.data" >"$tmp/cut$cut.data"
done
zsize=$(wc -c <"$tmp/rec.zst.data")
head -c $((zsize * 2 / 3)) "$tmp/rec.zst.data" >"$tmp/cutz.data"

# run N NAME INPUT CMD ARGS...: jitsym with --threads N into $tmp/NAME.N.{out,err,exit}
run() {
	n=$1 name=$2 input=$3 cmd=$4
	shift 4
	if [ "$input" = - ]; then
		${JITSYM_WRAPPER:-} "$JITSYM" "$cmd" --threads "$n" --kallsyms /dev/null \
			--perfmap-dir maps "$@" - <rec.pipe >"$tmp/$name.$n.out" 2>"$tmp/$name.$n.err"
	else
		${JITSYM_WRAPPER:-} "$JITSYM" "$cmd" --threads "$n" --kallsyms /dev/null \
			--perfmap-dir maps "$@" "$input" >"$tmp/$name.$n.out" 2>"$tmp/$name.$n.err"
	fi
	echo $? >"$tmp/$name.$n.exit"
}

# same NAME INPUT CMD ARGS...: --threads 2 and 3 give what --threads 1 gives
same() {
	name=$1
	run 1 "$@"
	for n in 2 3; do
		run $n "$@"
		for f in out err exit; do
			if ! cmp -s "$tmp/$name.1.$f" "$tmp/$name.$n.$f"; then
				bad "$name: --threads $n: $f differs from --threads 1"
				diff "$tmp/$name.1.$f" "$tmp/$name.$n.$f" | head -5 | sed 's/^/#   /'
				return
			fi
		done
	done
	ok "$name ($(wc -c <"$tmp/$name.1.out") bytes, exit $(cat "$tmp/$name.1.exit"))"
}

cd "$tmp" || exit 99
for cmd in fold flamegraph script report sources tiers; do
	same "$cmd" rec.data $cmd
done
same fold-tid-annotate rec.data fold --include-tid --annotate
same fold-period rec.data fold --event instructions --weight=period
same fold-comm rec.data fold --comm app0,app1
same report-lines rec.data report --source-lines
same report-self rec.data report --no-children --sort=self
same tiers-json rec.data tiers --by thread --format=json
same tiers-svg rec.data tiers --format=svg
same script-fields rec.data script -F comm,tid,pid,time,event,ip,sym
# pprof is binary: to a file each, compared after; with every label too
# (the comm as it was at the sample, per-thread state kept by thread_id)
for labels in "" pid,tid,comm,category,tier; do
	for n in 1 2; do
		${JITSYM_WRAPPER:-} "$JITSYM" pprof --threads $n --kallsyms /dev/null \
			--perfmap-dir maps ${labels:+--labels $labels} \
			-o "pprof.$n" rec.data 2>"pprof.$n.err" || bad "pprof --threads $n failed"
	done
	if cmp -s pprof.1 pprof.2 && cmp -s pprof.1.err pprof.2.err; then
		ok "pprof ${labels:+--labels $labels }($(wc -c <pprof.1) bytes)"
	else
		bad "pprof ${labels:+--labels $labels }: --threads 2 differs from --threads 1"
	fi
done

for cmd in fold script; do
	same "$cmd-pipe" - $cmd
	same "$cmd-compressed" rec.zst.data $cmd
	same "$cmd-cut-compressed" cutz.data $cmd
	for cut in 3 20 50 81 97; do
		same "$cmd-cut$cut" cut$cut.data $cmd
	done
done
for cmd in flamegraph report tiers sources; do
	same "$cmd-cut50" cut50.data $cmd
done

# a full disk: the same one line and exit status 3
if [ -w /dev/full ]; then
	for cmd in fold script flamegraph; do
		same "$cmd-full" rec.data $cmd -o /dev/full
		if [ "$(cat "$tmp/$cmd-full.1.exit")" != 3 ]; then
			bad "$cmd-full: exit $(cat "$tmp/$cmd-full.1.exit"), expected 3"
		fi
	done
fi
exit $fail
