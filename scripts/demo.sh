#!/bin/sh
# Set up, build, record the bundled native example with perf and fold it:
# writes demo.folded (input for flamegraph.pl, inferno, speedscope) in the
# current directory. Where perf cannot record, the bundled recording in
# tests/golden/native-recorded/ is folded instead.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(pwd)/demo.folded
cd "$top"
scripts/setup.sh
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || autoreconf -fi
# build in build/, or in place when the source tree is configured in place
b=build
[ -f config.status ] && b=.
mkdir -p "$b"
(cd "$b" && { [ -f Makefile ] || "$top/configure" -q; } && make -s -j"$(nproc)" jitsym examples/native/native-demo)
jitsym=$top/$b/jitsym
data=$(mktemp -d)/demo.data
trap 'rm -rf "$(dirname "$data")"' EXIT
if perf record -q -k 1 -e cpu-clock -F 4000 -g --no-buildid-cache -o "$data" \
	-- "$b/examples/native/native-demo" 2 >/dev/null 2>&1; then
	echo "demo: recorded examples/native/native-demo for 2 s" >&2
	"$jitsym" fold "$data" >"$out"
else
	echo "demo: perf cannot record here; folding the bundled recording" >&2
	rec=tests/golden/native-recorded
	"$jitsym" fold --symfs "$rec/symfs" --kallsyms "$rec/kallsyms" --buildid-dir "$rec" \
		"$rec/perf.data" >"$out"
fi
echo "demo: wrote $out ($(wc -l <"$out") stacks); the hottest:" >&2
awk '{ print $NF "\t" $0 }' "$out" | sort -rn | head -5 | cut -f2- >&2
