#!/bin/sh
# Regression inputs: every file under tests/corrupt/TARGET/ is an input a
# fuzz target once crashed on (named after what it triggered), and every
# seed under tests/fuzz/corpus/TARGET/ is replayed with them, through the
# target's code built as an ordinary program (tests/fuzz/replay-TARGET, see
# tests/fuzz/replay.c). In the ASan+UBSan build a sanitizer report aborts
# the replay. Fails if any replay does not exit 0.
set -u
. "$(dirname "$0")/../setup.sh"
fail=0
for t in perfdata jitdump perfmap pipeline unwind inline tarzst; do
	prog=$abs_top_builddir/tests/fuzz/replay-$t
	[ -x "$prog" ] || { echo "run.sh: '$prog' is not built" >&2; exit 99; }
	dirs=
	for d in "$abs_top_srcdir/tests/corrupt/$t" "$abs_top_srcdir/tests/fuzz/corpus/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	# shellcheck disable=SC2086
	if out=$("$prog" $dirs 2>&1); then
		echo "ok: $t: $(echo "$out" | tail -n 1)"
	else
		echo "FAIL: $t (exit $?)"; echo "$out" | tail -n 40
		fail=1
	fi
done
exit $fail
