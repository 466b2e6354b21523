#!/bin/sh
# Set everything up, build with warnings as errors and run every test;
# then build again with AddressSanitizer and UndefinedBehaviorSanitizer
# and run every test again, and with ThreadSanitizer the tests that use
# two threads; then build the libFuzzer targets with clang
# (--enable-fuzzing) and run each for 45 s (make fuzz-smoke). Exit
# status 0 only when all passed.
#
#   scripts/check.sh [--no-sanitize] [--no-fuzz] [--distcheck]
#
# --distcheck (CI) ends with make distcheck: the tarball builds and its
# hermetic tests pass; its live recordings skip, having run twice above.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sanitize=true fuzz=true distcheck=false
for a in "$@"; do
	case $a in
	--no-sanitize) sanitize=false ;;
	--no-fuzz) fuzz=false ;;
	--distcheck) distcheck=true ;;
	*) echo "usage: scripts/check.sh [--no-sanitize] [--no-fuzz] [--distcheck]" >&2; exit 1 ;;
	esac
done
jobs=$(nproc 2>/dev/null || echo 2)
# the builds below are out of tree, which an in-tree configure would block
if [ -f config.status ]; then
	echo "check: the source tree is configured in place; running make distclean first" >&2
	make -s distclean >/dev/null
fi

scripts/setup.sh
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || autoreconf -fi

build() { # dir, configure args...
	dir=$1; shift
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] && [ config.status -nt "$top/configure" ] || "$top/configure" -q "$@"; } &&
		make -s -j"$jobs" && make -s -j"$jobs" check ${check_tests:+"TESTS=$check_tests"}) || {
		for f in $(find "$dir" -name '*.log' ! -name config.log); do
			grep -qE ':test-result: (FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null && { echo "==== $f"; tail -50 "$f"; }
		done
		return 1
	}
	passed=$((passed + $(sed -n 's/^# PASS: *//p' "$dir/test-suite.log")))
	failed=$((failed + $(sed -n 's/^# FAIL: *//p' "$dir/test-suite.log")))
	skipped=$((skipped + $(sed -n 's/^# SKIP: *//p' "$dir/test-suite.log")))
	sed -n '/^# TOTAL/,/^# ERROR/p' "$dir/test-suite.log"
}
passed=0 failed=0 skipped=0 check_tests=

echo "== build with -Werror and test"
build build --enable-werror
if $sanitize; then
	echo "== build with ASan and UBSan and test"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		build build-san --enable-werror --enable-asan --enable-ubsan
	# the tests that run every command with --threads 2 (goldens both ways,
	# t-threads on a large recording) and the hand-off itself; a data race
	# stops jitsym with exit 66, which fails the test
	echo "== build with ThreadSanitizer and run the two-thread tests"
	check_tests="tests/golden/run.sh tests/cli/t-threads.sh tests/cli/t-multi.sh tests/unit/t-pipeline"
	TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1 \
		build build-tsan --enable-werror --enable-tsan
	check_tests=
fi
if $fuzz; then
	echo "== build the fuzz targets with clang and run each for 45 seconds"
	mkdir -p build-fuzz
	(cd build-fuzz && { [ -f Makefile ] && [ config.status -nt "$top/configure" ] ||
		CC=clang "$top/configure" -q --enable-fuzzing; } &&
		make -s -j"$jobs" && make -s fuzz-smoke)
fi
if $distcheck; then
	echo "== make distcheck"
	# the live recordings ran twice above (tests/live/lib.sh)
	(cd build && JITSYM_LIVE_RAN=1 make -s distcheck)
fi
echo "check: $passed passed, $failed failed, $skipped skipped"
