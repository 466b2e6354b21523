#!/bin/sh
# t-timeline.sh: "jitsym timeline" on live recordings, its speedscope files
# loaded into the real speedscope app (npm package speedscope@1.25.0) in
# headless Chromium. Workloads, each a subtest that skips by itself when its
# runtime is missing:
#  - node: examples/node/warmup.js warming up (Ignition, Sparkplug,
#    TurboFan) under --perf-prof (jitdump) and --perf-basic-prof (perf map);
#  - java: examples/java/Warmup.java with -XX:+PreserveFramePointer and
#    -XX:+DumpPerfMapAtExit (a perf map), JDK 17+;
#  - python3.12: CPython 3.12 -X perf (a perf map), --call-graph dwarf;
#  - python3.13: CPython 3.13 -X perf_jit (a jitdump with unwinding info),
#    --call-graph dwarf;
#  - native: a two-thread C program built with -O2 -fno-omit-frame-pointer,
#    also written with --weight=period (speedscope's unit: nanoseconds).
# For each recording:
#  - jitsym timeline writes both formats, and tests/tools/check-timeline.py
#    finds their invariants hold (column lengths, indexes in range, parents
#    before children, versions);
#  - the Firefox Profiler file has, per thread (pid/tid), as many samples
#    as "jitsym fold --include-tid" counts, and fold as many as perf record
#    took;
#  - speedscope loads the speedscope file with no console error, draws it,
#    has one profile per thread, and the sum of each profile's weights (in
#    the app's state: speedscope merges equal neighbouring samples, adding
#    their weights) equals fold's count of that thread's samples.
# Counts only, compared exactly: nothing here depends on where the samples
# fell. TAP lines (tests/tap.sh); the whole test skips (77) when perf cannot
# record, or there is no Chromium, python3, or speedscope (npm install into
# ${JITSYM_CACHE:-~/.cache/jitsym}/speedscope-1.25.0 failed: no npm, or
# the registry unreachable; SPEEDSCOPE_APP may name an app folder,
# node_modules/speedscope/dist/release). The runtimes' side files in /tmp
# (perf-PID.map, jit-PID.dump) are moved into the temp dir, kept with
# LIVE_KEEP=1 with the files written and a screenshot of each load.
set -eu
# shellcheck source=../tap.sh source-path=SCRIPTDIR
. "$(dirname "$0")/../tap.sh"
# lib.sh's temp dir and traps take over from tap.sh's
rmdir "$tmp"
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init timeline
[ "${LIVE_SELF_CHECK:-0}" = 1 ] && live_skip "LIVE_SELF_CHECK=1: nothing to check without jitsym"
live_find_jitsym
# shellcheck source=browser-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/browser-lib.sh"
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || live_skip "no '$PYTHON' (Debian package 'python3')"
live_require_perf
LIVE_FREQ=${LIVE_FREQ:-999}
SECONDS_RUN=${LIVE_SECONDS:-1}
# side files the runtimes write to /tmp: removed at exit, whatever happens
junk=
# shellcheck disable=SC2317 # (called by the trap)
on_exit() {
	on_exit_rc=$?
	for f in $junk; do
		rm -f "$f"
	done
	live_on_exit "$on_exit_rc"
}
trap on_exit EXIT

# speedscope's static app, from npm, cached
SPEEDSCOPE_VERSION=1.25.0
if [ -n "${SPEEDSCOPE_APP:-}" ]; then
	app=$SPEEDSCOPE_APP
	[ -f "$app/index.html" ] || live_hard_error "SPEEDSCOPE_APP='$app' has no index.html"
else
	cache=${JITSYM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/jitsym}/speedscope-$SPEEDSCOPE_VERSION
	app=$cache/node_modules/speedscope/dist/release
	if [ ! -f "$app/index.html" ]; then
		command -v npm >/dev/null 2>&1 ||
			live_skip "no npm (Debian package 'npm') to install speedscope@$SPEEDSCOPE_VERSION"
		mkdir -p "$(dirname "$cache")"
		rm -rf "$cache"
		# installed beside the cache and moved there whole
		stage=$(mktemp -d "$cache.XXXXXX")
		live_say "npm install speedscope@$SPEEDSCOPE_VERSION into $cache"
		# npm's own cache first; a registry that does not answer is
		# given up in seconds, not after npm's default retries
		if ! timeout 300 npm install --prefix "$stage" --no-save --no-package-lock --no-audit \
			--no-fund --ignore-scripts --prefer-offline --fetch-retries=1 \
			--fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=5000 --fetch-timeout=60000 \
			"speedscope@$SPEEDSCOPE_VERSION" >"$live_tmp/npm.log" 2>&1; then
			live_show "$live_tmp/npm.log" 10
			rm -rf "$stage"
			live_skip "npm install speedscope@$SPEEDSCOPE_VERSION failed (no registry?):" \
				"$(grep -m 1 -i 'err' "$live_tmp/npm.log" || tail -n 1 "$live_tmp/npm.log")"
		fi
		grep -q "\"version\": *\"$SPEEDSCOPE_VERSION\"" \
			"$stage/node_modules/speedscope/package.json" 2>/dev/null ||
			{ rm -rf "$stage"; live_hard_error "npm installed no speedscope $SPEEDSCOPE_VERSION"; }
		[ -f "$stage/node_modules/speedscope/dist/release/index.html" ] ||
			{ rm -rf "$stage"; live_hard_error "speedscope $SPEEDSCOPE_VERSION has no dist/release/index.html"; }
		# (another run may have put it there first)
		[ -e "$cache" ] || mv "$stage" "$cache"
		rm -rf "$stage"
	fi
fi
live_say "speedscope app: $app ($(sed -n 1p "$app/release.txt" 2>/dev/null))"
chromium_path=$(command -v "$CHROMIUM")

ran=0

# main_pid DATA: the pid with the most samples (the recorded command's)
main_pid() {
	"$PERF" script -i "$1" -F pid 2>/dev/null |
		awk '{ n[$1]++ } END { for (p in n) if (n[p] > m) { m = n[p]; b = p }; print b }'
}

# side_file FILE: a file the runtime wrote to /tmp, removed at exit;
# keep_side_files DIR: those files moved into DIR (the recording's), once
# checked
side_file() {
	junk="$junk $1"
}
keep_side_files() {
	for f in $junk; do
		if [ -f "$f" ]; then
			mv -f "$f" "$1/" 2>/dev/null || rm -f "$f"
		fi
	done
	junk=
}

# compare LABEL DATA FF SS LOAD FOLD: the counts of the files and of
# speedscope's state against fold's, per thread; writes NAME=VALUE lines
compare() {
	"$PYTHON" - "$@" <<'PYEOF'
import json, re, sys

label, data, ff_path, ss_path, load_path, fold_path = sys.argv[1:7]


def tid_key(pid, tid):
    return "%s/%s" % (pid, tid)


# fold --include-tid: "comm-PID/TID;frame;... COUNT"
fold = {}
with open(fold_path, encoding="utf-8", errors="replace") as f:
    for line in f:
        stack, _, n = line.rstrip("\n").rpartition(" ")
        m = re.search(r"-(\d+)/(\d+)$", stack.split(";", 1)[0])
        if not m:
            print("bad=fold line without comm-PID/TID: %r" % line[:120])
            continue
        k = tid_key(m.group(1), m.group(2))
        fold[k] = fold.get(k, 0) + int(n)

with open(ff_path, encoding="utf-8") as f:
    ff = json.load(f)
ffc = {}
cats = ff["meta"]["categories"]
frame_cat = ff["shared"]["frameTable"]["category"]
stack_frame = ff["shared"]["stackTable"]["frame"]
leaf = {}
for t in ff["threads"]:
    s = t["samples"]
    w = s.get("weight")
    k = tid_key(t["pid"], t["tid"])
    if not w:
        n = s["length"]
    elif s["weightType"] == "tracing-ms":
        # periods in ns written as ms (to the ns): back to fold's ns
        n = sum(int(round(x * 1e6)) for x in w)
    else:
        n = sum(w)
    ffc[k] = ffc.get(k, 0) + n
    for st in s["stack"]:
        name = "no stack" if st is None else cats[frame_cat[stack_frame[st]]]["name"]
        leaf[name] = leaf.get(name, 0) + 1

with open(ss_path, encoding="utf-8") as f:
    ss = json.load(f)
ss_names = [p["name"] for p in ss["profiles"]]
ss_file = sum(sum(p["weights"]) for p in ss["profiles"])

with open(load_path, encoding="utf-8") as f:
    ld = json.load(f)
app = {}
app_samples = 0
for p in ld.get("profiles") or []:
    m = re.search(r"\((\d+)/(\d+)\)$", p.get("name") or "")
    if not m or p.get("weights_sum") is None:
        print("bad=speedscope profile %r: no pid/tid or weights" % p.get("name"))
        continue
    k = tid_key(m.group(1), m.group(2))
    app[k] = app.get(k, 0) + p["weights_sum"]
    app_samples += p.get("samples") or 0


def mismatches(got):
    out = []
    for k in sorted(set(fold) | set(got)):
        if fold.get(k, 0) != got.get(k, 0):
            out.append("%s fold %d, %d" % (k, fold.get(k, 0), got.get(k, 0)))
    return "; ".join(out[:5]) or "none"


print("fold_total=%d" % sum(fold.values()))
print("fold_threads=%d" % len(fold))
print("ff_total=%d" % sum(ffc.values()))
print("ff_threads=%d" % len(ff["threads"]))
print("ff_mismatch=%s" % mismatches(ffc))
print("ss_file_total=%d" % ss_file)
print("ss_file_profiles=%d" % len(ss_names))
print("app_loaded=%s" % str(ld.get("loaded")).lower())
print("app_status=%s" % ld.get("status"))
print("app_version=%s" % ld.get("app_version"))
print("app_errors=%d" % len(ld.get("console_errors") or []))
for e in (ld.get("console_errors") or [])[:3]:
    print("app_error=%s" % " ".join(str(e).split())[:300])
print("app_profiles=%d" % len(ld.get("profiles") or []))
print("app_names_equal=%s" % str([p.get("name") for p in ld.get("profiles") or []] == ss_names).lower())
print("app_total=%d" % sum(app.values()))
print("app_samples=%d" % app_samples)
print("app_units=%s" % ",".join(sorted({str(p.get("unit")) for p in ld.get("profiles") or []})))
print("app_mismatch=%s" % mismatches(app))
print("leaf_categories=%s" % ", ".join("%s %d" % kv for kv in sorted(leaf.items(), key=lambda kv: -kv[1])))
frames = ss["shared"]["frames"]
print("ss_frames=%d" % len(frames))
print("ss_functions=%d" % len({(fr["name"], fr.get("file")) for fr in frames}))
PYEOF
}

# kv NAME: the value of NAME= in $cmp_out (the first line)
kv() {
	sed -n "s/^$1=//p" "$cmp_out" | head -n 1
}

# check LABEL DATA FRAME_RE [FOLD/TIMELINE OPTION]: every check on one
# recording; FRAME_RE, a frame the workload's side file names (a warning
# when missing)
check() {
	lbl=$1
	d=$2
	frame_re=$3
	wopt=${4:-}
	out=$live_tmp/$lbl
	ss=$out.speedscope.json
	ff=$out.firefox.json
	cmp_out=$out.compare
	# $wopt: a word or nothing, unquoted on purpose (here and below)
	# shellcheck disable=SC2086
	if ! live_jitsym timeline $wopt --format speedscope -o "$ss" "$d" 2>"$ss.stderr" ||
	   ! live_jitsym timeline $wopt -o "$ff" "$d" 2>"$ff.stderr"; then
		live_show "$ss.stderr" >&2
		live_show "$ff.stderr" >&2
		bad "$lbl: jitsym timeline${wopt:+ $wopt} failed"
		return 0
	fi
	ok "$lbl: jitsym timeline${wopt:+ $wopt} wrote both formats ($(wc -c <"$ff") and $(wc -c <"$ss") bytes)"
	if chk=$("$PYTHON" "$live_top/tests/tools/check-timeline.py" "$ff" "$ss" 2>&1); then
		ok "$lbl: check-timeline.py: $(printf '%s\n' "$chk" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
	else
		printf '%s\n' "$chk" | sed -n '1,10s/^/    /p' >&2
		bad "$lbl: check-timeline.py found broken invariants"
	fi
	# shellcheck disable=SC2086
	live_jitsym fold $wopt --include-tid "$d" >"$out.fold" 2>"$out.fold.stderr" ||
		{ live_show "$out.fold.stderr" >&2; bad "$lbl: jitsym fold failed"; return 0; }
	load=0
	"$PYTHON" "$live_here/speedscope-load.py" --app "$app" --chromium "$chromium_path" \
		--screenshot "$out.speedscope.png" "$ss" >"$out.load.json" 2>"$out.load.stderr" || load=$?
	if [ "$load" -eq 2 ]; then
		live_show "$out.load.stderr" >&2
		live_show "$out.load.json" 20 >&2
		live_hard_error "speedscope-load.py could not run (setup problem, above)"
	fi
	compare "$lbl" "$d" "$ff" "$ss" "$out.load.json" "$out.fold" >"$cmp_out" 2>"$cmp_out.stderr" ||
		{ live_show "$cmp_out.stderr" 20 >&2; bad "$lbl: cannot compare the counts"; return 0; }
	if grep '^bad=' "$cmp_out" >&2; then
		bad "$lbl: unexpected names (above)"
	fi
	fold_total=$(kv fold_total)
	fold_threads=$(kv fold_threads)
	echo "# $lbl: leaf categories (Firefox file): $(kv leaf_categories)"
	echo "# $lbl: speedscope file: $(kv ss_frames) frames for $(kv ss_functions) functions (name and file)"

	# fold against perf record's own count (sample counts only)
	if [ -z "$wopt" ]; then
		perf_n=$(sed -n "$LIVE_RE_SAMPLES" "$d.stderr" | tail -n 1)
		if [ "${perf_n:-x}" = "$fold_total" ]; then
			ok "$lbl: jitsym fold counts perf record's $perf_n samples, in $fold_threads threads"
		else
			bad "$lbl: jitsym fold counts $fold_total samples, perf record took ${perf_n:-?}"
		fi
	fi
	# the Firefox Profiler's file, per thread
	if [ "$(kv ff_total)" = "$fold_total" ] && [ "$(kv ff_mismatch)" = none ] &&
	   [ "$(kv ff_threads)" = "$fold_threads" ]; then
		ok "$lbl: firefox: $(kv ff_threads) threads, $fold_total ${wopt:+weight, }as fold per thread"
	else
		bad "$lbl: firefox: $(kv ff_threads) threads, $(kv ff_total); fold: $fold_threads threads, $fold_total; per thread: $(kv ff_mismatch)"
	fi
	# speedscope: loaded, drawn, no console error
	if [ "$load" -eq 0 ] && [ "$(kv app_loaded)" = true ] && [ "$(kv app_errors)" = 0 ]; then
		ok "$lbl: speedscope $(kv app_version) loaded $(kv app_profiles) profiles (unit $(kv app_units)), 0 console errors"
	else
		sed -n 's/^app_error=/    /p' "$cmp_out" >&2
		live_show "$out.load.json" 30 >&2
		bad "$lbl: speedscope: status $(kv app_status), loaded $(kv app_loaded), $(kv app_errors) console errors"
	fi
	# speedscope's state: a profile per thread, the weights as fold's
	if [ "$(kv app_total)" = "$fold_total" ] && [ "$(kv app_mismatch)" = none ] &&
	   [ "$(kv app_profiles)" = "$fold_threads" ] && [ "$(kv app_names_equal)" = true ] &&
	   [ "$(kv ss_file_total)" = "$fold_total" ]; then
		ok "$lbl: speedscope's weights: $fold_total in $(kv app_profiles) profiles ($(kv app_samples) samples after merging equal neighbours), as fold per thread"
	else
		bad "$lbl: speedscope's weights: $(kv app_total) in $(kv app_profiles) profiles (file: $(kv ss_file_total) in $(kv ss_file_profiles)); fold: $fold_total in $fold_threads threads; per thread: $(kv app_mismatch)"
	fi
	# the workload's own frames, named (a warning only: where samples fall)
	grep -qE "$frame_re" "$ss" ||
		live_say "warning: no frame matching '$frame_re' in $ss"
	ran=$((ran + 1))
}

# ---- node: a warming workload, jitdump and perf map -----------------------
NODE=${NODE:-node}
if ! command -v "$NODE" >/dev/null 2>&1; then
	echo "ok - node # SKIP no '$NODE' (Debian package 'nodejs')"
else
	run=$live_tmp/node
	mkdir "$run"
	cp "$live_top/examples/node/warmup.js" "$run/"
	data=$run/perf.data
	# node writes jit-PID.dump into its working directory, perf-PID.map
	# into /tmp; the budget factor and synchronous compilation as in
	# t-tiers-node.sh: the stages leave Ignition rounds into the run
	(unset NODE_EXTRA_CA_CERTS NODE_OPTIONS; cd "$run" &&
		live_record "$data" "$NODE" --perf-prof --perf-basic-prof \
		--interpreted-frames-native-stack \
		--interrupt-budget-factor-for-feedback-allocation=6000 \
		--no-concurrent-recompilation warmup.js "${TIMELINE_NODE_ROUNDS:-200000}")
	pid=$(main_pid "$data")
	side_file "/tmp/perf-$pid.map"
	[ -f "$run/jit-$pid.dump" ] || live_hard_error "node (pid $pid) wrote no jit-$pid.dump in $run"
	[ -f "/tmp/perf-$pid.map" ] || live_hard_error "node (pid $pid) wrote no /tmp/perf-$pid.map"
	check node "$data" '"JS:[*^+~]'
	keep_side_files "$run"
fi

# ---- java: HotSpot with a perf map --------------------------------------
if ! live_java_check; then
	echo "ok - java # SKIP $live_java_why"
else
	run=$live_tmp/java
	mkdir "$run"
	"$JAVAC" -d "$run" "$live_top/examples/java/Warmup.java" >"$live_tmp/javac.log" 2>&1 ||
		{ live_show "$live_tmp/javac.log" >&2; live_hard_error "javac Warmup.java failed"; }
	data=$run/perf.data
	# -Xbatch and the Tier3 thresholds as in t-tiers-java.sh: interpreted,
	# then compiled, rounds into the run
	(cd "$run" && live_record "$data" "$JAVA" -XX:+UnlockDiagnosticVMOptions \
		-XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -Xbatch \
		-XX:Tier3InvocationThreshold=20000 -XX:Tier3MinInvocationThreshold=20000 \
		-XX:Tier3CompileThreshold=20000 -cp . Warmup "${TIMELINE_JAVA_ROUNDS:-300000}")
	pid=$(main_pid "$data")
	side_file "/tmp/perf-$pid.map"
	[ -f "/tmp/perf-$pid.map" ] || live_hard_error "java (pid $pid) wrote no /tmp/perf-$pid.map"
	check java "$data" '"(int|void) Warmup\.'
	keep_side_files "$run"
fi

# ---- CPython 3.12 -X perf, 3.13 -X perf_jit --------------------------------
# find_python MINOR: $PYTHON3MINOR, pyenv's 3.MINOR.*, or python3.MINOR
find_python() {
	eval "fp=\${PYTHON3$1:-}"
	if [ -z "$fp" ] && command -v pyenv >/dev/null 2>&1; then
		fp=$(ls -d "$(pyenv root)"/versions/3."$1".*/bin/python3."$1" 2>/dev/null | tail -n 1)
	fi
	[ -n "$fp" ] || fp=$(command -v python3."$1" 2>/dev/null || true)
	[ -n "$fp" ] && [ -x "$fp" ] && "$fp" -c "import sys; sys.exit(sys.version_info[:2] != (3, $1))" ||
		fp=
}
cp "$live_top/tests/live/python-loop.py" "$live_tmp/w.py"
for minor in 12 13; do
	lbl=python3.$minor
	find_python "$minor"
	if [ -z "$fp" ]; then
		echo "ok - $lbl # SKIP no CPython 3.$minor (\$PYTHON3$minor, pyenv 3.$minor.*, python3.$minor in PATH)"
		continue
	fi
	run=$live_tmp/$lbl
	mkdir "$run"
	cp "$live_tmp/w.py" "$run/"
	data=$run/perf.data
	xopt=perf
	[ "$minor" = 12 ] || xopt=perf_jit
	# pyenv's CPython keeps no frame pointers: dwarf stacks (3.13's
	# trampolines have unwinding info in the jitdump, 3.12's none)
	(cd "$run" && LIVE_CALLGRAPH='--call-graph dwarf,16384' &&
		live_record "$data" "$fp" -X "$xopt" w.py "$SECONDS_RUN")
	pid=$(main_pid "$data")
	if [ "$minor" = 12 ]; then
		side_file "/tmp/perf-$pid.map"
		[ -f "/tmp/perf-$pid.map" ] || live_hard_error "$lbl (pid $pid) wrote no /tmp/perf-$pid.map"
	else
		side_file "/tmp/jit-$pid.dump"
		[ -f "/tmp/jit-$pid.dump" ] || live_hard_error "$lbl (pid $pid) wrote no /tmp/jit-$pid.dump"
	fi
	check "$lbl" "$data" '"py::(leaf|middle|outer):'
	keep_side_files "$run"
done

# ---- native: two threads of C with frame pointers -------------------------
live_cc=${CC:-cc}
if ! command -v "${live_cc%% *}" >/dev/null 2>&1; then
	echo "ok - native # SKIP no C compiler '$live_cc'"
else
	run=$live_tmp/native
	mkdir "$run"
	# no libc call in the loops (glibc keeps no frame pointers), and frame
	# pointers in leaf functions too: whole stacks
	cat >"$run/spin.c" <<'CEOF'
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile int stop;
static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t hash_block(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

__attribute__((noinline)) static uint64_t hash_round(unsigned char *buf, size_t n)
{
	uint64_t h = hash_block(buf, n);

	buf[h % n]++;
	return h;
}

__attribute__((noinline)) static void shell_sort(unsigned *v, size_t n)
{
	for (size_t gap = n / 2; gap; gap /= 2)
		for (size_t i = gap; i < n; i++)
			for (size_t j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
				unsigned t = v[j];

				v[j] = v[j - gap];
				v[j - gap] = t;
			}
}

__attribute__((noinline)) static void sort_round(unsigned *v, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = seed = seed * 1103515245u + 12345u;
	shell_sort(v, n);
	sink += v[n / 2];
}

static void *worker(void *arg)
{
	static unsigned v[4096];
	unsigned seed = 1;

	(void)arg;
	while (!stop)
		sort_round(v, 4096, seed++);
	return NULL;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 1.0);
	static unsigned char buf[65536];
	pthread_t t;

	memset(buf, 7, sizeof(buf));
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	while (now() < end)
		sink += hash_round(buf, sizeof(buf));
	stop = 1;
	pthread_join(t, NULL);
	return 0;
}
CEOF
	# $live_cc is a word list: unquoted on purpose
	# shellcheck disable=SC2086
	$live_cc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -pthread -o "$run/spin" "$run/spin.c" \
		>"$live_tmp/cc.log" 2>&1 ||
		{ live_show "$live_tmp/cc.log" >&2; live_hard_error "cannot build spin.c"; }
	data=$run/perf.data
	(cd "$run" && live_record "$data" ./spin "$SECONDS_RUN")
	check native "$data" '"(hash_block|shell_sort)[".]'
	# periods: speedscope's weights in nanoseconds, as fold's periods
	check native-period "$data" '"hash_block[".]' --weight=period
fi

[ "$ran" -gt 0 ] || live_skip "no workload could run (no node, java, CPython 3.12/3.13 or C compiler)"
if [ "$fail" != 0 ]; then
	printf 'FAIL: %s: a check failed (not ok above)\n' "$live_name" >&2
	exit 1
fi
live_say "PASS ($ran recordings)"
exit 0
