#!/bin/sh
# t-pprof.sh: record examples/native/native-demo, write a pprof profile
# with "jitsym pprof" and read it with the real client, go tool pprof:
#   - its totals (samples, and the cpu-clock period in ns) are those of
#     "jitsym script" on the same recording;
#   - the demo's functions are named and a line of native-demo.c is there
#     (native-demo is built with -g);
#   - native-demo's mapping in go tool pprof -raw is its executable MMAP2
#     record as perf script --show-mmap-events prints it (start, end,
#     file offset);
#   - with --labels pid,tid,comm,category, the threads' names are labels,
#     and the leaf frames' categories (native, kernel).
# tests/tools/pprof-dump, when built, checks the profile's structure too.
# See lib.sh for the environment it reads; exit 77 when perf cannot
# record or there is no go command (Debian package 'golang-go').
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init pprof
[ "${LIVE_SELF_CHECK:-0}" = 1 ] && live_skip "perf has no counterpart of 'jitsym pprof'"
GO=${GO:-go}
command -v "$GO" >/dev/null 2>&1 ||
	live_skip "no '$GO' command to run go tool pprof (Debian package 'golang-go')"
live_require_perf
live_find_jitsym
live_build_demo

# go tool pprof: no remote symbolization, nothing written outside the temp dir
GOCACHE=${GOCACHE:-$live_tmp/gocache}
PPROF_TMPDIR=$live_tmp
PPROF_BINARY_PATH=$live_tmp/no-binaries
export GOCACHE PPROF_TMPDIR PPROF_BINARY_PATH
pprof() {
	"$GO" tool pprof -symbolize=local "$@"
}

data=$live_tmp/perf.data
pb=$live_tmp/profile.pb.gz
live_record "$data" "$NATIVE_DEMO" "${LIVE_SECONDS:-2}"

live_say "jitsym pprof -o $pb"
if ! live_jitsym pprof -o "$pb" "$data" 2>"$pb.stderr"; then
	live_show "$pb.stderr" >&2
	live_fail "jitsym pprof failed (stderr: $pb.stderr)"
	live_finish
fi
dump=${abs_top_builddir:-}/tests/tools/pprof-dump
if [ -x "$dump" ]; then
	if "$dump" "$pb" >"$pb.dump" 2>"$pb.dump.stderr"; then
		live_say "pprof-dump: $(grep '^total:' "$pb.dump")"
	else
		live_show "$pb.dump.stderr" >&2
		live_fail "pprof-dump finds the profile malformed"
	fi
fi

# The totals, independently: what jitsym script prints for each sample.
live_jitsym script "$data" 2>/dev/null |
	awk '/ cpu-clock: *$/ { n++; for (i = 1; i <= NF; i++) if ($i == "cpu-clock:") p += $(i - 1) }
	     END { printf "%d %.0f\n", n, p }' >"$live_tmp/want.totals"
# go tool pprof -raw lists each sample as "COUNT PERIOD: LOCATIONS".
if ! pprof -raw "$pb" >"$pb.raw" 2>"$pb.raw.stderr"; then
	live_show "$pb.raw.stderr" >&2
	live_fail "go tool pprof cannot read the profile"
	live_finish
fi
awk '/^ *[0-9]+ +[0-9]+: / { n += $1; p += $2 + 0 } END { printf "%d %.0f\n", n, p }' \
	"$pb.raw" >"$live_tmp/got.totals"
if cmp -s "$live_tmp/want.totals" "$live_tmp/got.totals"; then
	live_say "totals agree: $(cat "$live_tmp/got.totals") (samples, period ns)"
else
	live_fail "totals: jitsym script says '$(cat "$live_tmp/want.totals")'," \
		"go tool pprof '$(cat "$live_tmp/got.totals")' (samples, period)"
fi
grep -q '^samples/count cpu/nanoseconds$' "$pb.raw" ||
	live_fail "sample types are not samples/count cpu/nanoseconds"

# Mappings: native-demo's r-xp MMAP2 "[0xSTART(0xLEN) @ 0xPGOFF ...]" is
# go tool pprof's "ID: 0xSTART/0xEND/0xPGOFF native-demo"
rec=$("$PERF" script -i "$data" --show-mmap-events 2>/dev/null |
	awk '/PERF_RECORD_MMAP2/ && / r-xp / && /native-demo$/ {
		s = $0; sub(/.*\[/, "", s); split(s, a, /[(): @\]]+/)
		print a[1], a[2], a[3]; exit }')
want=
if [ -n "$rec" ]; then
	set -- $rec
	want=$(printf '0x%x/0x%x/%s' $(($1)) $(($1 + $2)) "$3")
fi
got=$(awk '/^Mappings/ { m = 1; next } m && / [^ ]*native-demo / { print $2; exit }' "$pb.raw")
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	live_say "native-demo's mapping is its MMAP2 record: $got"
else
	live_fail "native-demo's mapping: go tool pprof says '$got', perf script's MMAP2 '$want'"
fi

pprof -top -nodefraction=0 -nodecount=100000 "$pb" >"$pb.top" 2>/dev/null ||
	live_fail "go tool pprof -top failed"
for fn in hash_bytes spin_leaf descend demo_lib_checksum cmp_keys; do
	grep -q " $fn\$" "$pb.top" || live_fail "no '$fn' in go tool pprof -top"
done
pprof -lines -top -nodefraction=0 -nodecount=100000 "$pb" >"$pb.lines" 2>/dev/null ||
	live_fail "go tool pprof -lines -top failed"
if line=$(grep -m 1 -E ' hash_bytes [^ ]*native-demo\.c:[0-9]+$' "$pb.lines"); then
	live_say "source lines: $(echo "$line" | sed 's/.*  //')"
else
	live_show "$pb.lines" 20 >&2
	live_fail "no source line of native-demo.c for hash_bytes in go tool pprof -lines"
fi

live_say "jitsym pprof --labels pid,tid,comm,category"
if live_jitsym pprof --labels pid,tid,comm,category -o "$pb.labels" "$data" 2>/dev/null &&
   pprof -tags "$pb.labels" >"$pb.tags" 2>/dev/null; then
	for comm in native-demo 'demo sorter' demo-io; do
		grep -q "$comm\$" "$pb.tags" || live_fail "no comm label '$comm' in go tool pprof -tags"
	done
	grep -q 'pid' "$pb.tags" && grep -q 'tid' "$pb.tags" ||
		live_fail "no pid or tid labels in go tool pprof -tags"
	grep -q ' native$' "$pb.tags" ||
		live_fail "no category label 'native' in go tool pprof -tags"
else
	live_fail "jitsym pprof --labels or go tool pprof -tags failed"
fi
live_finish
