#!/bin/sh
# t-archive.sh: a bundle reads as the recording did, with nothing else.
# Records examples/node/hot.js under node --perf-prof --perf-basic-prof
# (a jitdump and a perf map) and native-demo (DWARF, a library of its
# own), archives each with jitsym archive, and checks, for each, that
# fold, script, pprof, tiers, sources, timeline and report --source-lines
# of the bundle are byte-identical to those of the recording when every
# file the recording names is out of reach: in a private mount namespace
# (unshare -m) the recording's directory (perf.data, side files), the
# program, /tmp's perf maps, $HOME/.debug, the build-id cache,
# /usr/lib/debug, node and /proc/kallsyms are covered by empty mounts,
# HOME points nowhere, and the cwd is another. Also: the bundle lists with
# tar --zstd and holds perf.data byte for byte; its jitdump keeps every
# record and its size, the code of fewer loads than the original; the
# perf map and a samply marker file beside the recording are in it; a
# damaged bundle fails with the offset named. Skips
# (77) when perf cannot record, without node, or without unshare -m.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init archive
live_require_perf
live_find_jitsym
NATIVE_DEMO=${NATIVE_DEMO:-}
NODE=${NODE:-node}
command -v "$NODE" >/dev/null 2>&1 || live_skip "no '$NODE' (Debian package 'nodejs')"
command -v unshare >/dev/null 2>&1 || live_skip "no unshare (util-linux)"
unshare -m true 2>/dev/null || live_skip "unshare -m is not allowed here (not root?)"
node_bin=$(readlink -f "$(command -v "$NODE")")
pid=
trap 'rm -f "/tmp/perf-$pid.map"; live_on_exit $?' EXIT

# the outputs compared, for recording $1 (perf.data or a bundle), into dir $2
outputs() {
	mkdir -p "$2"
	for c in fold script tiers sources; do
		live_jitsym "$c" "$1" >"$2/$c" 2>"$2/$c.err" || live_fail "$c $1: exit $?: $(cat "$2/$c.err")"
	done
	live_jitsym timeline "$1" -o "$2/timeline.json" 2>"$2/timeline.err" ||
		live_fail "timeline $1: exit $?"
	live_jitsym report --source-lines "$1" >"$2/report" 2>"$2/report.err" ||
		live_fail "report $1: exit $?"
	live_jitsym pprof "$1" -o "$2/pprof.pb.gz" 2>"$2/pprof.err" || live_fail "pprof $1: exit $?"
}

# $1 the recording's dir; the bundle's outputs with everything it names covered
hidden_outputs() {
	cat >"$live_tmp/hide.sh" <<EOF
set -e
mount -t tmpfs none "$1"
mount -t tmpfs none /usr/lib/debug 2>/dev/null || true
[ -d "\$HOME/.debug" ] && mount -t tmpfs none "\$HOME/.debug"
mount --bind /dev/null "$node_bin"
[ -d "$live_buildid_dir" ] && mount -t tmpfs none "$live_buildid_dir"
for f in "$NATIVE_DEMO" "\$(dirname "$NATIVE_DEMO")"/libdemo.so; do mount --bind /dev/null "\$f"; done
mount --bind /dev/null /proc/kallsyms
for m in /tmp/perf-*.map; do [ -e "\$m" ] && mount --bind /dev/null "\$m"; done
cd "$live_tmp/elsewhere"
export HOME=/nonexistent
$(command -v sh) "$live_tmp/outputs.sh"
EOF
	mkdir -p "$live_tmp/elsewhere"
	cat >"$live_tmp/outputs.sh" <<EOF
set -e
J="$JITSYM"
for c in fold script tiers sources; do "\$J" \$c "$live_tmp/b.jsar" >"$live_tmp/b/\$c" 2>"$live_tmp/b/\$c.err"; done
"\$J" timeline "$live_tmp/b.jsar" -o "$live_tmp/b/timeline.json" 2>"$live_tmp/b/timeline.err"
"\$J" report --source-lines "$live_tmp/b.jsar" >"$live_tmp/b/report" 2>"$live_tmp/b/report.err"
"\$J" pprof "$live_tmp/b.jsar" -o "$live_tmp/b/pprof.pb.gz" 2>"$live_tmp/b/pprof.err"
# and nothing of the recording is here
! [ -e "$1/perf.data" ]
EOF
	rm -rf "$live_tmp/b"
	mkdir -p "$live_tmp/b"
	unshare -m sh "$live_tmp/hide.sh" >"$live_tmp/hide.out" 2>&1 ||
		live_fail "the bundle's outputs with its files out of reach: $(cat "$live_tmp/hide.out")"
}

# $1 a name, $2 the recording's dir
check_bundle() {
	rec=$2/perf.data
	live_jitsym archive -v "$rec" -o "$live_tmp/b.jsar" 2>"$live_tmp/archive.err" ||
		live_fail "$1: archive failed: $(cat "$live_tmp/archive.err")"
	tar --zstd -tf "$live_tmp/b.jsar" >"$live_tmp/list" ||
		live_fail "$1: tar --zstd cannot list the bundle"
	grep -qx "root$rec" "$live_tmp/list" || live_fail "$1: no root$rec in the bundle"
	rm -rf "$live_tmp/x"
	mkdir "$live_tmp/x"
	tar --zstd -xf "$live_tmp/b.jsar" -C "$live_tmp/x" "root$rec"
	cmp -s "$rec" "$live_tmp/x/root$rec" || live_fail "$1: the bundle's perf.data differs"
	outputs "$rec" "$live_tmp/o"
	hidden_outputs "$2"
	for f in fold script tiers sources report pprof.pb.gz timeline.json; do
		cmp -s "$live_tmp/o/$f" "$live_tmp/b/$f" ||
			live_fail "$1: $f of the bundle differs: $(diff "$live_tmp/o/$f" "$live_tmp/b/$f" | head -5)"
	done
	live_say "$1: perf.data $(wc -c <"$rec") bytes, bundle $(wc -c <"$live_tmp/b.jsar");" \
		"fold $(wc -l <"$live_tmp/o/fold") lines, script $(wc -l <"$live_tmp/o/script")," \
		"all seven identical; $(sed -n 's/^jitsym: archived //p' "$live_tmp/archive.err")"
}

# node: a jitdump and a perf map, in the recording's directory and /tmp
mkdir "$live_tmp/node"
cp "$live_top/examples/node/hot.js" "$live_tmp/node/"
(cd "$live_tmp/node" && live_record "$live_tmp/node/perf.data" "$NODE" --perf-prof \
	--perf-basic-prof --interpreted-frames-native-stack hot.js "${LIVE_SECONDS:-1}")
ls "$live_tmp/node"/jit-*.dump >/dev/null 2>&1 || live_hard_error "node wrote no jitdump"
pid=$(basename "$(ls "$live_tmp/node"/jit-*.dump | head -n 1)" .dump)
pid=${pid#jit-}
# a samply marker file next to the recording: timeline shows it, so the bundle holds it
t0=$(live_jitsym script "$live_tmp/node/perf.data" 2>/dev/null |
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }')
[ -n "$t0" ] || live_hard_error "no sample time in script's output"
awk -v t="$t0" 'BEGIN { printf "%.0f %.0f archive-test-span\n", t * 1e9, t * 1e9 + 1e8 }' \
	>"$live_tmp/node/marker-$pid-test.txt"
check_bundle node "$live_tmp/node"
grep -q archive-test-span "$live_tmp/o/timeline.json" ||
	live_fail "node: the marker file's span is not in the timeline"
grep -q "^root$live_tmp/node/marker-$pid-test.txt\$" "$live_tmp/list" ||
	live_fail "node: the marker file is not in the bundle"
loads=$(sed -n 's/.*jitdump loads whose code is kept: \([0-9]*\) of \([0-9]*\).*/\1 \2/p' \
	"$live_tmp/archive.err")
# shellcheck disable=SC2086
set -- $loads
[ "$#" = 2 ] && [ "$1" -gt 0 ] && [ "$1" -lt "$2" ] ||
	live_fail "node: jitdump loads whose code is kept: '$loads' (want some, fewer than all)"
grep -q "^root/tmp/perf-$pid.map$" "$live_tmp/list" || live_fail "node: no perf map in the bundle"
jd=$(ls "$live_tmp/node"/jit-*.dump)
tar --zstd -xf "$live_tmp/b.jsar" -C "$live_tmp/x" "root$jd"
[ "$(wc -c <"$jd")" = "$(wc -c <"$live_tmp/x/root$jd")" ] ||
	live_fail "node: the bundle's jitdump is not the size of the original"

# a damaged bundle: cut in the middle
head -c $(($(wc -c <"$live_tmp/b.jsar") / 2)) "$live_tmp/b.jsar" >"$live_tmp/cut.jsar"
if "$JITSYM" fold "$live_tmp/cut.jsar" >/dev/null 2>"$live_tmp/cut.err"; then
	live_fail "a bundle cut in half read without error"
fi
grep -q "cut.jsar.*offset" "$live_tmp/cut.err" ||
	live_fail "the cut bundle's error names no offset: $(cat "$live_tmp/cut.err")"

# native: a program with DWARF (inlined functions, source lines) and a library of its own
mkdir "$live_tmp/native"
live_build_demo
live_record "$live_tmp/native/perf.data" "$NATIVE_DEMO" "${LIVE_SECONDS:-1}"
check_bundle native "$live_tmp/native"
live_finish
