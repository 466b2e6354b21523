#!/bin/sh
# Every command fails the same way (src/command/command.h, the exit status in
# src/common/msg.h): for each failure below, all six commands exit with the same
# status, print exactly one "jitsym: error:" line and nothing else on
# stderr (usage errors print no usage: the line says where to look), write
# nothing to stdout, and leave no output file behind.
#
#   unwritable -o FILE (a missing directory)  3
#   missing input file                        2
#   input that is not a recording (text)      2
#   unknown option                            1
#   option missing its value                  1
#   --threads not a number from 1 to 1024     1
#   --debuginfod with no server named         1 (or built without libdebuginfod)
#   script -F naming a field the samples lack 1 (after reading the header)
#   output that fails while written (/dev/full) 3
# and a valid run writes its -o FILE, and with -o - stdout.
# Each with --threads 1 and --threads 2: the threads change nothing here.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

cat >"$tmp/valid.spec" <<'SPEC'
feature osrelease 6.1.0-test
attr name=cycles type=0 config=0 sample_period=1000 sample_type=IP,TID,TIME,PERIOD,CALLCHAIN sample_id_all=1 mmap=1 comm=1 task=1
comm pid=300 tid=300 comm=app exec=1 time=1000
sample pid=300 tid=300 time=2000 period=1000 ip=0x1000 callchain=user:0x1000
SPEC
"$MKPERF" "$tmp/valid.spec" "$tmp/valid.data" || { echo "mkperf failed"; exit 99; }
echo "not a recording" >"$tmp/text.data"
# valid.data names no kernel: --kallsyms keeps the "no trusted kallsyms" warning out,
# so a second line on stderr is a fault of the run, not of the host
common="--kallsyms /dev/null"

# check WHAT STATUS PATTERN OUTFILE ARGS...: every command, one status, one line
check() {
	what=$1 want=$2 pattern=$3 outfile=$4
	shift 4
	for cmd in fold flamegraph script report sources pprof; do
		rm -f "$outfile"
		${JITSYM_WRAPPER:-} "$JITSYM" "$cmd" --threads "$threads" "$@" >"$tmp/out" 2>"$tmp/err"
		got=$?
		name="$cmd --threads $threads: $what"
		if [ "$got" != "$want" ]; then
			bad "$name: exit $got, expected $want"; sed 's/^/#   /' "$tmp/err"; continue
		fi
		if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "^jitsym: error: $pattern" "$tmp/err"; then
			bad "$name: not one line matching '$pattern' on stderr"; sed 's/^/#   /' "$tmp/err"; continue
		fi
		if [ -s "$tmp/out" ]; then
			bad "$name: wrote to stdout"; continue
		fi
		if [ -e "$outfile" ]; then
			bad "$name: left '$outfile' behind"; continue
		fi
		ok "$name"
	done
}

for threads in 1 2; do
	check "unwritable -o" 3 "cannot open '$tmp/nodir/out' for writing" "$tmp/nodir/out" \
		$common -o "$tmp/nodir/out" "$tmp/valid.data"
	check "missing input" 2 "" "$tmp/out.1" $common -o "$tmp/out.1" "$tmp/missing.data"
	check "not a recording" 2 "" "$tmp/out.2" $common -o "$tmp/out.2" "$tmp/text.data"
	check "unknown option" 1 "unknown option '--bogus'" "$tmp/out.3" \
		$common --bogus -o "$tmp/out.3" "$tmp/valid.data"
	check "unknown short option" 1 "unknown option '-Z'" "$tmp/out.4" \
		$common -Z -o "$tmp/out.4" "$tmp/valid.data"
	check "option without its value" 1 "option '--event' needs a value" "$tmp/out.5" \
		$common -o "$tmp/out.5" "$tmp/valid.data" --event
	check "--threads 0" 1 "--threads takes a number from 1 to 1024, not '0'" "$tmp/out.7" \
		$common --threads 0 -o "$tmp/out.7" "$tmp/valid.data"
	# DEBUGINFOD_URLS is unset (tests/setup.sh); the line says what is missing
	check "--debuginfod without servers" 1 "--debuginfod" "$tmp/out.8" \
		$common --debuginfod -o "$tmp/out.8" "$tmp/valid.data"

	# a usage error found only once the header is read: the output was opened, and removed
	rm -f "$tmp/out.6"
	"$JITSYM" script --threads "$threads" $common -F cpu -o "$tmp/out.6" "$tmp/valid.data" 2>"$tmp/err"
	got=$?
	if [ "$got" = 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/out.6" ]; then
		ok "script --threads $threads: -F a field the recording lacks"
	else
		bad "script --threads $threads: -F a field the recording lacks: exit $got"; sed 's/^/#   /' "$tmp/err"
	fi

	# writing fails after the output was opened: one line, status 3 (the
	# device stays: it was not created by the run)
	if [ -w /dev/full ]; then
		for cmd in fold flamegraph script report sources pprof; do
			${JITSYM_WRAPPER:-} "$JITSYM" "$cmd" --threads "$threads" $common -o /dev/full \
				"$tmp/valid.data" 2>"$tmp/err"
			got=$?
			if [ "$got" = 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
			   grep -q "^jitsym: error: cannot write '/dev/full': No space left on device" "$tmp/err"; then
				ok "$cmd --threads $threads: -o /dev/full"
			else
				bad "$cmd --threads $threads: -o /dev/full: exit $got"; sed 's/^/#   /' "$tmp/err"
			fi
		done
	else
		echo "ok - # SKIP no writable /dev/full"
	fi

	# and the runs that succeed write their file (the input above is valid)
	for cmd in fold flamegraph script report sources pprof; do
		rm -f "$tmp/good"
		if ${JITSYM_WRAPPER:-} "$JITSYM" "$cmd" --threads "$threads" $common -o "$tmp/good" \
			"$tmp/valid.data" 2>"$tmp/err" && [ -s "$tmp/good" ] && [ ! -s "$tmp/err" ]; then
			ok "$cmd --threads $threads: a valid run writes -o"
		else
			bad "$cmd --threads $threads: a valid run writes -o"; sed 's/^/#   /' "$tmp/err"
		fi
		# -o - is standard output, as a missing -o: same bytes, no file '-'
		(cd "$tmp" && ${JITSYM_WRAPPER:-} "$JITSYM" "$cmd" --threads "$threads" $common -o - \
			"$tmp/valid.data" >"$tmp/dash" 2>"$tmp/err")
		if cmp -s "$tmp/good" "$tmp/dash" && [ ! -e "$tmp/-" ] && [ ! -s "$tmp/err" ]; then
			ok "$cmd --threads $threads: -o - writes to stdout"
		else
			bad "$cmd --threads $threads: -o - writes to stdout"; sed 's/^/#   /' "$tmp/err"
		fi
		rm -f "$tmp/-"
	done
done
exit $fail
