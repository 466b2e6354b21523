#!/bin/sh
# Golden tests: each directory under tests/golden/ holding a file "cmd" is
# a case. cmd is a shell fragment run in a read-only scratch copy of the
# case directory with $JITSYM, $MKPERF, $MKJITDUMP, $CASE and $WORK (an empty
# writable directory, for files the case generates) set; its stdout, stderr and
# exit status are compared with expected.stdout, expected.stderr (the
# "jitsym: " lines only; absent means none) and expected.exit (default 0).
# Cases use relative paths so that messages do not depend on where the
# scratch copy lives.
#
#   run.sh [--update] [CASE...]   --update rewrites the expectations
#
# The scratch copy is checked afterwards: a run must not create, change
# or remove any file next to its inputs.
#
# Every case runs twice, its commands given --threads 1 and then --threads 2
# (by a wrapper that stands in for $JITSYM), and both runs must give the
# expected output, byte for byte: the threads change nothing but the time.
# --update rewrites the expectations from the --threads 1 run.
set -u
. "$(dirname "$0")/../setup.sh"
here=$abs_top_srcdir/tests/golden
# a missing program would be recorded as the expected output by --update
for prog in "$JITSYM" "$MKPERF" "$MKJITDUMP"; do
	[ -x "$prog" ] || { echo "run.sh: '$prog' is not built (set JITSYM, MKPERF)" >&2; exit 99; }
done
update=false
[ "${1:-}" = --update ] && { update=true; shift; }
cases=${*:-$(cd "$here" && find . -mindepth 2 -maxdepth 2 -name cmd | sed 's|^\./||; s|/cmd$||' | sort)}
pass=0 fail=0
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

# jitsym, with --threads $JITSYM_THREADS after the command name
cat >"$scratch/jitsym-threads" <<'EOF_WRAPPER'
#!/bin/sh
case "${1:-}" in
fold|flamegraph|script|report|pprof|tiers|sources|diff)
	cmd=$1; shift
	exec "$JITSYM_REAL" "$cmd" --threads "$JITSYM_THREADS" "$@" ;;
esac
exec "$JITSYM_REAL" "$@"
EOF_WRAPPER
chmod +x "$scratch/jitsym-threads"
JITSYM_REAL=$JITSYM
JITSYM=$scratch/jitsym-threads
export JITSYM JITSYM_REAL

snapshot() { (cd "$1" && find . -type f -exec md5sum {} + | sort); }

run_case() {
	c=$1 dir=$scratch/$1 rewrite=$2
	# the last case's copies may be read-only (copied from a read-only dir)
	[ -d "$scratch/work" ] && chmod -R u+w "$scratch/work"
	[ -d "$dir" ] && chmod -R u+w "$dir"
	rm -rf "$dir" "$scratch/work"; mkdir -p "$dir" "$scratch/work"
	cp -R "$here/$c/." "$dir/"
	chmod -R a-w "$dir"
	before=$(snapshot "$dir")
	(cd "$dir" && CASE=$c WORK=$scratch/work sh ./cmd) >"$scratch/$c.out" 2>"$scratch/$c.err"
	echo $? >"$scratch/$c.exit"
	after=$(snapshot "$dir")
	chmod -R u+w "$dir"
	if [ "$before" != "$after" ]; then
		echo "FAIL: $c: the run changed files next to its inputs"; return 1
	fi
	grep '^jitsym: ' "$scratch/$c.err" >"$scratch/$c.msgs" || true
	if $rewrite; then
		cp "$scratch/$c.out" "$here/$c/expected.stdout"
		cp "$scratch/$c.exit" "$here/$c/expected.exit"
		if [ -s "$scratch/$c.msgs" ]; then cp "$scratch/$c.msgs" "$here/$c/expected.stderr"
		else rm -f "$here/$c/expected.stderr"; fi
		echo "updated: $c"; same_as_one_thread "$c"; return 0
	fi
	want_exit=$(cat "$here/$c/expected.exit" 2>/dev/null || echo 0)
	if [ "$(cat "$scratch/$c.exit")" != "$want_exit" ]; then
		echo "FAIL: $c: exit $(cat "$scratch/$c.exit"), expected $want_exit"; sed 's/^/  /' "$scratch/$c.err" | head -20; return 1
	fi
	if ! cmp -s "$scratch/$c.out" "$here/$c/expected.stdout"; then
		echo "FAIL: $c: stdout differs"; diff "$here/$c/expected.stdout" "$scratch/$c.out" | head -20; return 1
	fi
	want_msgs=$here/$c/expected.stderr
	[ -f "$want_msgs" ] || want_msgs=/dev/null
	if ! cmp -s "$want_msgs" "$scratch/$c.msgs"; then
		echo "FAIL: $c: messages on stderr differ"; diff "$want_msgs" "$scratch/$c.msgs" | head; return 1
	fi
	same_as_one_thread "$c"
}

# The whole of stderr too (not only the messages) is the one-thread run's.
same_as_one_thread() {
	if [ "$JITSYM_THREADS" = 1 ]; then
		cp "$scratch/$1.err" "$scratch/$1.err.1"
	elif ! cmp -s "$scratch/$1.err.1" "$scratch/$1.err"; then
		echo "FAIL: $1: stderr differs from --threads 1"
		diff "$scratch/$1.err.1" "$scratch/$1.err" | head; return 1
	fi
	return 0
}

set -f   # case names are not globs
for c in $cases; do
	for JITSYM_THREADS in 1 2; do
		export JITSYM_THREADS
		# --update: from the one-thread run; the other must agree with it
		up=false
		$update && [ "$JITSYM_THREADS" = 1 ] && up=true
		if run_case "$c" $up; then
			pass=$((pass + 1)); $up || echo "ok: $c (--threads $JITSYM_THREADS)"
		else
			fail=$((fail + 1)); echo "  (with --threads $JITSYM_THREADS)"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
