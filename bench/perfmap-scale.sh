#!/bin/sh
# perfmap-scale.sh JITSYM DIR [LINES...]: time jitsym fold on QEMU-like perf
# maps (QEMU writes one line per guest instruction). For each LINES
# (default 1000000 2000000), DIR/mLINES gets perf-100.map, LINES lines of
# 2-40 bytes of host code each, names "func_K+0xOFF" or "guest-0xADDR",
# the code buffer restarted near its base every LINES/4 lines (so later
# lines cover earlier ones), and perf.data, 20000 samples into it, call
# depth 1-3. Prints wall, user, sys and peak RSS of three runs of each.
# Needs perl, GNU time and tests/tools/mkperf (built beside JITSYM).
set -eu
jitsym=$1 dir=$2; shift 2
mkperf=$(cd "$(dirname "$jitsym")" && pwd)/tests/tools/mkperf
for n in ${*:-1000000 2000000}; do
	d=$dir/m$n
	mkdir -p "$d"
	(cd "$d" && perl -e '
		my ($n) = @ARGV; srand(7);
		my $base = 0x7f0000000000; my ($a, $top, $q) = ($base, $base, int($n / 4));
		open(my $m, ">", "perf-100.map") or die;
		for my $i (0 .. $n - 1) {
			$a = $base + int($i / $q) * 64 if $i && $i % $q == 0;
			my $sz = 2 + int(rand(39));
			if ($i % 5) { printf $m "%x %x func_%d+0x%x\n", $a, $sz, int($i / 13), ($i % 13) * 4 }
			else { printf $m "%x %x guest-0x%x\n", $a, $sz, 0x400000 + $i * 4 }
			$a += $sz; $top = $a if $a > $top;
		}
		close($m);
		my $span = $top - $base;
		open(my $s, ">", "s.spec") or die;
		print $s "attr type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD sample_period=1 mmap=1 comm=1 task=1 mmap2=1\n";
		print $s "comm pid=100 tid=100 comm=qemu-x86_64 exec=1\n";
		printf $s "mmap2 pid=100 tid=100 start=%d len=%d prot=7 flags=0x22 filename=//anon\n", $base, $span + 4096;
		for my $k (0 .. 19999) {
			my @cc = map { $base + int(rand($span)) } 0 .. $k % 3;
			printf $s "sample pid=100 tid=100 time=%d ip=%d callchain=user:%s\n", 3000 + $k, $cc[0], join(",", @cc);
		}
		close($s);' "$n" && "$mkperf" s.spec perf.data)
	for r in 1 2 3; do
		/usr/bin/time -f "$n lines run $r: wall %e s, user %U s, sys %S s, peak RSS %M kB" \
			"$jitsym" fold -q --perfmap-dir "$d" --kallsyms /dev/null -o /dev/null "$d/perf.data"
	done
done
