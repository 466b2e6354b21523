#!/bin/sh
# t-tiers-java.sh: record examples/java/Warmup.java (a task repeated over
# a pipeline of static methods that start in HotSpot's interpreter and are
# compiled as their counters pass the thresholds; see its header) twice:
#  (a) with a perf map, -XX:+DumpPerfMapAtExit;
#  (b) with perf's JVMTI agent, libperf-jvmti.so, built into the temp dir
#      from tools/perf/jvmti of the linux-source-6.1 .deb that
#      scripts/setup.sh caches in ~/.cache/jitsym (or $PERF_JVMTI, a built
#      one), which writes a jitdump; the agent also writes the code HotSpot
#      generates itself (DynamicCodeGenerated), the interpreter included;
# and check "jitsym tiers" on each (issue 13): interpreter and compiled
# code are both seen, the interpreted share of the first tenth of the
# intervals is above the last tenth's, the run has a plausible warm-up
# point (tiers_expect_warm: the JVM's exit in the partial last interval
# does not erase it), interval totals as in tiers-lib.sh.
# The warm-up is structural: -Xbatch compiles in the foreground and the
# Tier3 thresholds (raised so that the interpreted phase outlasts the JVM's
# startup) count invocations, not time. The perf map goes to /tmp and is
# removed afterwards. Skips (77) when perf cannot record, java/javac are
# missing or have no DumpPerfMapAtExit (JDK 17+); skips (b) alone when the
# agent cannot be built.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init "${TIERS_JAVA_NAME:-tiers-java}"
live_require_perf
live_find_jitsym
live_java_check || live_skip "$live_java_why"
jhome=$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVAC")")")")

run=$live_tmp/run
mkdir "$run"
"$JAVAC" -d "$run" "$live_top/examples/java/Warmup.java" >"$live_tmp/javac.log" 2>&1 ||
	{ live_show "$live_tmp/javac.log" >&2; live_hard_error "javac Warmup.java failed"; }
pids=
# the exit status first: the loop's would replace it
trap 'live_rc=$?; for p in $pids; do rm -f "/tmp/perf-$p.map"; done; live_on_exit $live_rc' EXIT
jvm_opts="-XX:+PreserveFramePointer -Xbatch -XX:Tier3InvocationThreshold=20000
	-XX:Tier3MinInvocationThreshold=20000 -XX:Tier3CompileThreshold=20000"
rounds=${TIERS_ROUNDS:-1000000}

# tiers_java DATA PID LABEL: the checks on one recording
tiers_java() {
	live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$1.stderr" | tail -n 1)
	tiers_run "$1" "$2"
	live_say "$3: series: $(tiers_series)"
	tiers_expect_falling interpreted
	tiers_seen Interpreter || live_fail "$3: no HotSpot Interpreter samples"
	tiers_seen compiled || live_fail "$3: no compiled (HotSpot) samples"
	tiers_expect_warm
	live_say "$3: warm after: $tiers_warm s; interpreted innermost: $(tiers_innermost)% of the samples"
}

# (a) perf map
data=$run/perfmap.data
# $jvm_opts: words, unquoted on purpose
# shellcheck disable=SC2086
(cd "$run" && live_record "$data" "$JAVA" -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
	$jvm_opts -cp . Warmup "$rounds")
pid=$(tiers_main_pid "$data")
[ -f "/tmp/perf-$pid.map" ] || live_hard_error "java (pid $pid) wrote no /tmp/perf-$pid.map"
pids="$pids $pid"
tiers_java "$data" "$pid" "perf map"

# (b) perf's JVMTI agent
agent=${PERF_JVMTI:-}
deb=$(ls "${HOME:-/root}"/.cache/jitsym/linux-source-6.1_*_all.deb 2>/dev/null | tail -n 1)
if [ -z "$agent" ] && [ -n "$deb" ]; then
	src=$live_tmp/src
	mkdir -p "$src/shim/linux"
	live_say "building libperf-jvmti.so from $deb"
	if dpkg-deb --fsys-tarfile "$deb" 2>/dev/null |
		tar -xO ./usr/src/linux-source-6.1.tar.xz 2>/dev/null |
		tar -xJ -C "$src" --wildcards 'linux-source-6.1/tools/perf/jvmti/*' \
			'linux-source-6.1/tools/perf/util/jitdump.h' 2>/dev/null; then
		# the agent includes two headers of perf's tools/include: its
		# attribute and strlcpy (lib/string.c there) are all it needs
		printf '#define __maybe_unused __attribute__((unused))\n' >"$src/shim/linux/compiler.h"
		cat >"$src/shim/linux/string.h" <<'CEOF'
#include <string.h>
static inline size_t strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (n) {
		size_t k = len < n - 1 ? len : n - 1;

		memcpy(d, s, k);
		d[k] = '\0';
	}
	return len;
}
CEOF
		p=$src/linux-source-6.1/tools/perf
		${CC:-cc} -O2 -fPIC -shared -I"$src/shim" -I"$jhome/include" -I"$jhome/include/linux" \
			-o "$src/libperf-jvmti.so" "$p/jvmti/libjvmti.c" "$p/jvmti/jvmti_agent.c" \
			>"$src/build.log" 2>&1 && agent=$src/libperf-jvmti.so
		[ -n "$agent" ] || live_show "$src/build.log" 10
	fi
fi
if [ -z "$agent" ] || [ ! -f "$agent" ]; then
	live_say "SKIP (b): no libperf-jvmti.so (no linux-source-6.1 .deb in ~/.cache/jitsym, or the build failed; set PERF_JVMTI)"
	live_finish
fi
data=$run/jvmti.data
mkdir "$run/jitdump"
# shellcheck disable=SC2086
(cd "$run" && JITDUMPDIR=$run/jitdump live_record "$data" "$JAVA" -agentpath:"$agent" \
	$jvm_opts -cp . Warmup "$rounds")
dump=$(find "$run/jitdump" -name 'jit-*.dump' | head -n 1)
[ -n "$dump" ] || live_hard_error "the JVMTI agent wrote no jitdump under $run/jitdump"
pid=$(basename "$dump" .dump)
pid=${pid#jit-}
live_jitsym sources "$data" 2>/dev/null | sed -n '/jitdump/p;/unresolved/p' | sed 's/^/    /'
tiers_java "$data" "$pid" "JVMTI"
live_finish
