#!/bin/sh
# t-container-node.sh: node in its own pid (and mount) namespace, as in a
# container, recorded from outside it:
#   perf record -k 1 -e cpu-clock -g -- unshare -p -f -m --mount-proc \
#     sh -c 'mount --bind ctmp /tmp && exec node --perf-prof ...'
# node is pid 1 there: it writes jit-1.dump (header and records pid 1) into
# its working directory and perf-1.map into its own /tmp (ctmp here, out
# of jitsym's sight until copied), while the recording shows its host pid.
# Checks that
#  - sources names the namespace pid (from jit-1.dump's header) and looks
#    for perf-1.map too;
#  - at least 99% of the samples whose first user frame is JIT code are
#    named, by the jitdump, and by the perf map alone (given with
#    --perfmap PID=FILE, the jitdump put out of reach with --jitdump
#    PID=/nonexistent); a copy of perf-1.map next to perf.data is taken;
#  - a second recording with --namespaces and a perf map only finds it by
#    PERF_RECORD_NAMESPACES (node is the first process of its namespace);
#  - jitsym changes nothing next to its inputs;
# and says what perf inject --jit + perf script make of the same
# recording (perf 6.1 names none of those frames offline: it matches the
# jitdump to the process through /proc, gone by then); jitsym must name
# at least as many.
# Skips (77) when perf cannot record, node or unshare is missing, or
# unshare cannot make the namespaces here.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init container-node
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"
command -v unshare >/dev/null 2>&1 || live_skip "no 'unshare' (Debian package 'util-linux')"
MIN_NAMED=${LIVE_MIN_NAMED:-99}

# The container: a pid and mount namespace whose /tmp is DIR/ctmp.
# shellcheck disable=SC2016
in_container='mount --bind ctmp /tmp && exec "$0" "$@"'
container_dir() {
	mkdir -p "$1/ctmp"
	cp "$live_top/examples/node/hot.js" "$1/ctmp/"
}
probe=$live_tmp/probe
container_dir "$probe"
(cd "$probe" && unshare -p -f -m --mount-proc sh -c "$in_container" test -f /tmp/hot.js) \
	>"$probe/log" 2>&1 ||
	live_skip "unshare cannot make a pid and mount namespace here: $(head -n 2 "$probe/log" | tr '\n' ' ')"

# live_named_share WHAT SCRIPT: the share of JIT-leaf samples named in SCRIPT
# must be at least MIN_NAMED percent (and there must be some).
live_named_share() {
	# two numbers, split on purpose
	# shellcheck disable=SC2046
	set -- "$1" $(live_jit_leaves "$2")
	live_say "$1: $3 of $2 samples with a JIT-code leaf named"
	[ "$2" -gt 0 ] || { live_fail "$1: no sample with its first user frame in JIT code"; return 0; }
	[ $(($3 * 100)) -ge $(($2 * MIN_NAMED)) ] ||
		live_fail "$1: only $3 of $2 JIT-leaf samples named (want $MIN_NAMED%)"
}

# ---- 1: jitdump and perf map, recorded without --namespaces ----
run=$live_tmp/run
container_dir "$run"
data=$run/perf.data
(cd "$run" && live_record "$data" unshare -p -f -m --mount-proc sh -c "$in_container" \
	"$NODE" --perf-prof --perf-basic-prof --interpreted-frames-native-stack \
	/tmp/hot.js "${LIVE_SECONDS:-2}")
[ -f "$run/jit-1.dump" ] || live_hard_error "node wrote no jit-1.dump in $run: not pid 1 in its namespace?"
[ -f "$run/ctmp/perf-1.map" ] || live_hard_error "node wrote no perf-1.map in its /tmp ($run/ctmp)"

before=$(live_snapshot "$run")
src=$live_tmp/sources
live_jitsym sources "$data" >"$src" 2>"$src.stderr" ||
	{ live_show "$src.stderr" >&2; live_hard_error "jitsym sources failed"; }
live_show "$src" 6
pid=$(sed -n 's/^pid \([0-9][0-9]*\) (node).*/\1/p' "$src" | head -n 1)
[ -n "$pid" ] || live_hard_error "no node process in jitsym sources"
grep -q "^  pid ns    namespace pid 1 (from jit-1.dump's header)" "$src" ||
	live_fail "sources does not name namespace pid 1 from jit-1.dump's header"
grep -q "^  jitdump   .*jit-1.dump (namespace pid 1, from its header): " "$src" ||
	live_fail "sources does not say the jitdump is the namespace pid's"
# (a /tmp/perf-1.map of another run on this host would be taken, and named)
grep -Eq "^  perfmap   (not found \(tried .*'[^']*/perf-$pid.map'.*'[^']*/perf-1.map'|/tmp/perf-1.map \(namespace pid 1, )" "$src" ||
	live_fail "sources does not say perf-$pid.map and perf-1.map were looked for"
live_jitsym script "$data" >"$live_tmp/script" 2>/dev/null || live_fail "jitsym script failed"
live_named_share "jitdump (perf map in the container's /tmp)" "$live_tmp/script"
live_jitsym fold "$data" >"$live_tmp/folded" 2>/dev/null || live_fail "jitsym fold failed"
grep -q ';JS:[*^~+]*fib [^;]*hot.js:[0-9:]*' "$live_tmp/folded" ||
	live_fail "no JS:fib frame from hot.js in jitsym fold"

# the perf map copied next to perf.data: found by the namespace pid
cp "$run/ctmp/perf-1.map" "$run/perf-1.map"
live_jitsym sources "$data" >"$src.map" 2>/dev/null || live_fail "jitsym sources failed"
grep -q "^  perfmap   $run/perf-1.map (namespace pid 1, from jit-1.dump's header): " "$src.map" ||
	live_fail "sources does not say perf-1.map next to perf.data was taken by namespace pid 1"
rm "$run/perf-1.map"
# the perf map alone, given (the jitdump, whose header says the namespace pid, out of reach)
given="--jitdump $pid=$live_tmp/nonexistent.dump --perfmap $pid=$run/ctmp/perf-1.map"
# shellcheck disable=SC2086
live_jitsym sources $given "$data" >"$src.given" 2>/dev/null ||
	live_fail "jitsym sources --perfmap failed"
grep -q "^  perfmap   $run/ctmp/perf-1.map (given by --perfmap): " "$src.given" ||
	live_fail "sources does not say the perf map was given by --perfmap"
# shellcheck disable=SC2086
live_jitsym script $given "$data" >"$live_tmp/script.map" 2>/dev/null || live_fail "jitsym script failed"
live_named_share "perf map given with --perfmap (no jitdump)" "$live_tmp/script.map"
after=$(live_snapshot "$run")
[ "$before" = "$after" ] || live_fail "jitsym changed files in the recording's directory"

# perf's route on copies in a scratch dir; what it writes is deleted
inj=$live_tmp/inject
mkdir "$inj"
cp "$data" "$run/jit-1.dump" "$inj/"
if "$PERF" --buildid-dir "$live_buildid_dir" inject --jit -i "$inj/perf.data" \
	-o "$inj/injected.data" >"$inj/log" 2>&1 &&
   "$PERF" --buildid-dir "$live_buildid_dir" script -i "$inj/injected.data" \
	>"$inj/script" 2>/dev/null; then
	# four numbers, split on purpose
	# shellcheck disable=SC2046
	set -- $(live_jit_leaves "$inj/script") $(live_jit_leaves "$live_tmp/script")
	live_say "perf inject --jit + perf script: $2 of $1 JIT-leaf samples named," \
		"$(find "$run" "$inj" "$live_buildid_dir" -name 'jitted-*.so' | wc -l) jitted-*.so" \
		"written; jitsym: $4 of $3"
	[ "$4" -ge "$2" ] || live_fail "perf inject --jit names more JIT leaves than jitsym"
else
	live_show "$inj/log" >&2
	live_say "perf inject --jit failed here: not compared"
fi
find "$run" "$inj" -name 'jitted-*.so' -exec rm -f {} +
if [ -d "${HOME:-/nonexistent}/.debug" ]; then
	find "$HOME/.debug" -name "jitted-$pid-*" -exec rm -rf {} + 2>/dev/null || true
fi

# ---- 2: a perf map only, recorded with --namespaces ----
run2=$live_tmp/run2
container_dir "$run2"
data2=$run2/perf.data
(cd "$run2" && LIVE_RECORD_OPTS="--namespaces ${LIVE_RECORD_OPTS:-}" &&
	live_record "$data2" unshare -p -f -m --mount-proc sh -c "$in_container" \
	"$NODE" --perf-basic-prof /tmp/hot.js "${LIVE_SECONDS:-2}")
[ -f "$run2/ctmp/perf-1.map" ] || live_hard_error "node wrote no perf-1.map in its /tmp ($run2/ctmp)"
cp "$run2/ctmp/perf-1.map" "$run2/"
live_jitsym sources "$data2" >"$src.ns" 2>/dev/null || live_fail "jitsym sources failed"
live_show "$src.ns" 4
grep -q "^  pid ns    namespace pid 1 (the first process of its pid namespace, per NAMESPACES); in another pid namespace than perf's" "$src.ns" ||
	live_fail "sources does not name namespace pid 1 from NAMESPACES"
grep -q "^  perfmap   $run2/perf-1.map (namespace pid 1, the first process of its pid namespace, per NAMESPACES): " "$src.ns" ||
	live_fail "sources does not say perf-1.map was taken by the namespace pid from NAMESPACES"
live_jitsym script "$data2" >"$live_tmp/script.ns" 2>/dev/null || live_fail "jitsym script failed"
live_named_share "perf map, namespace pid from NAMESPACES" "$live_tmp/script.ns"
live_finish
