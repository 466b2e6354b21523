#!/bin/sh
# make fuzz-smoke: run each libFuzzer target for SECONDS on a scratch copy
# of its seed corpus (tests/fuzz/corpus/TARGET/, never changed) with its
# dictionary (tests/fuzz/fuzz-TARGET.dict). Run from the build directory
# of a CC=clang --enable-fuzzing configuration; $srcdir is the source tree.
#
#   smoke.sh SECONDS TARGET...
#
# Fails if any target finds a crash, a leak, a timeout or runs out of
# memory; what triggered it is kept in fuzz-artifacts/TARGET/ (copy it to
# tests/corrupt/TARGET/ under a name that says what it triggered, once
# fixed).
set -u
[ $# -ge 2 ] || { echo "usage: smoke.sh SECONDS TARGET..." >&2; exit 2; }
secs=$1; shift
src=${srcdir:-.}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=
for t in "$@"; do
	prog=tests/fuzz/fuzz-$t
	[ -x "$prog" ] || { echo "smoke: '$prog' is not built" >&2; exit 2; }
	rm -rf "$scratch/corpus" "$scratch/artifacts"
	mkdir "$scratch/corpus" "$scratch/artifacts"
	cp "$src/tests/fuzz/corpus/$t/"* "$scratch/corpus/"
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$prog" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
		-dict="$src/tests/fuzz/fuzz-$t.dict" -artifact_prefix="$scratch/artifacts/" \
		-print_final_stats=1 "$scratch/corpus" >"$scratch/log" 2>&1
	rc=$?
	stats=$(grep -E '^#[0-9]+' "$scratch/log" | tail -n 1 | tr -s ' \t' ' ')
	if [ $rc -eq 0 ] && [ -z "$(ls "$scratch/artifacts")" ]; then
		echo "fuzz-smoke: $t: ok, ${secs}s: $stats"
		continue
	fi
	echo "fuzz-smoke: $t: FAILED (exit $rc): $stats"
	grep -E '^(==[0-9]+==|SUMMARY|.*runtime error)' "$scratch/log" | head -n 20
	tail -n 30 "$scratch/log"
	mkdir -p "fuzz-artifacts/$t"
	cp "$scratch/artifacts/"* "fuzz-artifacts/$t/" 2>/dev/null
	cp "$scratch/log" "fuzz-artifacts/$t/log"
	echo "fuzz-smoke: $t: inputs and log kept in fuzz-artifacts/$t/"
	failed="$failed $t"
done
[ -z "$failed" ] || { echo "fuzz-smoke: failed:$failed"; exit 1; }
