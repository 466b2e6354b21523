#!/bin/bash
# bench/run.sh: jitsym's benchmark. Builds a corpus of perf recordings on
# this machine, then times jitsym (fold, script, pprof) against perf's own
# pipelines on each recording and prints a markdown table.
#
#   bench/run.sh [--sizes small,medium,large,dwarf,dwarf-small] [--kinds node,native,java]
#                [--scaling] [--out DIR] [--jitsym PATH] [--jitsym-args ARGS]
#                [--reps N] [--tools LIST] [--dwarf-cache warm|cold|off]
#                [--rerecord] [--smoke]
#
#   --sizes LIST   size tiers to record and measure (default: small,medium,large)
#                  small ~4 MB, medium ~60 MB, large ~600 MB of perf.data,
#                  large250 ~250 MB (the size issue 14 quotes); large and
#                  large250 are recorded for node only; dwarf: ~200 MB
#                  "--call-graph dwarf" recordings of node and native;
#                  dwarf-small: ~35 MB ones (plain perf script, which asks
#                  addr2line about inlined functions, in minutes, not an hour)
#   --kinds LIST   workloads (default: node,native,java)
#   --scaling      also record node at 1x, 4x and 16x one duration and time
#                  jitsym's commands and perf script on each (only
#                  --scaling: --sizes none)
#   --out DIR      corpus, scratch space and results (default /tmp/jitsym-bench)
#   --jitsym PATH  binary under test (default: build/jitsym of this checkout)
#   --jitsym-args ARGS
#                  more options for every jitsym command, split at blanks
#                  (e.g. "--threads 1" for the single-threaded path)
#   --reps N       repetitions of every measurement (default: 3 for small,
#                  medium and the scaling runs, 1 for large); the table
#                  gives medians
#   --tools LIST   tools to time, in this order within a repetition (default
#                  jitsym-fold,perf-inject,jitsym-script,perf-script,jitsym-pprof;
#                  for the dwarf recordings
#                  jitsym-fold,perf-collapse,jitsym-script,perf-script-noinline)
#   --dwarf-cache warm|cold|off
#                  jitsym's DWARF cache (compressed debug sections, inflated,
#                  kept between runs: JITSYM_CACHE_DIR), in DIR/scratch.PID/
#                  jitsym-cache: warm (default) empties it before each
#                  recording's measurements, so the first jitsym run fills it
#                  and the others read it, as on a user's machine; cold
#                  empties it before every jitsym run; off turns it off
#   --rerecord     record again even when DIR holds a recording
#   --smoke        make bench-smoke: --sizes smoke (node with 2000 functions,
#                  native and java, ~2 MB each), one repetition, all tools,
#                  results in DIR/smoke-results.md; exit 1 if any tool
#                  fails, 0 with a SKIP line when perf cannot record here
#
# The tools, each run under /usr/bin/time (wall, user+sys CPU, peak RSS):
#   jitsym-fold    jitsym fold -o FILE perf.data
#   perf-inject    perf inject --jit, then perf script | fold-perf-script.pl
#                  (tests/live/, the project's stackcollapse-perf.pl)
#   jitsym-script  jitsym script perf.data >/dev/null
#   perf-script    perf script perf.data >/dev/null
#   perf-script-noinline  perf script --no-inline perf.data >/dev/null
#   perf-collapse  perf script --no-inline | fold-perf-script.pl (no perf
#                  inject; jitsym fold, too, names no inlined functions)
#   jitsym-pprof   jitsym pprof -o FILE perf.data
#   jitsym-report  jitsym report -o FILE perf.data
#   jitsym-flamegraph  jitsym flamegraph -o FILE perf.data
#   jitsym-tiers   jitsym tiers -o FILE perf.data
#   jitsym-fold-noinline  jitsym fold --no-inline -o FILE perf.data (one
#                  frame per address: what inline frames cost is
#                  jitsym-fold's time over this one's)
#   perf-collapse-inline  perf script | fold-perf-script.pl: perf's own
#                  output, inline frames included (as perf-collapse, without
#                  --no-inline; the folded counts are compared with jitsym
#                  fold's)
# Every tool gets its own empty build-id cache (--buildid-dir), so what
# ~/.debug holds does not matter; perf inject writes its jitted-*.so next to
# the jitdump (the path recorded in perf.data: the recording's directory),
# and they are deleted after every run.
#
# Recordings: perf record -N -k 1 -e cpu-clock -F FREQ -g, the size set by
# FREQ x SECONDS in the table below (retune them there); the *-dwarf ones
# with --call-graph dwarf (8 KB of stack per sample) instead of -g. A recording is
# kept in DIR/rec/NAME and reused by later runs. Node's and the JVM's perf
# maps (/tmp/perf-PID.map) are moved into DIR/rec/NAME after recording and
# copied back to /tmp only while that recording is measured (perf reads
# them only from /tmp).
#
# Output: DIR/results.md (also printed), DIR/runs.csv (every run).
# Exit status: 0 ok, 1 a tool failed or a recording could not be made,
# 2 usage error.
set -euo pipefail
export LC_ALL=C TZ=UTC

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

# name kind freq(Hz) seconds expected-MB node-functions
# Bytes per sample: node ~290 (deep stacks), java ~220, native ~110. Node
# spends its first ~3 s compiling its 20000 functions (55000-77000 code
# loads in the jitdump); node-smoke has 2000 (fewer loads) so that perf inject,
# which writes one jitted-*.so per load, keeps make bench-smoke short.
CORPUS='
node-small     node    3000   3    4  20000
node-medium    node   20000  10.5 60  20000
node-large     node   40000  42  600  20000
node-large250  node   40000  18  250  20000
native-small   native 10000   3    4  -
native-medium  native 40000   7.5 60  -
java-small     java    4000   4    4  -
java-medium    java   20000   8   60  -
node-x1        node   10000   4   12  20000
node-x4        node   10000  16   48  20000
node-x16       node   10000  64  190  20000
node-smoke     node    3000   2    2  2000
native-smoke   native  4000   2    2  -
java-smoke     java    4000   2    2  -
native-dwarf   native  2000   6  200  -
node-dwarf     node    4000   6  200  20000
native-dwarf-small native 2000 3  35  -
node-dwarf-small node    1000   4   35  20000
'
NODE_FILES=${NODE_FILES:-200}
ALL_TOOLS='jitsym-fold,perf-inject,jitsym-script,perf-script,jitsym-pprof,perf-collapse,perf-script-noinline,jitsym-report,jitsym-flamegraph,jitsym-tiers,jitsym-fold-noinline,perf-collapse-inline'
DEFAULT_TOOLS='jitsym-fold,perf-inject,jitsym-script,perf-script,jitsym-pprof'
# perf inject --jit writes a jitted-*.so per code load: minutes on node-dwarf;
# plain perf script on a dwarf recording names inlined functions through
# addr2line, over 10 minutes on node-dwarf (add perf-script to time it)
DWARF_TOOLS='jitsym-fold,perf-collapse,jitsym-script,perf-script-noinline'

usage() {
	sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&"$1"
	exit "${2:-0}"
}

sizes=small,medium,large
kinds=node,native,java
scaling=0
out=/tmp/jitsym-bench
jitsym=$top/build/jitsym
jitsym_args=
dwarf_cache=warm
reps=
tools=
rerecord=0
smoke=0
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) sizes=$2; shift ;;
	--sizes=*) sizes=${1#*=} ;;
	--kinds) kinds=$2; shift ;;
	--kinds=*) kinds=${1#*=} ;;
	--scaling) scaling=1 ;;
	--out) out=$2; shift ;;
	--out=*) out=${1#*=} ;;
	--jitsym) jitsym=$2; shift ;;
	--jitsym=*) jitsym=${1#*=} ;;
	--dwarf-cache) dwarf_cache=$2; shift ;;
	--dwarf-cache=*) dwarf_cache=${1#*=} ;;
	--jitsym-args) jitsym_args=$2; shift ;;
	--jitsym-args=*) jitsym_args=${1#*=} ;;
	--reps) reps=$2; shift ;;
	--reps=*) reps=${1#*=} ;;
	--tools) tools=$2; shift ;;
	--tools=*) tools=${1#*=} ;;
	--rerecord) rerecord=1 ;;
	--smoke) smoke=1 ;;
	-h|--help) usage 1 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage 2 2 ;;
	esac
	shift
done
if [ "$smoke" = 1 ]; then
	sizes=smoke
	scaling=0
	reps=1
	tools=$DEFAULT_TOOLS
fi
case ${reps:-1} in
''|*[!0-9]*|0) echo "run.sh: --reps needs a positive number" >&2; exit 2 ;;
esac
for t in ${tools//,/ }; do
	case ,$ALL_TOOLS, in
	*,"$t",*) ;;
	*) echo "run.sh: unknown tool '$t' (tools: $ALL_TOOLS)" >&2; exit 2 ;;
	esac
done

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }

PERF=${PERF:-perf}
PERL=${PERL:-perl}
TIME=${TIME_CMD:-/usr/bin/time}
NODE=${NODE:-node}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
COLLAPSE=$top/tests/live/fold-perf-script.pl

[ -x "$jitsym" ] || die "no jitsym binary at '$jitsym' (build it, or pass --jitsym)"
jitsym=$(cd "$(dirname "$jitsym")" && pwd)/$(basename "$jitsym")
command -v "$PERF" >/dev/null 2>&1 || die "no '$PERF' (Debian package linux-perf)"
command -v "$PERL" >/dev/null 2>&1 || die "no '$PERL'"
{ [ -x "$TIME" ] && "$TIME" -f %e true >/dev/null 2>&1; } ||
	die "no GNU time at $TIME (Debian package 'time': apt-get install -y time)"
[ -r "$COLLAPSE" ] || die "no stack collapser at $COLLAPSE"

mkdir -p "$out/rec" "$out/build"
out=$(cd "$out" && pwd)
scratch=$out/scratch.$$
case $dwarf_cache in
warm|cold) JITSYM_CACHE_DIR=$scratch/jitsym-cache ;;
off) JITSYM_CACHE_DIR= ;;
*) die "--dwarf-cache takes warm, cold or off, not '$dwarf_cache'" ;;
esac
export JITSYM_CACHE_DIR
mkdir -p "$scratch"
csv=$out/runs.csv
[ -s "$csv" ] || echo 'date,commit,recording,bytes,samples,tool,rep,wall_s,user_s,sys_s,maxrss_kb,status' >"$csv"
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$top" status --porcelain -- src lib 2>/dev/null)" ]; then
	commit="$commit+dirty"
fi

# perf maps copied to /tmp for a measurement, removed on exit.
restored_maps=
failed=0

cleanup() {
	local m
	for m in $restored_maps; do rm -f "$m"; done
	restored_maps=
	find "$out/rec" -maxdepth 2 -name 'jitted-*.so' -delete 2>/dev/null || true
	# a recording interrupted before its map was moved
	for p in "$out"/rec/*/pid; do
		[ -s "$p" ] || continue
		local d; d=$(dirname "$p")
		if [ ! -e "$d/meta" ] && [ -e "/tmp/perf-$(cat "$p").map" ]; then
			rm -f "/tmp/perf-$(cat "$p").map"
		fi
	done
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- recording ------------------------------------------------------------

can_record=
perf_can_record() {
	if [ -z "$can_record" ]; then
		if "$PERF" record -q -N -k 1 -e cpu-clock -g -o "$scratch/probe.data" -- true \
			>"$scratch/probe.log" 2>&1; then
			can_record=1
		else
			can_record=0
			say "perf cannot record here (kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?'), uid $(id -u)): $(head -n 2 "$scratch/probe.log" | tr '\n' ' ')"
		fi
		rm -f "$scratch/probe.data" "$scratch/probe.log"
	fi
	[ "$can_record" = 1 ]
}

spec() {	# spec NAME: sets kind freq secs expect_mb
	local line
	line=$(printf '%s\n' "$CORPUS" | awk -v n="$1" '$1 == n')
	[ -n "$line" ] || die "no recording '$1' in the corpus table"
	# shellcheck disable=SC2086
	set -- $line
	kind=$2 freq=$3 secs=$4 expect_mb=$5 nfunc=$6
}

avail_mb() {
	df -Pk "$out" | awk 'NR == 2 { printf "%d", $4 / 1024 }'
}

build_native() {
	local b=$out/build/native
	[ -x "$b/native-demo" ] && return 0
	local src=$top/examples/native cc=${CC:-cc}
	mkdir -p "$b"
	say "building native-demo into $b"
	# shellcheck disable=SC2016
	$cc -O2 -g -fno-omit-frame-pointer -fPIC -shared -Wl,-soname,libdemo.so \
		-o "$b/libdemo.so" "$src/libdemo.c" &&
	$cc -O2 -g -fno-omit-frame-pointer -pthread -o "$b/native-demo" \
		"$src/native-demo.c" -L"$b" -ldemo -Wl,-rpath,'$ORIGIN'
}

build_java() {
	local b=$out/build/java
	[ -s "$b/Workload.class" ] && [ "$b/Workload.class" -nt "$here/workload/java/Workload.java" ] &&
		return 0
	mkdir -p "$b"
	say "compiling Workload.java into $b"
	"$JAVA_HOME/bin/javac" -d "$b" "$here/workload/java/Workload.java"
}

# Is the recording NAME in the corpus, or can it be made? Returns 1 (with
# a message) to skip it.
record() {
	local name=$1 rec=$out/rec/$1
	spec "$name"
	if [ "$rerecord" = 0 ] && [ -s "$rec/meta" ] && [ -s "$rec/perf.data" ]; then
		say "$name: cached ($(du -m "$rec/perf.data" | cut -f1) MB, $(sed -n 's/^samples=//p' "$rec/meta") samples)"
		return 0
	fi
	perf_can_record || return 1
	case $kind in
	node) command -v "$NODE" >/dev/null 2>&1 || { say "$name: skipped: no '$NODE'"; return 1; } ;;
	java) [ -x "$JAVA_HOME/bin/java" ] || { say "$name: skipped: no java in $JAVA_HOME"; return 1; }
		build_java || { say "$name: javac failed"; return 1; } ;;
	native) build_native || { say "$name: cannot build native-demo"; return 1; } ;;
	esac
	# room for perf.data, perf inject's copy and jitted-*.so, and the jitdump
	local need=$((expect_mb * 3 + 1024)) have
	have=$(avail_mb)
	if [ "$have" -lt "$need" ]; then
		say "$name: skipped: needs ~$need MB free in $out, $have MB available"
		return 1
	fi
	local maxrate f=$freq s=$secs
	maxrate=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo "$freq")
	if [ "$f" -gt "$maxrate" ]; then
		s=$(awk -v s="$secs" -v f="$freq" -v m="$maxrate" 'BEGIN { printf "%g", s * f / m }')
		f=$maxrate
		say "$name: kernel.perf_event_max_sample_rate is $maxrate: -F $f for $s s instead of -F $freq for $secs s"
	fi
	rm -rf "$rec"
	mkdir -p "$rec"
	local cmd cg=fp cgopt=(-g)
	case $name in *-dwarf|*-dwarf-*) cg=dwarf cgopt=(--call-graph dwarf) ;; esac
	case $kind in
	node) cmd=("$NODE" --perf-prof --perf-basic-prof --interpreted-frames-native-stack
		"$here/workload/node/app.js" "$s" "$nfunc" "$NODE_FILES")
		# V8's eh_frame for its code, in the jitdump, for the dwarf unwinders
		[ "$cg" = dwarf ] && cmd=("$NODE" --perf-prof --perf-prof-unwinding-info
			--interpreted-frames-native-stack "$here/workload/node/app.js" "$s"
			"$nfunc" "$NODE_FILES") ;;
	native) cmd=("$out/build/native/native-demo" "$s") ;;
	java) cmd=("$JAVA_HOME/bin/java" -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit
		-XX:+PreserveFramePointer -cp "$out/build/java" Workload "$s") ;;
	esac
	say "$name: recording ${cmd[0]##*/} for $s s at $f Hz, ${cgopt[*]} (~$expect_mb MB)"
	# sh writes the PID the workload runs as (exec keeps it): the perf map
	# is /tmp/perf-PID.map. node writes jit-PID.dump into its working
	# directory, the recording's.
	local rc=0
	# shellcheck disable=SC2016
	(cd "$rec" && "$PERF" record -N -k 1 -e cpu-clock -F "$f" "${cgopt[@]}" -o perf.data -- \
		sh -c 'echo $$ >pid; exec "$@"' sh "${cmd[@]}") \
		>"$rec/record.out" 2>"$rec/record.err" || rc=$?
	local pid
	pid=$(cat "$rec/pid" 2>/dev/null || echo none)
	if [ -e "/tmp/perf-$pid.map" ]; then
		mv "/tmp/perf-$pid.map" "$rec/"
	fi
	if [ "$rc" != 0 ]; then
		sed 's/^/    /' "$rec/record.err" | tail -n 5 >&2
		say "$name: perf record failed (exit $rc; $rec/record.err)"
		failed=1
		return 1
	fi
	local samples
	samples=$(sed -n 's/.*(\([0-9][0-9]*\) samples).*/\1/p' "$rec/record.err" | tail -n 1)
	{
		echo "name=$name"
		echo "kind=$kind"
		echo "freq=$f"
		echo "seconds=$s"
		echo "callgraph=$cg"
		echo "pid=$pid"
		echo "samples=${samples:-0}"
		echo "bytes=$(stat -c %s "$rec/perf.data")"
		echo "recorded=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		case $kind in node) echo "node_functions=$nfunc node_files=$NODE_FILES" ;; esac
	} >"$rec/meta"
	say "$name: $(du -m "$rec/perf.data" | cut -f1) MB, ${samples:-0} samples; jitdump $(du -cm "$rec"/jit-*.dump 2>/dev/null | tail -n 1 | cut -f1) MB, perf map $(cat "$rec"/perf-*.map 2>/dev/null | wc -l) lines"
}

# ---- measuring ------------------------------------------------------------

# Copy the recording's perf map back to /tmp while it is measured.
restore_map() {
	local m dest
	for m in "$1"/perf-*.map; do
		[ -e "$m" ] || continue
		dest=/tmp/$(basename "$m")
		if [ -e "$dest" ]; then
			cmp -s "$m" "$dest" ||
				say "warning: $dest exists and is not this recording's perf map: perf and jitsym read that one"
			continue
		fi
		cp "$m" "$dest"
		restored_maps="$restored_maps $dest"
	done
}

drop_maps() {
	local m
	for m in $restored_maps; do rm -f "$m"; done
	restored_maps=
}

# compact_dir DIR: an ext4 directory that held perf inject's ~70000
# jitted-*.so keeps its size after they are deleted; make it afresh
# (renames: the jitdump keeps the path perf.data recorded). perf inject's
# system time still grows from one repetition to the next (see README).
compact_dir() {
	local d=$1 n=$1.compact.$$
	[ "$(stat -c %s "$d")" -gt 65536 ] || return 0
	mkdir "$n"
	find "$d" -mindepth 1 -maxdepth 1 -exec mv -t "$n" {} +
	rmdir "$d"
	mv "$n" "$d"
}

# run_tool NAME TOOL REP: time one run; appends to runs.csv and to
# $scratch/NAME.TOOL (wall cpu rss status per line).
run_tool() {
	local name=$1 tool=$2 rep=$3 rec=$out/rec/$1 data=$out/rec/$1/perf.data
	local bid=$scratch/buildid tf=$scratch/time.txt log=$scratch/$1.$2.$3.log rc=0
	rm -rf "$bid"
	mkdir -p "$bid"
	case $tool in jitsym-*) [ "$dwarf_cache" = cold ] && rm -rf "$JITSYM_CACHE_DIR" ;; esac
	# shellcheck disable=SC2086 # $jitsym_args (--jitsym-args) is split at blanks on purpose
	case $tool in
	jitsym-fold)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$jitsym" fold $jitsym_args --buildid-dir "$bid" \
			-o "$scratch/jitsym.folded" "$data" 2>"$log" || rc=$? ;;
	jitsym-fold-noinline)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$jitsym" fold --no-inline $jitsym_args \
			--buildid-dir "$bid" -o "$scratch/jitsym.out" "$data" 2>"$log" || rc=$? ;;
	jitsym-script)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$jitsym" script $jitsym_args --buildid-dir "$bid" \
			-o /dev/null "$data" 2>"$log" || rc=$? ;;
	jitsym-pprof)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$jitsym" pprof $jitsym_args --buildid-dir "$bid" \
			-o "$scratch/jitsym.pb.gz" "$data" 2>"$log" || rc=$? ;;
	jitsym-report|jitsym-flamegraph|jitsym-tiers)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$jitsym" "${tool#jitsym-}" $jitsym_args \
			--buildid-dir "$bid" -o "$scratch/jitsym.out" "$data" 2>"$log" || rc=$? ;;
	perf-script)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$PERF" --buildid-dir "$bid" script \
			-i "$data" >/dev/null 2>"$log" || rc=$? ;;
	perf-script-noinline)
		"$TIME" -o "$tf" -f '%e %U %S %M' "$PERF" --buildid-dir "$bid" script \
			--no-inline -i "$data" >/dev/null 2>"$log" || rc=$? ;;
	perf-collapse)
		# shellcheck disable=SC2016
		"$TIME" -o "$tf" -f '%e %U %S %M' bash -c 'set -o pipefail
			"$1" --buildid-dir "$2" script --no-inline -i "$3" | "$4" "$5" >"$6"' \
			sh "$PERF" "$bid" "$data" "$PERL" "$COLLAPSE" "$scratch/perf.folded" \
			2>"$log" || rc=$? ;;
	perf-collapse-inline)
		# shellcheck disable=SC2016
		"$TIME" -o "$tf" -f '%e %U %S %M' bash -c 'set -o pipefail
			"$1" --buildid-dir "$2" script -i "$3" | "$4" "$5" >"$6"' \
			sh "$PERF" "$bid" "$data" "$PERL" "$COLLAPSE" "$scratch/perf.folded" \
			2>"$log" || rc=$? ;;
	perf-inject)
		# shellcheck disable=SC2016
		"$TIME" -o "$tf" -f '%e %U %S %M' bash -c 'set -o pipefail
			"$1" --buildid-dir "$2" inject --jit -i "$3" -o "$4" &&
			"$1" --buildid-dir "$2" script -i "$4" | "$5" "$6" >"$7"' \
			sh "$PERF" "$bid" "$data" "$scratch/injected.data" "$PERL" "$COLLAPSE" \
			"$scratch/perf.folded" 2>"$log" || rc=$?
		find "$rec" -maxdepth 1 -name 'jitted-*.so' -delete
		compact_dir "$rec"
		rm -f "$scratch/injected.data" ;;
	esac
	rm -rf "$bid"
	local wall=0 user=0 sys=0 rss=0 status=ok
	[ -s "$tf" ] && read -r wall user sys rss < <(tail -n 1 "$tf")
	rm -f "$tf"
	if [ "$rc" != 0 ]; then
		status=fail
		failed=1
		say "$name: $tool FAILED (exit $rc):"
		tail -n 5 "$log" | sed 's/^/    /' >&2
	fi
	printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		"$commit" "$name" "$bytes" "$samples" "$tool" "$rep" "$wall" "$user" "$sys" "$rss" \
		"$status" >>"$csv"
	echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss $status" \
		>>"$scratch/$name.$tool"
	say "$name: $tool #$rep: $wall s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s CPU, $((rss / 1024)) MB RSS, $status"
	# fold outputs should count the same samples
	case $tool in
	jitsym-fold|perf-inject|perf-collapse|perf-collapse-inline)
		local f=$scratch/jitsym.folded
		[ "$tool" = jitsym-fold ] || f=$scratch/perf.folded
		if [ "$status" = ok ] && [ -e "$f" ]; then
			awk '{ n += $NF } END { print n + 0 }' "$f" >"$scratch/$name.$tool.count"
		fi
		rm -f "$f" ;;
	esac
	rm -f "$scratch/jitsym.pb.gz" "$scratch/jitsym.out"
}

# median of column COL of FILE
median() {
	sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
		if (NR == 0) exit; if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure NAME REPS TOOLS: alternate the tools, REPS times.
measure() {
	local name=$1 n=$2 tl=$3 rec=$out/rec/$1 t r
	bytes=$(sed -n 's/^bytes=//p' "$rec/meta")
	samples=$(sed -n 's/^samples=//p' "$rec/meta")
	restore_map "$rec"
	compact_dir "$rec"
	[ "$dwarf_cache" = off ] || rm -rf "$JITSYM_CACHE_DIR"
	for t in ${tl//,/ }; do rm -f "$scratch/$name.$t" "$scratch/$name.$t.count"; done
	for r in $(seq 1 "$n"); do
		for t in ${tl//,/ }; do
			run_tool "$name" "$t" "$r"
		done
	done
	drop_maps
	local js pf
	js=$(cat "$scratch/$name.jitsym-fold.count" 2>/dev/null || true)
	pf=$(cat "$scratch/$name.perf-inject.count" 2>/dev/null || true)
	[ -n "$pf" ] || pf=$(cat "$scratch/$name.perf-collapse.count" 2>/dev/null || true)
	[ -n "$pf" ] || pf=$(cat "$scratch/$name.perf-collapse-inline.count" 2>/dev/null || true)
	if [ -n "$js" ] && [ -n "$pf" ]; then
		echo "$name $js $pf" >>"$scratch/counts"
	fi
}

# stat NAME TOOL FIELD: median wall(1), cpu(2) or rss(3) of the ok runs
stat_of() {
	local f=$scratch/$1.$2
	[ -s "$f" ] || return 0
	if grep -q ' fail$' "$f"; then echo fail; return 0; fi
	median "$f" "$3"
}

fmt_s() { awk -v v="$1" 'BEGIN { printf (v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f"), v }'; }
ratio() {	# ratio A B: A / B
	if [ -z "$1" ] || [ -z "$2" ] || [ "$1" = fail ] || [ "$2" = fail ]; then
		echo '–'
	else
		awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) { print "–"; exit }
			r = a / b; printf (r < 10 ? "%.2fx" : r < 100 ? "%.1fx" : "%.0fx"), r }'
	fi
}

tool_label() {
	case $1 in
	jitsym-fold) echo 'jitsym fold' ;;
	jitsym-script) echo 'jitsym script' ;;
	jitsym-pprof) echo 'jitsym pprof' ;;
	jitsym-report) echo 'jitsym report' ;;
	jitsym-flamegraph) echo 'jitsym flamegraph' ;;
	jitsym-tiers) echo 'jitsym tiers' ;;
	perf-script) echo 'perf script' ;;
	perf-inject) echo 'perf inject --jit + perf script + fold-perf-script.pl' ;;
	perf-collapse) echo 'perf script --no-inline + fold-perf-script.pl' ;;
	perf-script-noinline) echo 'perf script --no-inline' ;;
	jitsym-fold-noinline) echo 'jitsym fold --no-inline' ;;
	perf-collapse-inline) echo 'perf script + fold-perf-script.pl' ;;
	esac
}

# table_rows NAME TOOLS: rows of the main table
table_rows() {
	local name=$1 tl=$2 rec=$out/rec/$1 t mb w c m pi ps fw
	bytes=$(sed -n 's/^bytes=//p' "$rec/meta")
	samples=$(sed -n 's/^samples=//p' "$rec/meta")
	mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
	pi=$(stat_of "$name" perf-inject 1)
	ps=$(stat_of "$name" perf-script 1)
	# dwarf recordings: perf script --no-inline where plain perf script did not run
	[ -n "$ps" ] || ps=$(stat_of "$name" perf-script-noinline 1)
	fw=$(stat_of "$name" jitsym-fold 1)
	for t in ${tl//,/ }; do
		w=$(stat_of "$name" "$t" 1)
		[ -n "$w" ] || continue
		if [ "$w" = fail ]; then
			echo "| $name | $mb | $samples | $(tool_label "$t") | FAILED | | | | | | |"
			continue
		fi
		c=$(stat_of "$name" "$t" 2)
		m=$(stat_of "$name" "$t" 3)
		local vsfold='–'
		case $t in jitsym-fold) ;; jitsym-*) vsfold=$(ratio "$w" "$fw") ;; esac
		echo "| $name | $mb | $samples | $(tool_label "$t") | $(fmt_s "$w") | $(fmt_s "$c") | $(awk -v m="$m" 'BEGIN { printf "%.0f", m / 1024 }') | $(awk -v b="$bytes" -v w="$w" 'BEGIN { printf "%.1f", (w > 0 ? b / 1048576 / w : 0) }') | $(ratio "$pi" "$w") | $(ratio "$ps" "$w") | $vsfold |"
	done
}

# ---- main -----------------------------------------------------------------

# tools_for NAME: the tools measured on recording NAME
tools_for() {
	if [ -n "$tools" ]; then
		echo "$tools"
	else
		case $1 in *-dwarf|*-dwarf-*) echo "$DWARF_TOOLS" ;; *) echo "$DEFAULT_TOOLS" ;; esac
	fi
}

say "jitsym $jitsym (commit $commit); corpus and results in $out"
main_recs=
for size in ${sizes//,/ }; do
	case $size in
	small|medium|large|large250|smoke|dwarf|dwarf-small) ;;
	none) continue ;;
	*) die "unknown size '$size' (small, medium, large, large250, dwarf, dwarf-small)" ;;
	esac
	for k in ${kinds//,/ }; do
		case $k in node|native|java) ;; *) die "unknown kind '$k' (node, native, java)" ;; esac
		case $size in large*) [ "$k" != node ] && continue ;; esac
		case $size in dwarf*) [ "$k" = java ] && continue ;; esac
		main_recs="$main_recs $k-$size"
	done
done
scale_recs=
[ "$scaling" = 1 ] && scale_recs='node-x1 node-x4 node-x16'

# record everything first (recording is not measured)
ready=
for name in $main_recs $scale_recs; do
	if record "$name"; then
		ready="$ready $name"
	elif [ "$smoke" = 1 ] && [ "$can_record" = 0 ]; then
		echo "SKIP: bench-smoke: perf cannot record here"
		exit 0
	fi
done

for name in $main_recs; do
	case " $ready " in *" $name "*) ;; *) continue ;; esac
	n=$reps
	[ -n "$n" ] || case $name in *-large|*-large250) n=1 ;; *) n=3 ;; esac
	tl=$(tools_for "$name")
	say "$name: measuring $tl, $n time(s)"
	measure "$name" "$n" "$tl"
done
# the scaling runs time jitsym's commands and perf script (not the perf
# inject and collapse pipelines: minutes on x16)
scale_tools=
for t in $(echo "${tools:-$DEFAULT_TOOLS}" | tr , ' '); do
	case $t in jitsym-*|perf-script|perf-script-noinline) scale_tools="$scale_tools${scale_tools:+,}$t" ;; esac
done
for name in $scale_recs; do
	case " $ready " in *" $name "*) ;; *) continue ;; esac
	[ -n "$scale_tools" ] || break
	say "$name: measuring $scale_tools, ${reps:-3} time(s)"
	measure "$name" "${reps:-3}" "$scale_tools"
done

# ---- results --------------------------------------------------------------

res=$out/results.md
[ "$smoke" = 1 ] && res=$out/smoke-results.md
{
	echo "## jitsym benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(free -g | awk '/^Mem:/ { print $2 }') GiB RAM, Linux $(uname -r)"
	echo "- jitsym: $jitsym, built $(date -u -r "$jitsym" '+%Y-%m-%d %H:%M:%S UTC'), sha256 $(sha256sum "$jitsym" | cut -c1-12); checkout at $commit${jitsym_args:+; every command given: $jitsym_args}"
	echo "- $("$PERF" --version); node $("$NODE" --version 2>/dev/null || echo none); java $("$JAVA_HOME/bin/java" -version 2>&1 | awk -F'"' 'NR == 1 { print $2 }')"
	echo "- wall, CPU (user+sys) and peak RSS: median of the repetitions, /usr/bin/time; MB/s: perf.data MB / wall"
	echo "- jitsym's DWARF cache: $dwarf_cache (warm: emptied before each recording, filled by its first jitsym run; cold: emptied before every jitsym run)"
	echo "- \"vs inject\": perf inject --jit + perf script + fold-perf-script.pl wall / this wall; \"vs perf script\": plain perf script wall (perf script --no-inline where only that ran) / this wall; \"vs fold\": this wall / jitsym fold wall"
	echo
	if [ -n "$main_recs" ]; then
		echo "| recording | MB | samples | tool | wall s | CPU s | peak RSS MB | MB/s | vs inject | vs perf script | vs fold |"
		echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
		for name in $main_recs; do
			case " $ready " in *" $name "*) ;; *) continue ;; esac
			table_rows "$name" "$(tools_for "$name")"
		done
		echo
	fi
	if [ -n "$scale_recs" ] && [ -n "$scale_tools" ]; then
		spec node-x1
		echo "Scaling: the node workload at $freq Hz for 1x, 4x and 16x $secs s; time ratio to 1x in parentheses."
		echo
		hdr='| scale | recorded s | MB | samples | fold MB/s | fold RSS MB |' sep='|---|---:|---:|---:|---:|---:|'
		for t in ${scale_tools//,/ }; do hdr="$hdr $(tool_label "$t") s |" sep="$sep---:|"; done
		echo "$hdr"
		echo "$sep"
		cell() { [ -n "$1" ] || { echo '–'; return; }; [ "$1" = fail ] && { echo FAILED; return; }; echo "$(fmt_s "$1") ($(ratio "$1" "$2"))"; }
		for name in $scale_recs; do
			case " $ready " in *" $name "*) ;; *) continue ;; esac
			rec=$out/rec/$name
			bytes=$(sed -n 's/^bytes=//p' "$rec/meta")
			f=$(stat_of "$name" jitsym-fold 1)
			row="| ${name#node-} | $(sed -n 's/^seconds=//p' "$rec/meta") | $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }') | $(sed -n 's/^samples=//p' "$rec/meta") | $( [ -n "$f" ] && [ "$f" != fail ] && awk -v b="$bytes" -v w="$f" 'BEGIN { printf "%.1f", b / 1048576 / w }') | $(m=$(stat_of "$name" jitsym-fold 3); [ -n "$m" ] && [ "$m" != fail ] && awk -v m="$m" 'BEGIN { printf "%.0f", m / 1024 }') |"
			for t in ${scale_tools//,/ }; do
				row="$row $(cell "$(stat_of "$name" "$t" 1)" "$(stat_of node-x1 "$t" 1)") |"
			done
			echo "$row"
		done
		echo
	fi
	# what inline frames cost: jitsym fold against fold --no-inline, and
	# perf's inline-naming pipelines against jitsym fold, same run
	inl=
	for name in $main_recs; do
		case " $ready " in *" $name "*) ;; *) continue ;; esac
		fw=$(stat_of "$name" jitsym-fold 1)
		nw=$(stat_of "$name" jitsym-fold-noinline 1)
		[ -n "$fw" ] && [ -n "$nw" ] || continue
		[ -n "$inl" ] || {
			inl=1
			echo "Inline frames: jitsym fold (inline frames on, the default) against jitsym fold --no-inline; plain perf script (inline frames on) and perf script + fold-perf-script.pl against jitsym fold; medians."
			echo
			echo "| recording | fold s | fold --no-inline s | wall inline / no-inline | CPU inline / no-inline | fold RSS MB | --no-inline RSS MB | perf script / fold | perf script + fold-perf-script.pl / fold |"
			echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		}
		mb_of() { [ -n "$1" ] && [ "$1" != fail ] && awk -v m="$1" 'BEGIN { printf "%.0f", m / 1024 }'; }
		echo "| $name | $(fmt_s "$fw") | $(fmt_s "$nw") | $(ratio "$fw" "$nw") | $(ratio "$(stat_of "$name" jitsym-fold 2)" "$(stat_of "$name" jitsym-fold-noinline 2)") | $(mb_of "$(stat_of "$name" jitsym-fold 3)") | $(mb_of "$(stat_of "$name" jitsym-fold-noinline 3)") | $(ratio "$(stat_of "$name" perf-script 1)" "$fw") | $(ratio "$(stat_of "$name" perf-collapse-inline 1)" "$fw") |"
	done
	[ -z "$inl" ] || echo
	if [ -s "$scratch/counts" ]; then
		echo "Samples folded (jitsym fold / perf inject pipeline, or perf script + fold-perf-script.pl where it did not run): $(awk '{ printf "%s%s %s/%s", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$scratch/counts")"
		echo
	fi
} >"$res"
cat "$res"
say "results in $res, every run in $csv"
if [ "$failed" != 0 ]; then
	say "some tools or recordings FAILED"
	exit 1
fi
exit 0
