#!/bin/sh
# t-vdso.sh: record with perf record -N (no build-id cache), to a file and
# in pipe mode, a program that calls clock_gettime in a loop, and check
# that jitsym script, with no build-id cache (HOME is an empty temp dir),
# names its [vdso] frames as perf script does. jitsym reads the running
# kernel's vdso on the evidence of the recording's [vdso] build id (file)
# or of its kernel release and hostname (pipe). perf 6.1 reads the running
# vdso in pipe mode only: for a file that has a [vdso] build id it looks
# in the build-id cache alone (perf 6.1.187 names none of them after -N),
# so for the file perf script is given a cache (perf record without -N of
# the same program, in another HOME) holding that same vdso.
# See lib.sh for the environment it reads; exit 77 when perf cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init vdso
live_require_perf
live_find_jitsym
mkdir "$live_tmp/home"
HOME=$live_tmp/home
export HOME

cat >"$live_tmp/clocker.c" <<'EOF_C'
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;
	unsigned long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
		n++;
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return n == 0;
}
EOF_C
"${CC:-cc}" -O1 -fno-omit-frame-pointer -o "$live_tmp/clocker" "$live_tmp/clocker.c" ||
	live_skip "cannot build the test program with '${CC:-cc}'"

# vdso_frames FILE: the [vdso] frames of a script output, one per line, blanks squeezed
vdso_frames() {
	grep '(\[vdso\])' "$1" | tr -s ' \t' ' ' | sed 's/^ //' || true
}

check() {   # check NAME [PERF_HOME]: compare the two scripts' [vdso] frames of NAME.data
	HOME=${2:-$HOME} "$PERF" script -i "$live_tmp/$1.data" >"$live_tmp/$1.perf" 2>/dev/null ||
		live_hard_error "perf script of $1.data failed"
	# shellcheck disable=SC2086
	${JITSYM_WRAPPER:-} "$JITSYM" script "$live_tmp/$1.data" >"$live_tmp/$1.jitsym" \
		2>"$live_tmp/$1.err" || live_fail "$1: jitsym script failed: $(cat "$live_tmp/$1.err")"
	vdso_frames "$live_tmp/$1.perf" >"$live_tmp/$1.perf.vdso"
	vdso_frames "$live_tmp/$1.jitsym" >"$live_tmp/$1.jitsym.vdso"
	nr=$(wc -l <"$live_tmp/$1.perf.vdso")
	named=$(grep -vc '\[unknown\]' "$live_tmp/$1.perf.vdso" || true)
	live_say "$1: perf script names $named of $nr [vdso] frames"
	if [ "$named" -eq 0 ]; then
		live_say "$1: no [vdso] frame perf names: nothing to compare"
		return 0
	fi
	checked=$((checked + 1))
	if cmp -s "$live_tmp/$1.perf.vdso" "$live_tmp/$1.jitsym.vdso"; then
		live_say "$1: jitsym script prints the same $nr [vdso] frames"
	else
		live_fail "$1: [vdso] frames differ from perf script's (first: $(diff \
			"$live_tmp/$1.perf.vdso" "$live_tmp/$1.jitsym.vdso" | grep '^[<>]' | head -n 2 | tr '\n' ' '))"
	fi
}

checked=0
live_record "$live_tmp/file.data" "$live_tmp/clocker" 1
# perf's build-id cache of the vdso, in its own HOME
mkdir "$live_tmp/perf-home"
HOME=$live_tmp/perf-home "$PERF" record -q -k 1 -e cpu-clock -F "${LIVE_FREQ:-2000}" -g \
	-o "$live_tmp/cache.data" -- "$live_tmp/clocker" 0.3 >/dev/null 2>&1 ||
	live_hard_error "perf record without -N failed"
check file "$live_tmp/perf-home"
grep -q "warning" "$live_tmp/file.err" &&
	live_fail "file: a warning where the build id proves the vdso: $(cat "$live_tmp/file.err")"
LIVE_RECORD_PIPE=1 live_record "$live_tmp/pipe.data" "$live_tmp/clocker" 1
check pipe
# the pipe's match is by kernel release and hostname: said once
grep -q "matched by kernel release" "$live_tmp/pipe.err" ||
	live_fail "pipe: no warning that the vdso was matched by kernel release: $(cat "$live_tmp/pipe.err")"
[ "$checked" -gt 0 ] || live_skip "perf named no [vdso] frame in either recording"
live_finish
