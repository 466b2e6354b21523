#!/bin/sh
# An interrupted run never destroys or half-writes its -o file (src/common/outfile.h).
#
# Every command that takes -o (fold, flamegraph, script, report, pprof,
# tiers, sources, diff) reads a large synthetic recording (mkperf, pipe
# mode) from a FIFO the test feeds, and is killed by SIGINT, SIGTERM,
# SIGHUP and SIGPIPE once it has read 10%, 50% and 90% of it. The point
# is chosen by the run's own progress, not by the clock: the test writes
# the first P% of the recording's bytes into the FIFO and keeps it open;
# when that write returns, jitsym has read all but at most a pipe buffer
# (64 KiB, a percent of the recording) of them and waits for more, so it
# has opened its output (at the first record after the header) and is
# somewhere past P% - 64 KiB: the signal then comes while it waits for the
# rest, or still works on what it read. Each run must:
#  - while it waits: have left the existing -o file byte-identical and
#    written its own beside it (FILE.jitsym-PID.tmp);
#  - after the signal: exit 128 + the signal's number, as the shell sees
#    a process ended by it, print nothing, leave the -o file
#    byte-identical and no other file in its directory (and with no -o
#    file before, no file at all).
# script with --threads 2 writes from a second thread (async-out.c), pprof
# through gzsink.c; diff is killed while reading its second recording.
# A background job of a script has SIGINT ignored: env --default-signal
# (or perl) gives jitsym the default dispositions back, as at a terminal.
#
# A write error at 10%, 50% and 90% of each command's output (a file size
# limit, RLIMIT_FSIZE, with SIGXFSZ ignored: write(2) fails with EFBIG at
# that byte) and a full tmpfs (as root, mounted in a private mount
# namespace; skipped elsewhere) exit 3 with one line naming the file,
# leave the existing file byte-identical and no temporary file. A run that
# completes replaces the file (its mode kept; through a symbolic link, the
# file it names), a new file gets the mode the umask leaves, and standard
# output to /dev/full still exits 3.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

NR_SAMPLES=${NR_SAMPLES:-30000}
mkdir "$tmp/maps"
for pid in 7000001 7000002; do
	awk -v pid="$pid" 'BEGIN { for (i = 0; i < 300; i++)
		printf "7f00%08x 100 JS:~fn_%d_%d /app/m%d.js:%d\n", 1048576 + i * 256, pid, i, i % 7, i }' \
		>"$tmp/maps/perf-$pid.map"
done
# NR_SAMPLES samples of 1 to 30 perf-map frames of two processes: ~6 MB
awk -v n="$NR_SAMPLES" -v p1=7000001 -v p2=7000002 'BEGIN {
	srand(7)
	print "feature hostname signals"
	print "feature osrelease 6.1.0-test"
	print "feature arch x86_64"
	print "feature nrcpus 2 2"
	print "attr name=cycles type=0 config=0 sample_period=100000 " \
		"sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN sample_id_all=1 " \
		"use_clockid=1 clockid=1 mmap=1 comm=1 task=1 mmap2=1 comm_exec=1 ids=101"
	t = 9000000000
	pids[0] = p1; pids[1] = p2
	for (k = 0; k < 2; k++) {
		printf "comm id=101 pid=%d tid=%d comm=app%d exec=1 time=%.0f cpu=0\n",
			pids[k], pids[k], k, t++
		printf "mmap2 id=101 pid=%d tid=%d start=0x7f0000000000 len=0x1000000 pgoff=0 " \
			"prot=7 flags=0x22 filename=//anon time=%.0f cpu=0\n", pids[k], pids[k], t++
	}
	for (i = 0; i < n; i++) {
		t += 1000000
		p = pids[int(rand() * 2)]
		d = 1 + int(rand() * 30)
		chain = "user:"
		for (j = 0; j < d; j++) {
			a = sprintf("0x7f00%08x", 1048576 + int(rand() * 300) * 256 + 16)
			chain = chain (j ? "," : "") a
			if (!j)
				ip = a
		}
		printf "sample id=101 pid=%d tid=%d time=%.0f cpu=%d period=100000 ip=%s callchain=%s\n",
			p, p + int(rand() * 3), t, i % 2, ip, chain
		if (i % 100 == 99)
			print "finished_round"
	}
}' >"$tmp/rec.spec"
"$MKPERF" "$tmp/rec.spec" "$tmp/rec.data" &&
"$MKPERF" --pipe "$tmp/rec.spec" "$tmp/rec.pipe" || { echo "mkperf failed"; exit 99; }
size=$(wc -c <"$tmp/rec.pipe")
# what each run replaces: not something jitsym would write
printf 'precious %s\n' 1 2 3 >"$tmp/precious"

# default_signals CMD ARGS...: exec CMD with the four signals' default dispositions
if env --default-signal=INT true 2>/dev/null; then
	default_signals() { exec env --default-signal=INT,HUP,PIPE,TERM "$@"; }
elif perl -e 1 2>/dev/null; then
	default_signals() {
		exec perl -e '$SIG{$_} = "DEFAULT" for qw(INT HUP PIPE TERM); exec @ARGV or exit 127' \
			"$@"
	}
else
	echo "1..0 # SKIP neither env --default-signal nor perl to undo a script's ignored SIGINT"
	exit 77
fi
common="--kallsyms /dev/null --perfmap-dir $tmp/maps"

# Each command: NAME, then its arguments before the input (read from stdin).
commands='fold|fold
flamegraph|flamegraph
script|script --threads 1
script-threads|script --threads 2 -F comm,tid,time,ip,sym
report|report
pprof|pprof --threads 2
tiers|tiers --format svg
sources|sources
diff|diff REC'

# killed NAME ARGS SIG NUM PCT [new]: the run killed by SIG at PCT% of its input
killed() {
	name=$1 args=$2 sig=$3 num=$4 pct=$5 new=${6:-}
	what="$name: SIG$sig at $pct%${new:+, no file before}"
	rm -rf "$tmp/o" "$tmp/fifo"
	mkdir "$tmp/o"
	before=
	[ -n "$new" ] || { cp "$tmp/precious" "$tmp/o/out"; before="out "; }
	mkfifo "$tmp/fifo"
	# shellcheck disable=SC2086 # $args and $common are word lists
	set -- $(echo "$args" | sed "s|REC|$tmp/rec.data|")
	# shellcheck disable=SC2086
	default_signals ${JITSYM_WRAPPER:-} "$JITSYM" "$@" $common -o "$tmp/o/out" - \
		<"$tmp/fifo" >"$tmp/stdout" 2>"$tmp/err" &
	pid=$!
	exec 3>"$tmp/fifo"
	head -c $((size * pct / 100)) "$tmp/rec.pipe" >&3
	# The bytes may all sit in the fifo before jitsym has even started
	# (a loaded machine): wait, up to 30 s, for the file it opens first.
	tries=0
	while [ ! -e "$tmp/o/out.jitsym-$pid.tmp" ] && [ $tries -lt 600 ] &&
		kill -0 "$pid" 2>/dev/null; do
		sleep 0.05
		tries=$((tries + 1))
	done
	# waiting for the rest: the file as it was, the new one beside it
	waiting=$(ls -A "$tmp/o" | tr '\n' ' ')
	if [ -z "$new" ] && ! cmp -s "$tmp/precious" "$tmp/o/out"; then
		mid="changed the file before the end ($(wc -c <"$tmp/o/out") bytes)"
	elif [ "$waiting" != "${before}out.jitsym-$pid.tmp " ]; then
		mid="wrote '$waiting', not beside the file"
	else
		mid=
	fi
	kill -s "$sig" "$pid"
	wait "$pid" 2>/dev/null   # (no "Terminated" from the shell)
	got=$?
	exec 3>&-
	left=$(ls -A "$tmp/o" | tr '\n' ' ')
	if [ -n "$mid" ]; then
		bad "$what: $mid"
	elif [ "$got" != $((128 + num)) ]; then
		bad "$what: exit $got, expected $((128 + num))"; sed 's/^/#   /' "$tmp/err"
	elif [ -s "$tmp/err" ] || [ -s "$tmp/stdout" ]; then
		bad "$what: printed something"; sed 's/^/#   /' "$tmp/err"
	elif [ -z "$new" ] && ! cmp -s "$tmp/precious" "$tmp/o/out"; then
		bad "$what: the file changed ($(wc -c <"$tmp/o/out") bytes)"
	elif [ "$left" != "$before" ]; then
		bad "$what: left '$left'"
	else
		ok "$what"
	fi
}

echo "$commands" | while IFS='|' read -r name args; do
	for signal in INT:2 TERM:15 HUP:1 PIPE:13; do
		for at in 10 50 90; do
			killed "$name" "$args" "${signal%:*}" "${signal#*:}" $at
		done
	done
	killed "$name" "$args" TERM 15 50 new
done >"$tmp/killed.tap"
cat "$tmp/killed.tap"
! grep -q '^not ok' "$tmp/killed.tap" || fail=1

# The block size of ulimit -f in this shell (512 by POSIX, 1024 in bash)
block=$( (trap '' XFSZ; ulimit -f 1; head -c 4096 /dev/zero >"$tmp/block") 2>/dev/null;
	 wc -c <"$tmp/block")

# limited NAME ARGS PCT FULL: writing fails at PCT% of FULL bytes of output
limited() {
	name=$1 args=$2 pct=$3 full=$4
	blocks=$((full * pct / 100 / block))
	what="$name: write error at $pct% ($((blocks * block)) of $full bytes)"
	rm -rf "$tmp/o"
	mkdir "$tmp/o"
	cp "$tmp/precious" "$tmp/o/out"
	# shellcheck disable=SC2086
	set -- $(echo "$args" | sed "s|REC|$tmp/rec.data|")
	# (stderr through a pipe: the limit is on every file it writes)
	# shellcheck disable=SC2086
	{ (trap '' XFSZ; ulimit -f $blocks
	   exec ${JITSYM_WRAPPER:-} "$JITSYM" "$@" $common -o "$tmp/o/out" "$tmp/rec.data" \
		2>&1 >"$tmp/stdout")
	  echo $? >"$tmp/exit"; } | cat >"$tmp/err"
	got=$(cat "$tmp/exit")
	left=$(ls -A "$tmp/o" | tr '\n' ' ')
	if [ "$got" != 3 ]; then
		bad "$what: exit $got, expected 3"; sed 's/^/#   /' "$tmp/err"
	elif [ "$(cat "$tmp/err")" != "jitsym: error: cannot write '$tmp/o/out': File too large" ]; then
		bad "$what: not the one line naming the file"; sed 's/^/#   /' "$tmp/err"
	elif ! cmp -s "$tmp/precious" "$tmp/o/out"; then
		bad "$what: the file changed ($(wc -c <"$tmp/o/out") bytes)"
	elif [ "$left" != "out " ]; then
		bad "$what: left '$left'"
	else
		ok "$what"
	fi
}

echo "$commands" | while IFS='|' read -r name args; do
	# shellcheck disable=SC2086
	set -- $(echo "$args" | sed "s|REC|$tmp/rec.data|")
	# shellcheck disable=SC2086
	"$JITSYM" "$@" $common "$tmp/rec.data" >"$tmp/full.out" 2>"$tmp/err" ||
		{ bad "$name: a complete run failed"; sed 's/^/#   /' "$tmp/err"; continue; }
	full=$(wc -c <"$tmp/full.out")
	if [ "$full" -ge $((block * 100)) ]; then
		for at in 10 50 90; do
			limited "$name" "$args" $at "$full"
		done
	else
		limited "$name" "$args" 0 "$full"
	fi
	# a run that completes replaces the file, its mode kept: the bytes of stdout
	rm -rf "$tmp/o"
	mkdir "$tmp/o"
	cp "$tmp/precious" "$tmp/o/out"
	chmod 640 "$tmp/o/out"
	# shellcheck disable=SC2086
	${JITSYM_WRAPPER:-} "$JITSYM" "$@" $common -o "$tmp/o/out" "$tmp/rec.data" 2>"$tmp/err"
	got=$?
	if [ "$got" = 0 ] && cmp -s "$tmp/full.out" "$tmp/o/out" &&
	   [ "$(ls -A "$tmp/o")" = out ] && [ "$(stat -c %a "$tmp/o/out")" = 640 ]; then
		ok "$name: a complete run replaces the file ($full bytes, mode 640)"
	else
		bad "$name: a complete run: exit $got, $(ls -A "$tmp/o" | tr '\n' ' ')"
	fi
done >"$tmp/limited.tap"
cat "$tmp/limited.tap"
! grep -q '^not ok' "$tmp/limited.tap" || fail=1

# A new file gets the mode the umask leaves, as fopen() would give it.
rm -rf "$tmp/o"
mkdir "$tmp/o"
(umask 027; "$JITSYM" tiers $common -o "$tmp/o/new" "$tmp/rec.data" 2>"$tmp/err")
if [ "$(stat -c %a "$tmp/o/new" 2>&1)" = 640 ] && [ "$(ls -A "$tmp/o")" = new ]; then
	ok "tiers -o NEW under umask 027: mode 640"
else
	bad "tiers -o NEW under umask 027: $(ls -lA "$tmp/o" | tr '\n' ' ')"
fi

# Through a symbolic link: the file it names is replaced, the link stays.
rm -rf "$tmp/o"
mkdir "$tmp/o" "$tmp/o/real"
cp "$tmp/precious" "$tmp/o/real/file"
ln -s real/file "$tmp/o/link"
"$JITSYM" fold $common -o "$tmp/o/link" "$tmp/rec.data" 2>"$tmp/err" &&
	"$JITSYM" fold $common "$tmp/rec.data" >"$tmp/full.out" 2>"$tmp/err"
if [ -L "$tmp/o/link" ] && cmp -s "$tmp/full.out" "$tmp/o/real/file" &&
   [ "$(ls -A "$tmp/o/real")" = file ]; then
	ok "fold -o LINK: the file it names is replaced, the link stays"
else
	bad "fold -o LINK: $(ls -lA "$tmp/o" "$tmp/o/real" | tr '\n' ' ')"
fi

# Standard output on a full disk: as before, exit 3 and one line.
if [ -w /dev/full ]; then
	"$JITSYM" fold $common "$tmp/rec.data" >/dev/full 2>"$tmp/err"
	got=$?
	if [ "$got" = 3 ] &&
	   [ "$(cat "$tmp/err")" = "jitsym: error: cannot write output: No space left on device" ]; then
		ok "fold >/dev/full: exit 3, one line"
	else
		bad "fold >/dev/full: exit $got"; sed 's/^/#   /' "$tmp/err"
	fi
else
	echo "ok - # SKIP no writable /dev/full"
fi

# A full tmpfs of 64 KiB: root only, in a mount namespace of its own.
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	mkdir "$tmp/disk"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private sh -c '
		tmp=$1 common=$2
		mount -t tmpfs -o size=64k jitsym-test "$tmp/disk" || exit 99
		for cmd in fold flamegraph script report pprof; do
			rm -f "$tmp/disk/"*
			cp "$tmp/precious" "$tmp/disk/out"
			"$JITSYM" $cmd $common -o "$tmp/disk/out" "$tmp/rec.data" 2>"$tmp/disk.$cmd.err"
			echo $? >"$tmp/disk.$cmd.exit"
			cmp -s "$tmp/precious" "$tmp/disk/out" && echo same >"$tmp/disk.$cmd.cmp"
			ls -A "$tmp/disk" | tr "\n" " " >"$tmp/disk.$cmd.left"
		done' sh "$tmp" "$common"
	for cmd in fold flamegraph script report pprof; do
		what="$cmd: a full tmpfs"
		if [ "$(cat "$tmp/disk.$cmd.exit" 2>/dev/null)" != 3 ]; then
			bad "$what: exit $(cat "$tmp/disk.$cmd.exit" 2>/dev/null), expected 3"
		elif [ "$(cat "$tmp/disk.$cmd.err")" != \
		       "jitsym: error: cannot write '$tmp/disk/out': No space left on device" ]; then
			bad "$what: not the one line naming the file"; sed 's/^/#   /' "$tmp/disk.$cmd.err"
		elif [ ! -e "$tmp/disk.$cmd.cmp" ]; then
			bad "$what: the file changed"
		elif [ "$(cat "$tmp/disk.$cmd.left")" != "out " ]; then
			bad "$what: left '$(cat "$tmp/disk.$cmd.left")'"
		else
			ok "$what"
		fi
	done
else
	echo "ok - # SKIP a full tmpfs needs root and unshare -m"
fi
exit $fail
