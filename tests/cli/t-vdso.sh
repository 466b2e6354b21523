#!/bin/sh
# [vdso] frames in a recording without a copy of the vdso in the build-id
# cache (perf record -N, pipe mode, -z, --buildid-mmap): the running
# kernel's vdso stands in, as in perf, but only when the recording proves
# (its [vdso] build id) or says (os release and hostname, when it has no
# build id for [vdso]) that it was made on the running kernel. The
# recordings are synthesized here from what tests/tools/vdso-info reads of
# the running vdso (its build id and clock_gettime entry), so the test
# depends on the machine it runs on, not on bundled files; HOME is an
# empty directory, so no build-id cache has the vdso.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

VDSO_INFO=${VDSO_INFO:-$abs_top_builddir/tests/tools/vdso-info}
"$VDSO_INFO" >"$tmp/info"
rc=$?
[ "$rc" = 77 ] && { echo "skip: no vdso with clock_gettime in this process"; exit 77; }
[ "$rc" = 0 ] || { echo "vdso-info failed"; exit 99; }
bid=$(awk '$1 == "buildid" { print $2 }' "$tmp/info")
size=$(awk '$1 == "size" { print $2 }' "$tmp/info")
sym=$(awk '$1 == "symbol" { print $2 }' "$tmp/info")
addr=$(awk '$1 == "symbol" { print $3 }' "$tmp/info")
[ -n "$bid" ] || { echo "skip: the running vdso has no build id"; exit 77; }
mkdir "$tmp/home"
HOME=$tmp/home
export HOME
: >"$tmp/kallsyms"
# the vdso mapped at 0x7ffd00000000, pages enough for its image
base=140724603453440
len=$(( (size + 4095) / 4096 * 4096 ))
ip=$(printf '0x%x' $((base + 0x$addr + 4)))
caller=$(printf '0x%x' $((base + 0x$addr)))
other=$(printf '%040d' 0 | tr 0 1)

# spec RELEASE HOSTNAME VDSO_BUILD_ID: a process sampled twice in the vdso
spec() {
	echo "feature hostname $2"
	echo "feature osrelease $1"
	echo "feature arch $(uname -m)"
	[ -n "$3" ] && echo "buildid pid=-1 misc=user name=[vdso] id=$3"
	echo "attr name=cpu-clock type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD,ID,CPU sample_id_all=1 mmap=1 comm=1 task=1 mmap2=1 ids=11"
	echo "comm pid=100 tid=100 comm=clocker exec=1 time=1000 cpu=0"
	echo "mmap2 pid=100 tid=100 start=$(printf '0x%x' $base) len=$len pgoff=0 maj=0 min=0 ino=0 prot=5 flags=2 filename=[vdso] time=1100 cpu=0"
	echo "sample id=11 pid=100 tid=100 time=2000 cpu=0 period=1 ip=$ip callchain=user:$ip"
	echo "sample id=11 pid=100 tid=100 time=2100 cpu=0 period=1 ip=$ip callchain=user:$ip,$caller"
}

# run NAME MKPERF_OPTS JITSYM_OPTS: jitsym script's output and warnings
run() {
	# shellcheck disable=SC2086
	"$MKPERF" $2 "$tmp/spec" "$tmp/$1.data" || { echo "mkperf failed"; exit 99; }
	# shellcheck disable=SC2086
	"$JITSYM" script --kallsyms "$tmp/kallsyms" $3 "$tmp/$1.data" >"$tmp/$1.out" 2>"$tmp/$1.err"
}
named() { grep -q "$sym+0x4 (\[vdso\])" "$tmp/$1.out"; }
unknown() { ! grep -q "$sym" "$tmp/$1.out" && grep -q "\[unknown\] (\[vdso\])" "$tmp/$1.out"; }
says() { grep -q "$2" "$tmp/$1.err"; }

# 1. -N on the running kernel: the recording's [vdso] build id is the running vdso's
spec "0.0-other" otherhost "$bid" >"$tmp/spec"
run same "" ""
if named same && ! says same warning; then
	ok "[vdso] with the running vdso's build id ($bid): named $sym, no warning"
else
	bad "[vdso] with the running vdso's build id"; cat "$tmp/same.out" "$tmp/same.err"
fi

# 2. another kernel's vdso build id: [unknown], the cause and the fix
spec "$(uname -r)" "$(uname -n)" "$other" >"$tmp/spec"
run other "" ""
if unknown other && says other "build id $other is neither in the build-id cache" &&
   says other "recorded on another kernel, or with -N there" && says other "record without -N"; then
	ok "[vdso] with another build id: [unknown], another kernel or -N named"
else
	bad "[vdso] with another build id"; cat "$tmp/other.out" "$tmp/other.err"
fi

# 3. pipe mode, no build id, recorded on this kernel and host: by release, said so
spec "$(uname -r)" "$(uname -n)" "" >"$tmp/spec"
run pipe --pipe ""
if named pipe && says pipe "recorded in pipe mode): using the running kernel's vdso, matched by kernel release '$(uname -r)' and hostname only"; then
	ok "pipe mode on the running kernel: named $sym, matched by release and hostname, said"
else
	bad "pipe mode on the running kernel"; cat "$tmp/pipe.out" "$tmp/pipe.err"
fi

# 4. pipe mode, no build id, another kernel release: never the host's vdso
spec "0.0-other" "$(uname -n)" "" >"$tmp/spec"
run pipe-other --pipe ""
if unknown pipe-other && says pipe-other "recorded in pipe mode) and it was made on kernel '0.0-other', not the running one"; then
	ok "pipe mode on another kernel: [unknown], cause named"
else
	bad "pipe mode on another kernel"; cat "$tmp/pipe-other.out" "$tmp/pipe-other.err"
fi

# 5. the same release on another host: not trusted
spec "$(uname -r)" "not-$(uname -n)" "" >"$tmp/spec"
run host-other --pipe ""
if unknown host-other && says host-other "made on host 'not-$(uname -n)', not this one"; then
	ok "pipe mode on another host with the same release: [unknown]"
else
	bad "pipe mode on another host"; cat "$tmp/host-other.out" "$tmp/host-other.err"
fi

# 6. the running vdso's build id but --symfs: files come from elsewhere, as in perf
mkdir "$tmp/symfs"
spec "$(uname -r)" "$(uname -n)" "$bid" >"$tmp/spec"
run symfs "" "--symfs $tmp/symfs"
if unknown symfs && says symfs "the host's vdso is not used with --symfs"; then
	ok "--symfs: the host's vdso is not used"
else
	bad "--symfs"; cat "$tmp/symfs.out" "$tmp/symfs.err"
fi
exit "$fail"
