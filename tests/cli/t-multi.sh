#!/bin/sh
# Many recordings at once: "jitsym fold a.data b.data ..." merges them into
# one profile, each recording read by a session of its own with its own
# side files (jitdumps and perf maps next to it). Ten synthetic recordings
# (the specs of nine golden cases, each built in a directory of its own
# with its jitdumps and perf maps, and pipe-recorded's pipe-mode file) are merged and the merged fold must be
# the per-stack sum of the ten folded one by one; the summing is checked
# to see a recording dropped or counted twice. flamegraph, pprof and report
# merge too; tiers, script, sources take one recording, diff two; a
# missing recording among several is an input error (exit 2) with the
# others still written; --threads 1 and 2 give the same bytes, and so do
# 4 and more, with which fold reads several recordings at a time.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

golden=$abs_top_srcdir/tests/golden
cases="jit-annotate jit-badnames jit-coalesced-anon jit-fork jit-mixed jit-move jit-quirks
jit-reuse jit-shared-fork pipe-recorded"
n=0 inputs=
for c in $cases; do
	n=$((n + 1)); d=$tmp/r$n
	cp -R "$golden/$c" "$d" && chmod -R u+w "$d" || exit 99
	# pipe-recorded's: perf record -o - (pipe mode) into a file
	[ -e "$d/perf.data" ] && { inputs="$inputs r$n/perf.data"; continue; }
	# the recording, as the case's cmd makes it: "$MKPERF" SPEC NAME.data
	spec=$(sed -n 's/^"$MKPERF" \([^ ]*\.spec\) .*/\1/p' "$golden/$c/cmd" | head -n 1)
	[ -n "$spec" ] || { echo "no spec in $c/cmd"; exit 99; }
	(cd "$d" && "$MKPERF" "$spec" perf.data >/dev/null) || { echo "mkperf $c failed"; exit 99; }
	for j in "$d"/jit-*.jdspec; do
		[ -e "$j" ] || continue
		case $j in *-shuffled.jdspec) continue ;; esac
		"$MKJITDUMP" "$j" "${j%.jdspec}.dump" >/dev/null || { echo "mkjitdump $j failed"; exit 99; }
	done
	# its perf maps beside it, where the session looks for them
	[ -d "$d/maps" ] && cp "$d"/maps/* "$d/"
	inputs="$inputs r$n/perf.data"
done
cd "$tmp" || exit 99
opts="--kallsyms /dev/null --symfs . --buildid-dir ."

# each one alone: every recording has samples of its own
for f in $inputs; do
	"$JITSYM" fold -q $opts "$f" >"$f.fold" 2>/dev/null
	[ $? -eq 0 ] && [ -s "$f.fold" ] || { bad "fold $f alone"; }
done

# sum "stack COUNT" lines per stack, sorted bytewise as fold sorts them
sum_folds() {
	awk '{ i = match($0, / [0-9]+$/); s = substr($0, 1, i - 1); w[s] += substr($0, i + 1) }
	     END { for (s in w) print s " " w[s] }' "$@" | sort
}
# shellcheck disable=SC2086
set -- $inputs
eval "last=\${$#}"
sum_folds $(for f in $inputs; do echo "$f.fold"; done) >sum.fold
sum_folds $(for f in "$@"; do [ "$f" = "$last" ] || echo "$f.fold"; done) >dropped.fold
sum_folds $(for f in $inputs; do echo "$f.fold"; done) "$1.fold" >twice.fold

for t in 1 2; do
	"$JITSYM" fold --threads $t $opts $inputs >merged$t.fold 2>merged$t.err
	[ $? -eq 0 ] || bad "fold --threads $t of $n recordings: exit 0"
done
# each message names the recording it is about (the messages of one do
# not); the count of warnings past the limit is the run's
if grep -q '^jitsym: ' merged1.err && ! grep '^jitsym: ' merged1.err | grep -v "'r[0-9]*/perf.data'" |
	grep -v '^jitsym: warning: [0-9]* more warnings like'; then
	ok "each message of a merged run names its recording"
else
	bad "each message of a merged run names its recording"
fi
if cmp -s merged1.fold sum.fold; then
	ok "fold of $n recordings is the per-stack sum of their folds"
else
	bad "fold of $n recordings is the per-stack sum of their folds"
	diff sum.fold merged1.fold | head -n 20
fi
cmp -s merged1.fold merged2.fold && ok "merged fold: --threads 1 and 2 the same bytes" ||
	bad "merged fold: --threads 1 and 2 the same bytes"
# --threads 4 and more: the recordings are read two at a time (N/2), each
# on two threads, their messages kept and said in order: the same bytes
# on stdout and stderr, and the same exit status, as one after another
"$JITSYM" fold -v --threads 4 $opts $inputs 2>&1 >/dev/null | grep -q "reading $n recordings, 2 at a time" &&
	ok "fold --threads 4 of $n recordings reads two at a time" ||
	bad "fold --threads 4 of $n recordings reads two at a time"
same=0
for t in 4 5 8 64; do
	"$JITSYM" fold --threads $t $opts $inputs >merged$t.fold 2>merged$t.err
	st=$?
	[ $st -eq 0 ] && cmp -s merged1.fold merged$t.fold && cmp -s merged1.err merged$t.err &&
		same=$((same + 1))
done
[ -s merged1.err ] && [ $same -eq 4 ] &&
	ok "merged fold: --threads 4, 5, 8 and 64 the bytes, messages and status of 1" ||
	{ bad "merged fold: --threads 4, 5, 8 and 64 the bytes, messages and status of 1 ($same of 4)"
	  diff merged1.err merged4.err | head -n 10; }
# the check itself sees a recording dropped or counted twice
! cmp -s dropped.fold merged1.fold && ! cmp -s twice.fold merged1.fold &&
	ok "the sum check fails with a recording dropped or counted twice" ||
	bad "the sum check fails with a recording dropped or counted twice"
# one recording named: the same as today
"$JITSYM" fold -q $opts "$1" | cmp -s - "$1.fold" && ok "fold of one recording as before" ||
	bad "fold of one recording as before"
# the same recording twice: every count doubled
awk '{ i = match($0, / [0-9]+$/); print substr($0, 1, i - 1) " " 2 * substr($0, i + 1) }' \
	"$1.fold" >double.fold
"$JITSYM" fold -q $opts "$1" "$1" | cmp -s - double.fold && ok "a recording given twice counts twice" ||
	bad "a recording given twice counts twice"

# flamegraph: one graph of all; the same bytes for any --threads
for t in 1 2; do
	"$JITSYM" flamegraph -q --threads $t $opts $inputs >merged$t.svg ||
		bad "flamegraph --threads $t of $n recordings: exit 0"
done
total=$(awk '{ s += $NF } END { print s }' sum.fold)
[ "$(grep -o 'all&#10;[0-9,]* samples' merged1.svg | head -n 1 | tr -d ,)" = "all&#10;$total samples" ] &&
	ok "flamegraph of $n recordings counts all $total samples" ||
	bad "flamegraph of $n recordings counts all $total samples"
cmp -s merged1.svg merged2.svg && ok "merged flamegraph: --threads 1 and 2 the same bytes" ||
	bad "merged flamegraph: --threads 1 and 2 the same bytes"

# pprof: one profile of all, its sample count fold's; the same bytes for any --threads
PPROF_DUMP=$abs_top_builddir/tests/tools/pprof-dump
for t in 1 2; do
	"$JITSYM" pprof -q --threads $t $opts -o merged$t.pb.gz $inputs ||
		bad "pprof --threads $t of $n recordings: exit 0"
done
cmp -s merged1.pb.gz merged2.pb.gz && ok "merged pprof: --threads 1 and 2 the same bytes" ||
	bad "merged pprof: --threads 1 and 2 the same bytes"
counted=$("$PPROF_DUMP" merged1.pb.gz | sed -n 's/^total: \([0-9]*\) .*/\1/p')
[ "$counted" = "$total" ] && ok "pprof of $n recordings counts all $total samples" ||
	bad "pprof of $n recordings counts all $total samples (counted '$counted')"
# recordings of another event: refused, both named, no profile
mkdir other && (cd other && "$MKPERF" "$golden/synth-options/two-events.spec" perf.data >/dev/null) ||
	exit 99
"$JITSYM" pprof $opts -o events.pb.gz "$1" other/perf.data >/dev/null 2>events.err
st=$?
[ $st -eq 1 ] && [ ! -e events.pb.gz ] && grep -q "'other/perf.data' is of event 'cycles', '$1' of 'cpu-clock'" events.err &&
	ok "pprof of recordings of two events: a usage error naming both" ||
	{ bad "pprof of recordings of two events: a usage error naming both (exit $st)"; cat events.err; }

# report: the samples of all; a recording twice is the same rows and shares
"$JITSYM" report -q $opts $inputs >merged.report ||
	bad "report of $n recordings: exit 0"
grep -q "^# Samples: $total of event" merged.report && ok "report of $n recordings counts all $total samples" ||
	bad "report of $n recordings counts all $total samples"
"$JITSYM" report -q $opts "$1" | sed 1,2d >one.report
"$JITSYM" report -q $opts "$1" "$1" | sed 1,2d | cmp -s - one.report &&
	ok "report of a recording twice: its rows and shares" ||
	bad "report of a recording twice: its rows and shares"
"$JITSYM" report $opts "$1" other/perf.data >/dev/null 2>events.err
[ $? -eq 1 ] && grep -q "'other/perf.data' is of event 'cycles'" events.err &&
	ok "report of recordings of two events: a usage error" ||
	bad "report of recordings of two events: a usage error"
"$JITSYM" report --source-lines $opts "$1" "$2" >/dev/null 2>/dev/null
[ $? -eq 1 ] && ok "report --source-lines of two recordings: a usage error" ||
	bad "report --source-lines of two recordings: a usage error"

# a missing recording among them: exit 2, named, the others still merged
"$JITSYM" fold -q $opts "$1" missing.data "$2" >partial.fold 2>partial.err
st=$?
sum_folds "$1.fold" "$2.fold" >two.fold
[ $st -eq 2 ] && grep -q "missing.data" partial.err && cmp -s partial.fold two.fold &&
	ok "a missing recording: exit 2, named, the others merged" ||
	{ bad "a missing recording: exit 2, named, the others merged (exit $st)"; cat partial.err; }
# the last one missing: finished after it all the same
"$JITSYM" fold -q $opts "$1" "$2" missing.data >partial2.fold 2>/dev/null
st=$?
[ $st -eq 2 ] && cmp -s partial2.fold two.fold && ok "a missing last recording: exit 2, the others merged" ||
	bad "a missing last recording: exit 2, the others merged (exit $st)"
# -o FILE: still written
rm -f out.fold
"$JITSYM" fold -q $opts -o out.fold missing.data "$1" 2>/dev/null
st=$?
[ $st -eq 2 ] && cmp -s out.fold "$1.fold" && ok "a missing first recording: -o FILE has the rest" ||
	bad "a missing first recording: -o FILE has the rest (exit $st)"
"$JITSYM" fold -q $opts -o none.fold missing.data missing2.data 2>/dev/null
st=$?
[ $st -eq 2 ] && [ ! -e none.fold ] && ok "no recording readable: exit 2, no output file" ||
	bad "no recording readable: exit 2, no output file (exit $st)"

# a damaged one (the pipe-mode file cut short among its samples): exit 2,
# named, its whole part and the others merged
head -c $(($(wc -c <r$n/perf.data) * 3 / 4)) r$n/perf.data >r$n/cut.data
"$JITSYM" fold -q $opts r$n/cut.data >cut.fold 2>/dev/null
st1=$?
"$JITSYM" fold $opts "$2" r$n/cut.data "$3" >partial3.fold 2>partial3.err
st=$?
sum_folds "$2.fold" cut.fold "$3.fold" >three.fold
[ $st1 -eq 2 ] && [ $st -eq 2 ] && [ -s cut.fold ] && grep -q "error: 'r$n/cut.data'" partial3.err &&
	cmp -s partial3.fold three.fold &&
	ok "a damaged recording: exit 2, named, what is whole merged" ||
	{ bad "a damaged recording: exit 2, named, what is whole merged (exit $st1 $st)"; cat partial3.err; }

# read two at a time, the same as one after another: a missing, a damaged
# and no readable recording, and a filter a recording cannot apply, which
# stops the run (the recordings after it neither said nor merged)
same=0 cases=0
for set in "$1 missing.data $2" "$2 r$n/cut.data $3 $4" "missing.data missing2.data" \
	"--off-cpu $1 $2 $3" "$1 $2 --off-cpu missing.data"; do
	cases=$((cases + 1))
	for t in 1 4; do
		rm -f set$t.fold
		# shellcheck disable=SC2086
		"$JITSYM" fold --threads $t $opts -o set$t.fold $set >set$t.out 2>set$t.err
		echo $? >set$t.st
		[ -e set$t.fold ] || echo none >set$t.fold
	done
	cmp -s set1.fold set4.fold && cmp -s set1.err set4.err && cmp -s set1.st set4.st &&
		cmp -s set1.out set4.out && same=$((same + 1)) ||
		{ echo "# differs: fold $set"; diff set1.err set4.err | head -n 5; }
done
[ $same -eq $cases ] &&
	ok "missing, damaged, unreadable and stopping recordings: --threads 4 as 1" ||
	bad "missing, damaged, unreadable and stopping recordings: --threads 4 as 1 ($same of $cases)"

# the commands that take one recording say so
for c in tiers script sources; do
	"$JITSYM" $c $opts -o out.$c "$1" "$2" >/dev/null 2>err.$c
	st=$?
	[ $st -eq 1 ] && grep -q "unexpected argument '$2'" err.$c && [ ! -e out.$c ] &&
		ok "$c of two recordings: a usage error" ||
		bad "$c of two recordings: a usage error (exit $st: $(cat err.$c))"
done
"$JITSYM" diff $opts "$1" "$2" "$3" >/dev/null 2>err.diff
[ $? -eq 1 ] && ok "diff of three recordings: a usage error" || bad "diff of three recordings: a usage error"
exit $fail
