#!/bin/sh
# t-readonly.sh: jitsym reads its inputs and never writes beside them.
# Inputs (a golden recording with its jitdump, perf map and symfs ELF,
# and a perf-recorded perf.data with its symfs) are copied into a
# directory made read-only (files 0444, dirs 0555); jitsym runs there as
# an unprivileged user (setpriv to nobody when root), and its output must
# equal a normal run's while nothing in the directory changes (same
# files, modes, sizes and mtimes). Under strace, when it can trace, no
# open of any path may ask for write access or creation except the -o
# output files.
set -u
. "$(dirname "$0")/lib.sh"
# the inputs in it are made read-only: writable again before removal
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
golden=$abs_top_srcdir/tests/golden
in=$tmp/in out=$tmp/out
mkdir -p "$in/fg" "$in/native" "$out" "$tmp/bin"
cp -R "$golden/flamegraph-synth/." "$in/fg/"
cp -R "$golden/native-recorded/." "$in/native/"
(cd "$in/fg" && "$MKPERF" fg.spec perf.data && "$MKJITDUMP" jit-5000101.jdspec jit-5000101.dump &&
	printf '7f5000002000 100 stub\n7f5000002100 100 JS:~lazy /app/b.js:1:1\n' \
		>maps/perf-5000101.map) || exit 99
# the binary under test must be reachable by nobody: a copy in tmp
cp "$JITSYM" "$tmp/bin/jitsym"
chmod 755 "$tmp/bin" "$tmp/bin/jitsym" "$in"
chmod 777 "$out"
as_user=
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	else
		echo "# setpriv is missing: running as root (the directory is still read-only)"
	fi
fi
# name: dir, then jitsym arguments; $O is the output file (for -o)
cases='fg:fold --annotate
fg:script
fg:report --source-lines
fg:flamegraph -o $O
fg:pprof -o $O
native:fold --include-tid
native:script --header
native:report'
opts_fg="--kallsyms kallsyms --symfs . --buildid-dir . --perfmap-dir maps perf.data"
opts_native="--kallsyms kallsyms --symfs symfs --buildid-dir symfs perf.data"
run_all() {   # run_all TAG [wrapper...]: outputs as $out/TAG.N.{out,o,exit}
	tag=$1; shift
	n=0
	echo "$cases" | while IFS=: read -r dir args; do
		n=$((n + 1))
		eval "opts=\$opts_$dir"
		O=$out/$tag.$n.o
		# shellcheck disable=SC2086
		(cd "$in/$dir" && eval "$* \"$tmp/bin/jitsym\" $args $opts") \
			>"$out/$tag.$n.out" 2>"$out/$tag.$n.err"
		echo $? >"$out/$tag.$n.exit"
	done
}
snapshot() { (cd "$in" && find . -exec stat -c '%n %a %s %Y %i' {} + | sort); }

run_all normal
find "$in" -type d -exec chmod 555 {} +   # files 0444, dirs 0555
find "$in" -type f -exec chmod 444 {} +
before=$(snapshot)
run_all ro $as_user
after=$(snapshot)
[ "$before" = "$after" ] && ok "nothing in the input directory changed" ||
	{ bad "the input directory changed"; echo "$before" >"$out/before"; echo "$after" | diff "$out/before" - | head; }
[ -z "$(find "$in" -perm /222)" ] && ok "inputs are read-only (0444/0555)" || bad "inputs are writable"
n=0
echo "$cases" | while IFS=: read -r dir args; do
	n=$((n + 1))
	for x in out o exit; do
		[ -f "$out/normal.$n.$x" ] || continue
		cmp -s "$out/normal.$n.$x" "$out/ro.$n.$x" || { echo "not ok - $dir: $args: .$x differs"; exit 1; }
	done
	[ "$(cat "$out/ro.$n.exit")" = 0 ] || { echo "not ok - $dir: $args: exit $(cat "$out/ro.$n.exit")"; exit 1; }
	echo "ok - $dir: $args: same output read-only${as_user:+ as nobody}"
done || fail=1

# strace: every open of an input is read-only; only the -o files are written
# (through a temporary file beside each, src/common/outfile.h)
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	run_all st strace -f -qq -e trace=open,openat,openat2,creat -o "$out/strace.\$n.log"
	bad_opens=$(cat "$out"/strace.*.log | grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|creat\(' |
		grep -v -E "\"$out/st\.[0-9]*\.o(\.jitsym-[0-9]*\.tmp)?\"")
	n_in=$(cat "$out"/strace.*.log | grep -c -E '"(perf\.data|jit-5000101\.dump|maps/perf-5000101\.map|kallsyms)"')
	if [ -n "$bad_opens" ]; then
		bad "opens with write access:"; echo "$bad_opens" | head
	else
		ok "strace: no open asks for write access or creation, but the -o files"
	fi
	[ "$n_in" -gt 0 ] && ok "strace: the inputs' opens were seen ($n_in)" ||
		bad "strace: no open of an input was seen"
	grep -h 'perf\.data"' "$out"/strace.*.log | grep -q O_RDONLY && ok "strace: perf.data opened O_RDONLY" ||
		bad "strace: perf.data not opened O_RDONLY"
else
	echo "# strace cannot trace here: open flags not checked"
fi
exit $fail
