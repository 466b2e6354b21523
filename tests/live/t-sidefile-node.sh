#!/bin/sh
# t-sidefile-node.sh: whose a jitdump is, on real node files. Records
# examples/node/hot.js twice under node --perf-prof --perf-basic-prof, A
# then B, and checks that
#  - B's own jitdump is taken as B's: no side file refused;
#  - A's jitdump copied in as B's jit-PID.dump (B's own moved away) is
#    refused in one warning naming why (its header's pid is A's, not the
#    pid of the name B mapped) and the fix, sources says NOT USED and
#    counts it, and no namespace pid (so no perf map) is taken from it;
#  - A's jitdump given with --jitdump B=FILE is used, with a warning (its
#    records end before B exec'd);
#  - a perf-map line that repeats one of B's jitdump loads is counted.
# Skips (77) when perf cannot record or node is missing.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init sidefile-node
live_require_perf
live_find_jitsym
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"

# node writes jit-PID.dump into its working directory, perf-PID.map into /tmp
record() {
	mkdir "$1"
	cp "$live_top/examples/node/hot.js" "$1/"
	(cd "$1" && live_record "$1/perf.data" "$NODE" --perf-prof --perf-basic-prof \
		--interpreted-frames-native-stack hot.js "${LIVE_SECONDS:-1}")
	ls "$1"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump in $1"
	rec_pid=$(basename "$(ls "$1"/jit-*.dump | head -n 1)" .dump)
	rec_pid=${rec_pid#jit-}
}
pid_a= pid_b=
trap 'rm -f "/tmp/perf-$pid_a.map" "/tmp/perf-$pid_b.map"; live_on_exit $?' EXIT
record "$live_tmp/a"
pid_a=$rec_pid
record "$live_tmp/b"
pid_b=$rec_pid
[ "$pid_a" != "$pid_b" ] || live_skip "both runs of node had pid $pid_a"
b=$live_tmp/b

# B's own files: B's
live_jitsym sources "$b/perf.data" >"$live_tmp/own.txt" 2>"$live_tmp/own.err"
grep -q "jitdump '.*' not used\|looks like another" "$live_tmp/own.err" &&
	live_fail "B's own jitdump refused: $(cat "$live_tmp/own.err")"
grep -q "^  jitdump   $b/jit-$pid_b.dump: [0-9]* records" "$live_tmp/own.txt" ||
	live_fail "sources does not list B's own jitdump as read"
grep -q "NOT USED\|not their process's" "$live_tmp/own.txt" &&
	live_fail "sources says a side file of B's is not B's"
repeats=$(sed -n "/^pid $pid_b (/,/^pid /s/.*; \([0-9]*\) lines* repeats* a jitdump load.*/\1/p" \
	"$live_tmp/own.txt")
[ "${repeats:-0}" -gt 0 ] ||
	live_fail "sources counts no perf-map line of B's that repeats a jitdump load"
live_say "B's perf map: ${repeats:-0} lines repeat a jitdump load"

# A's jitdump as B's
mv "$b/jit-$pid_b.dump" "$b/own.dump"
cp "$live_tmp/a/jit-$pid_a.dump" "$b/jit-$pid_b.dump"
live_jitsym fold "$b/perf.data" >"$live_tmp/copy.folded" 2>"$live_tmp/copy.err" ||
	live_fail "fold with A's copy failed: exit $?"
want="pid $pid_b: jitdump '$b/jit-$pid_b.dump' not used: its header's pid $pid_a is not $pid_b"
n=$(grep -c "^jitsym: warning: $want" "$live_tmp/copy.err" || true)
[ "$n" = 1 ] || live_fail "A's copy: $n warnings '$want' (want 1): $(cat "$live_tmp/copy.err")"
grep -q -- "--jitdump $pid_b=FILE" "$live_tmp/copy.err" ||
	live_fail "A's copy: the warning names no fix"
live_jitsym sources "$b/perf.data" >"$live_tmp/copy.txt" 2>/dev/null
sed -n "/^pid $pid_b (/,/^pid /p" "$live_tmp/copy.txt" >"$live_tmp/copy-b.txt"
grep -q "jit-$pid_b.dump: .*NOT USED, not this process's" "$live_tmp/copy-b.txt" ||
	live_fail "sources does not say A's copy was not used"
grep -q "pid ns\|namespace pid" "$live_tmp/copy-b.txt" &&
	live_fail "a namespace pid was taken from A's copy: $(cat "$live_tmp/copy-b.txt")"
grep -q "^side files not their process's: 1 " "$live_tmp/copy.txt" ||
	live_fail "sources does not count the refused file"

# A's jitdump given: used, with a warning
rm "$b/jit-$pid_b.dump"
live_jitsym sources --jitdump "$pid_b=$live_tmp/a/jit-$pid_a.dump" "$b/perf.data" \
	>"$live_tmp/given.txt" 2>"$live_tmp/given.err" || live_fail "sources with --jitdump failed"
grep -q "^jitsym: warning: pid $pid_b: jitdump '$live_tmp/a/jit-$pid_a.dump' (given by --jitdump) looks like another process's or run's: .*; used as given" \
	"$live_tmp/given.err" || live_fail "no warning for the given copy: $(cat "$live_tmp/given.err")"
grep -q "not this process's, used as given" "$live_tmp/given.txt" ||
	live_fail "sources does not say the given copy was used"
live_finish
