#!/bin/sh
# t-symfs.sh: --symfs DIR confines every binary lookup to DIR. A file
# outside it with known symbols (the golden fgdemo, and native-demo with
# its build id) is reachable from the recording's names only by escaping:
#   /../outside/fgdemo        ".." above the root
#   /usr/bin/abs              an absolute symlink inside DIR to the outside
#   /usr/bin/rel              a relative symlink climbing out of DIR
#   /../../outside/bid        + build id: the build-id cache (DIR/.debug)
#                              path built from the recorded name
#   /usr/bin/gone             + build id: DIR/.debug/.build-id/xx/rest, an
#                              absolute symlink to the outside
# None of them may be resolved; /usr/bin/inside (the same fgdemo, inside
# DIR) must be, so the check is not vacuous.
set -u
. "$(dirname "$0")/lib.sh"
fgdemo=$abs_top_srcdir/tests/golden/flamegraph-synth/usr/bin/fgdemo
symfs=$tmp/symfs out=$tmp/outside
mkdir -p "$symfs/usr/bin" "$out"
cp "$fgdemo" "$out/fgdemo"
cp "$fgdemo" "$symfs/usr/bin/inside"
ln -s "$out/fgdemo" "$symfs/usr/bin/abs"
ln -s ../../../outside/fgdemo "$symfs/usr/bin/rel"
# node::Start is at 0x3ff in fgdemo: map it at pgoff 0, sample 0x400 in
cat >"$tmp/s.spec" <<SPEC
attr type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD sample_period=1 mmap=1 comm=1 task=1 mmap2=1
comm pid=100 tid=100 comm=prog exec=1
mmap2 pid=100 tid=100 start=0x100000 len=0x1000 pgoff=0 prot=5 flags=2 filename=/../outside/fgdemo
mmap2 pid=100 tid=100 start=0x200000 len=0x1000 pgoff=0 prot=5 flags=2 filename=/usr/bin/abs
mmap2 pid=100 tid=100 start=0x300000 len=0x1000 pgoff=0 prot=5 flags=2 filename=/usr/bin/rel
mmap2 pid=100 tid=100 start=0x600000 len=0x1000 pgoff=0 prot=5 flags=2 filename=/usr/bin/inside
sample pid=100 tid=100 time=1 ip=0x100400 callchain=user:0x100400
sample pid=100 tid=100 time=2 ip=0x200400 callchain=user:0x200400
sample pid=100 tid=100 time=3 ip=0x300400 callchain=user:0x300400
sample pid=100 tid=100 time=4 ip=0x600400 callchain=user:0x600400
SPEC
# the build-id cache: native-demo, when built with a build id
hex=
if [ -x "$NATIVE_DEMO" ] && command -v readelf >/dev/null 2>&1; then
	hex=$(readelf -n "$NATIVE_DEMO" | awk '/Build ID/ { print $3 }')
	main=$(readelf -sW "$NATIVE_DEMO" | awk '$8 == "main" && $4 == "FUNC" { print $2 }')
fi
if [ -n "$hex" ] && [ -n "$main" ]; then
	mkdir -p "$out/bid/$hex" "$symfs/.debug/.build-id/$(echo "$hex" | cut -c1-2)"
	cp "$NATIVE_DEMO" "$out/bid/$hex/elf"
	cp "$NATIVE_DEMO" "$out/native-demo"
	ln -s "$out/native-demo" "$symfs/.debug/.build-id/$(echo "$hex" | cut -c1-2)/$(echo "$hex" | cut -c3-)"
	ip=$(printf '0x%x' $((0x7000000000 + 0x$main)))
	ip2=$(printf '0x%x' $((0x7100000000 + 0x$main)))
	cat >>"$tmp/s.spec" <<SPEC
mmap2 pid=100 tid=100 start=0x7000000000 len=0x100000 pgoff=0 prot=5 flags=2 filename=/../../outside/bid buildid=$hex
mmap2 pid=100 tid=100 start=0x7100000000 len=0x100000 pgoff=0 prot=5 flags=2 filename=/usr/bin/gone buildid=$hex
sample pid=100 tid=100 time=5 ip=$ip callchain=user:$ip
sample pid=100 tid=100 time=6 ip=$ip2 callchain=user:$ip2
SPEC
else
	echo "# no native-demo with a build id: build-id cache cases skipped"
fi
"$MKPERF" "$tmp/s.spec" "$tmp/s.data" || exit 99
# without --symfs the recorded names reach the outside (the test's control)
(cd "$symfs" && ${JITSYM_WRAPPER:-} "$JITSYM" script -q --kallsyms /dev/null \
	--buildid-dir "$symfs/.debug" "$tmp/s.data") >"$tmp/control" 2>&1
${JITSYM_WRAPPER:-} "$JITSYM" script --kallsyms /dev/null --symfs "$symfs" "$tmp/s.data" \
	>"$tmp/got" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok "exit 0" || bad "exit $rc"
n=$(grep -c 'node::Start' "$tmp/got")
[ "$n" -eq 1 ] && ok "only the file inside symfs is resolved (node::Start once)" ||
	bad "node::Start resolved $n times, expected 1"
grep -q 'node::Start.*(/usr/bin/inside)' "$tmp/got" && ok "/usr/bin/inside resolved" ||
	bad "/usr/bin/inside not resolved"
for f in /../outside/fgdemo /usr/bin/abs /usr/bin/rel /../../outside/bid /usr/bin/gone; do
	case $f in */bid|*/gone) [ -n "$hex" ] || continue ;; esac
	if grep -F "($f)" "$tmp/got" | grep -q '\[unknown\]'; then
		ok "$f stays unresolved"
	else
		bad "$f was resolved from outside symfs"; grep -F "($f)" "$tmp/got"
	fi
done
if [ -n "$hex" ]; then
	grep -q 'main' "$tmp/got" && bad "native-demo's main was read from outside symfs" ||
		ok "nothing of native-demo (outside symfs) is used"
	grep -q 'main.*(/usr/bin/gone)' "$tmp/control" &&
		ok "control: the build-id symlink works without the confinement" ||
		bad "control: the build-id symlink was not followed without --symfs"
fi
[ $fail -eq 0 ] || { echo "# stderr:"; sed 's/^/# /' "$tmp/err"; cat "$tmp/got"; }
exit $fail
