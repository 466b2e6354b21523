#!/bin/sh
# t-markers-java.sh: a Java program that repeats a task 50 times and
# writes a marker file, one span per iteration (tests/live/MarkerLoop.java:
# rounds of examples/java/Warmup.java's pipeline, the same work in every
# iteration; marker-PID-iter.txt in its working directory, next to
# perf.data, lines "START END iteration K" in System.nanoTime() ns),
# recorded with a perf map (-XX:+DumpPerfMapAtExit, moved next to perf.data
# once written); then:
#  - "jitsym tiers --by marker" (JSON and CSV) has 50 span groups for the
#    java process, numbered 1..50, named "iteration 1".."iteration 50", in
#    time order and at the file's times; the CSV's groups and totals are
#    the JSON's; the groups and the samples in no span (the warning's
#    count) add up to perf record's samples;
#  - the interpreted share (self, category "interpreted"; and the
#    interpreted innermost) of the first 5 iterations together is above
#    that of the last 5, which is below 5%, and iteration 1 is at least
#    half interpreted;
#  - "jitsym timeline" (Firefox Profiler format) passes
#    tests/tools/check-timeline.py and has exactly 50 UserMarker markers,
#    named "iteration 1".."iteration 50" in time order, intervals at the
#    file's times to the ns, all on the process's busiest thread (the
#    track the profiler opens on), in one chart row named after the file's
#    tag ("iter")
#    when that has samples, else its first thread.
# The warm-up is structural, as in t-tiers-java.sh: -Xbatch compiles in
# the foreground and the Tier3 thresholds count invocations, not time:
# 20000 calls of each stage, the rounds of iterations 1 and 2 at the
# default 10000 rounds an iteration (MARKERS_JAVA_ROUNDS), all in the
# interpreter; from iteration 3 on compiled (C1, then C2), and nothing in
# the loop allocates or branches, so nothing falls back. Measured over 23
# runs (JDK 17 and 25, a loaded machine): iteration 1 95-100% interpreted
# (the rest kernel and native frames), the first 5 together 81-89% (the
# compilers' threads run in iteration 3), the last 5 0-0.7% (a sample of
# task()'s loop, interpreted until it enters its OSR code).
# TAP lines (tests/tap.sh). Skips (77) when perf cannot record, python3,
# java or javac are missing, or java has no DumpPerfMapAtExit (JDK 17+).
set -eu
# shellcheck source=../tap.sh source-path=SCRIPTDIR
. "$(dirname "$0")/../tap.sh"
# lib.sh's temp dir and traps take over from tap.sh's
rmdir "$tmp"
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
# shellcheck source=tiers-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/tiers-lib.sh"

live_init markers-java
[ "${LIVE_SELF_CHECK:-0}" = 1 ] && live_skip "LIVE_SELF_CHECK=1: nothing to check without jitsym"
live_find_jitsym
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || live_skip "no '$PYTHON' (Debian package 'python3')"
live_require_perf
live_java_check || live_skip "$live_java_why"

run=$live_tmp/run
mkdir "$run"
"$JAVAC" -d "$run" "$live_top/examples/java/Warmup.java" "$live_here/MarkerLoop.java" \
	>"$live_tmp/javac.log" 2>&1 ||
	{ live_show "$live_tmp/javac.log" >&2; live_hard_error "javac MarkerLoop.java Warmup.java failed"; }
# the perf map java writes to /tmp: moved next to perf.data (where jitsym
# looks too) once written; removed at exit, whatever happens
pid=
# shellcheck disable=SC2317 # (called by the trap)
on_exit() {
	on_exit_rc=$?
	[ -z "$pid" ] || rm -f "/tmp/perf-$pid.map"
	live_on_exit "$on_exit_rc"
}
trap on_exit EXIT

iterations=50
rounds=${MARKERS_JAVA_ROUNDS:-10000}
data=$run/perf.data
(cd "$run" && live_record "$data" "$JAVA" -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
	-XX:+PreserveFramePointer -Xbatch -XX:Tier3InvocationThreshold=20000 \
	-XX:Tier3MinInvocationThreshold=20000 -XX:Tier3CompileThreshold=20000 \
	-cp . MarkerLoop "$iterations" "$rounds")
live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$data.stderr" | tail -n 1)
pid=$(tiers_main_pid "$data")
[ -f "/tmp/perf-$pid.map" ] || live_hard_error "java (pid $pid) wrote no /tmp/perf-$pid.map"
mv "/tmp/perf-$pid.map" "$run/"
markers=$run/marker-$pid-iter.txt
[ -f "$markers" ] || live_hard_error "java (pid $pid) wrote no $markers"
[ "$(wc -l <"$markers")" -eq "$iterations" ] ||
	live_hard_error "$markers has $(wc -l <"$markers") lines, not $iterations"
live_say "java pid $pid, $live_samples samples, $iterations spans in $markers"

# kv FILE NAME: the value of NAME= in FILE (the first line)
kv() {
	sed -n "s/^$2=//p" "$1" | head -n 1
}

# ---- jitsym tiers --by marker ---------------------------------------------
tj=$live_tmp/tiers.json
tc=$live_tmp/tiers.csv
if ! live_jitsym tiers --by marker --format json "$data" >"$tj" 2>"$tj.stderr" ||
   ! live_jitsym tiers --by marker --format csv "$data" >"$tc" 2>"$tc.stderr"; then
	live_show "$tj.stderr" >&2
	live_show "$tc.stderr" >&2
	bad "jitsym tiers --by marker failed"
else
	ok "jitsym tiers --by marker wrote JSON and CSV"
	live_jitsym tiers --by marker "$data" >"$live_tmp/tiers.table" 2>/dev/null ||
		bad "jitsym tiers --by marker (table) failed"
	# the first groups' and the last one's heading lines
	grep -E '^[^ #].* #[0-9]+ ' "$live_tmp/tiers.table" | sed -n '1,4s/^/    /p;$s/^/    /p'
	tk=$live_tmp/tiers.kv
	"$PYTHON" - "$tj" "$tc" "$tj.stderr" "$markers" "$pid" "$iterations" >"$tk" 2>"$tk.stderr" <<'PYEOF' ||
import csv, json, re, sys

json_path, csv_path, stderr_path, markers_path, pid, n = sys.argv[1:7]
pid, n = int(pid), int(n)
with open(json_path, encoding="utf-8") as f:
    d = json.load(f)
with open(markers_path, encoding="utf-8") as f:
    spans = [(int(a), int(b), c) for a, b, c in (l.rstrip("\n").split(" ", 2) for l in f)]
groups = [g for g in d["groups"] if g["pid"] == pid]
print("groups=%d" % len(groups))
print("groups_all=%d" % len(d["groups"]))
print("spanless=%d" % sum(1 for g in groups if not g.get("span")))
groups = [g for g in groups if g.get("span")]
groups.sort(key=lambda g: g["span"]["number"])
numbers = [g["span"]["number"] for g in groups]
names = [g["span"]["name"] for g in groups]
print("numbered=%s" % str(numbers == list(range(1, n + 1))).lower())
print("named=%s" % str(names == ["iteration %d" % k for k in numbers]).lower())
starts = [g["span"]["start_s"] for g in groups]
print("ordered=%s" % str(starts == sorted(starts)).lower())
# the spans' times (s from t0, 6 decimals) against the file's, from the first
worst = 0.0
if len(groups) == len(spans) and groups:
    for g, (a, b, _) in zip(groups, spans):
        for got, want in ((g["span"]["start_s"] - groups[0]["span"]["start_s"], (a - spans[0][0]) / 1e9),
                          (g["span"]["end_s"] - groups[0]["span"]["start_s"], (b - spans[0][0]) / 1e9)):
            worst = max(worst, abs(got - want))
    print("times_off_us=%.3f" % (worst * 1e6))
else:
    print("times_off_us=none")

# the CSV: the same groups (tid = span number, span = name), the same totals
csv_tot = {}
with open(csv_path, encoding="utf-8", newline="") as f:
    rows = list(csv.reader(f))
print("csv_header=%s" % ",".join(rows[0]))
for r in rows[1:]:
    if int(r[2]) == pid:
        k = (int(r[3]), r[9])
        csv_tot[k] = csv_tot.get(k, 0) + int(r[7])
json_tot = {(g["span"]["number"], g["span"]["name"]): g["total"]["samples"] for g in groups}
print("csv_equal=%s" % str(csv_tot == json_tot).lower())

# every sample once: the groups' (all processes') and those in no span
m = None
with open(stderr_path, encoding="utf-8") as f:
    m = re.search(r"(\d+) samples in no marker span", f.read())
outside = int(m.group(1)) if m else 0
print("outside=%d" % outside)
print("counted=%d" % (sum(g["total"]["samples"] for g in d["groups"]) + outside))


def share(gs, innermost):
    tot = sum(g["total"]["samples"] for g in gs)
    if innermost:
        k = sum(g["inclusive_interpreted"]["total_samples"] for g in gs)
    else:
        k = sum(s["total_samples"] for g in gs for s in g["series"] if s["category"] == "interpreted")
    return 100.0 * k / tot if tot else -1.0


for tag, inner in (("self", False), ("inner", True)):
    print("%s_first1=%.1f" % (tag, share(groups[:1], inner)))
    print("%s_first5=%.1f" % (tag, share(groups[:5], inner)))
    print("%s_last5=%.1f" % (tag, share(groups[-5:], inner)))
print("series=%s" % " ".join("%d:%.0f%%/%d" % (g["span"]["number"], share([g], False), g["total"]["samples"])
                             for g in groups))
PYEOF
		{ live_show "$tk.stderr" 20 >&2; live_hard_error "cannot read jitsym tiers' output"; }
	echo "# interpreted share per iteration (iteration:share/samples): $(kv "$tk" series)"
	if [ "$(kv "$tk" groups)" = "$iterations" ] && [ "$(kv "$tk" spanless)" = 0 ] &&
	   [ "$(kv "$tk" numbered)" = true ] && [ "$(kv "$tk" named)" = true ] &&
	   [ "$(kv "$tk" ordered)" = true ]; then
		ok "tiers: $iterations span groups for java $pid, numbered 1..$iterations, named 'iteration 1'..'iteration $iterations', in time order"
	else
		bad "tiers: java $pid: $(kv "$tk" groups) groups ($(kv "$tk" spanless) without a span), numbered 1..$iterations: $(kv "$tk" numbered), named so: $(kv "$tk" named), in order: $(kv "$tk" ordered)"
	fi
	# 6 decimals of seconds on each side: 1 us apart at most, 2 counting both
	off=$(kv "$tk" times_off_us)
	if [ "$off" != none ] && awk -v o="$off" 'BEGIN { exit !(o <= 2) }'; then
		ok "tiers: the spans at the marker file's times ($off us off at most)"
	else
		bad "tiers: the spans not at the marker file's times ($off us off)"
	fi
	if [ "$(kv "$tk" csv_header)" = start_s,end_s,pid,tid,comm,category,tier,samples,weight,span ] &&
	   [ "$(kv "$tk" csv_equal)" = true ]; then
		ok "tiers: CSV has the JSON's span groups and totals"
	else
		bad "tiers: CSV header '$(kv "$tk" csv_header)', groups and totals as JSON's: $(kv "$tk" csv_equal)"
	fi
	if [ "$(kv "$tk" counted)" = "$live_samples" ]; then
		ok "tiers: $live_samples samples: in the $(kv "$tk" groups_all) groups, or among the $(kv "$tk" outside) in no span"
	else
		bad "tiers: $(kv "$tk" counted) samples in the groups and outside the spans ($(kv "$tk" outside)), perf record took $live_samples"
	fi
	for t in self inner; do
		f1=$(kv "$tk" "${t}_first1")
		f5=$(kv "$tk" "${t}_first5")
		l5=$(kv "$tk" "${t}_last5")
		what=interpreted
		[ "$t" = self ] || what="interpreted innermost"
		if awk -v a="$f1" -v f="$f5" -v l="$l5" 'BEGIN { exit !(a >= 50 && f > l && l >= 0 && l < 5) }'; then
			ok "tiers: $what share falls: iteration 1 $f1%, iterations 1-5 $f5%, $((iterations - 4))-$iterations $l5%"
		else
			bad "tiers: $what share: iteration 1 $f1% (want >= 50), iterations 1-5 $f5%, $((iterations - 4))-$iterations $l5% (want below both it and 5%)"
		fi
	done
fi

# ---- jitsym timeline: the Firefox Profiler's markers ----------------------
ff=$live_tmp/timeline.firefox.json
if ! live_jitsym timeline -o "$ff" "$data" 2>"$ff.stderr"; then
	live_show "$ff.stderr" >&2
	bad "jitsym timeline failed"
else
	ok "jitsym timeline wrote $(wc -c <"$ff") bytes"
	if chk=$("$PYTHON" "$live_top/tests/tools/check-timeline.py" "$ff" 2>&1); then
		ok "check-timeline.py: $chk"
	else
		printf '%s\n' "$chk" | sed -n '1,10s/^/    /p' >&2
		bad "check-timeline.py found broken invariants"
	fi
	fk=$live_tmp/timeline.kv
	"$PYTHON" - "$ff" "$markers" "$pid" "$iterations" >"$fk" 2>"$fk.stderr" <<'PYEOF' ||
import json, sys

ff_path, markers_path, pid, n = sys.argv[1:5]
n = int(n)
with open(ff_path, encoding="utf-8") as f:
    p = json.load(f)
with open(markers_path, encoding="utf-8") as f:
    spans = [(int(a), int(b), c) for a, b, c in (l.rstrip("\n").split(" ", 2) for l in f)]
strings = p["shared"]["stringArray"]
mine = [i for i, t in enumerate(p["threads"]) if t["pid"] == pid]
# the process's thread with the most samples (the first of them: the main thread first),
# the track the profiler opens on; a JVM's main thread only waits for main()'s
want = max(mine, key=lambda i: (p["threads"][i]["samples"]["length"], -i)) if mine else None
found = []   # (thread index, name, start, end, phase, source)
for i, t in enumerate(p["threads"]):
    m = t["markers"]
    for k in range(m["length"]):
        d = m["data"][k]
        if d and d.get("type") == "UserMarker":
            # the chart's row is the file's tag ("iter"), the span's name is in the payload
            found.append((i, d.get("name", ""), m["startTime"][k], m["endTime"][k],
                          m["phase"][k], d.get("source", ""), strings[m["name"][k]]))
print("threads=%d" % len(mine))
print("track=%s" % ("none" if want is None else "%s/%s %s (%d samples)" % (
    p["threads"][want]["pid"], p["threads"][want]["tid"], p["threads"][want]["name"],
    p["threads"][want]["samples"]["length"])))
print("markers=%d" % len(found))
print("on_track=%d" % sum(1 for f in found if f[0] == want))
found.sort(key=lambda f: f[2])
print("named=%s" % str([f[1] for f in found] == ["iteration %d" % k for k in range(1, n + 1)]).lower())
print("intervals=%s" % str(all(f[4] == 1 and f[3] is not None and f[3] >= f[2] for f in found)).lower())
print("sources=%s" % ",".join(sorted({f[5].rsplit("/", 1)[-1] for f in found})))
print("rows=%s" % ",".join(sorted({f[6] for f in found})))
# times in ms with 6 decimals: to the ns, from the first marker's start
ns = lambda ms: int(round(ms * 1e6))
if len(found) == len(spans) and found:
    z, zf = ns(found[0][2]), spans[0][0]
    off = sum(1 for f, s in zip(found, spans)
              if ns(f[2]) - z != s[0] - zf or ns(f[3]) - z != s[1] - zf)
    print("times_off=%d" % off)
else:
    print("times_off=none")
PYEOF
		{ live_show "$fk.stderr" 20 >&2; live_hard_error "cannot read jitsym timeline's file"; }
	if [ "$(kv "$fk" markers)" = "$iterations" ] && [ "$(kv "$fk" on_track)" = "$iterations" ] &&
	   [ "$(kv "$fk" named)" = true ] && [ "$(kv "$fk" intervals)" = true ] &&
	   [ "$(kv "$fk" sources)" = "marker-$pid-iter.txt" ] && [ "$(kv "$fk" rows)" = iter ]; then
		ok "firefox: $iterations UserMarker intervals 'iteration 1'..'iteration $iterations' from marker-$pid-iter.txt, in chart row 'iter', on track $(kv "$fk" track)"
	else
		bad "firefox: $(kv "$fk" markers) UserMarker markers, $(kv "$fk" on_track) on track $(kv "$fk" track) (java has $(kv "$fk" threads) threads); named in order: $(kv "$fk" named); intervals: $(kv "$fk" intervals); sources: $(kv "$fk" sources); rows: $(kv "$fk" rows)"
	fi
	if [ "$(kv "$fk" times_off)" = 0 ]; then
		ok "firefox: the markers at the marker file's times, to the ns"
	else
		bad "firefox: $(kv "$fk" times_off) markers not at the marker file's times"
	fi
fi

if [ "$fail" != 0 ]; then
	printf 'FAIL: %s: a check failed (not ok above)\n' "$live_name" >&2
	exit 1
fi
live_say "PASS"
exit 0
