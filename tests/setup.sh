# Sourced by every test (automake's AM_TESTS_ENVIRONMENT): a pinned,
# host-independent environment and the paths of the programs under test.
LC_ALL=C
TZ=UTC
export LC_ALL TZ
# jitsym's DWARF cache (src/resolve/dwarf-cache.h) off: no test writes to
# ~/.cache or reads what an earlier run left there; t-dwarf-cache turns it on.
JITSYM_CACHE_DIR=
export JITSYM_CACHE_DIR
# No test is told of debuginfod servers (Debian's login shells set
# DEBUGINFOD_URLS, and jitsym then says once that it did not use them):
# tests/live/t-debuginfod.sh starts its own and names it.
unset DEBUGINFOD_URLS
: "${abs_top_builddir:=$(pwd)}"
: "${abs_top_srcdir:=$(cd "${srcdir:-.}" && pwd)}"
JITSYM=${JITSYM:-$abs_top_builddir/jitsym}
MKPERF=${MKPERF:-$abs_top_builddir/tests/tools/mkperf}
MKJITDUMP=${MKJITDUMP:-$abs_top_builddir/tests/tools/mkjitdump}
NATIVE_DEMO=${NATIVE_DEMO:-$abs_top_builddir/examples/native/native-demo}
export abs_top_builddir abs_top_srcdir JITSYM MKPERF MKJITDUMP NATIVE_DEMO
# Valgrind, when configured with --enable-valgrind: wraps jitsym.
if [ -n "${VALGRIND:-}" ]; then
	JITSYM_WRAPPER="$VALGRIND -q --error-exitcode=99 --leak-check=full"
	export JITSYM_WRAPPER
fi
