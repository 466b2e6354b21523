#!/bin/sh
# Regenerate the seed corpora under tests/fuzz/corpus/ from the golden test
# inputs: mkperf and mkjitdump outputs of their specs, the perf maps, the
# start of the recorded perf.data files, and for the pipeline target each
# golden JIT case's perf.data, jitdump and perf map in fuzz-pipeline.c's
# layout, and for the inline lookup the goldens' small ELF files with DWARF
# and a DWARF cache entry, and for the bundle container GNU tar's archives
# (mkcorpus-tarzst.sh). Run from the top of the source tree with a built tree:
#
#   tests/fuzz/mkcorpus.sh BUILDDIR
#
# The seeds are committed; this script is how they were made. Keep them
# small (the whole corpus well under 2 MB): a fuzzer mutates a short input
# faster, and the recorded files are cut to their first RECORDED_MAX bytes.
set -eu
[ $# -eq 1 ] || { echo "usage: tests/fuzz/mkcorpus.sh BUILDDIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
MKPERF=$build/tests/tools/mkperf
MKJITDUMP=$build/tests/tools/mkjitdump
RECORDED_MAX=24576
out=tests/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out/perfdata" "$out/jitdump" "$out/perfmap" "$out/pipeline"

# inline: ELF files with DWARF from the goldens (two-deep and recursive
# inlining, a shared library with an inlined function, one without DWARF)
mkdir -p "$out/inline"
for f in tests/golden/inline-synth/symfs/usr/bin/inl-main \
	 tests/golden/inline-synth/symfs/usr/lib/inl/libinl.so \
	 tests/golden/inline-synth/symfs/usr/lib/inl/libplain.so \
	 tests/golden/native-recorded/symfs/tmp/jitsym-golden/libdemo.so; do
	cp "$f" "$out/inline/$(echo "$f" | sed 's|^tests/golden/||; s|/symfs/.*/|-|')"
done
# and an entry of the DWARF cache (src/resolve/dwarf-cache.h), which
# fuzz-inline also parses its input as: libinl.so's, written by a fold
# of inline-synth's recording with that library's DWARF compressed
cp -R tests/golden/inline-synth/symfs "$tmp/symfs"
chmod -R u+w "$tmp/symfs"
objcopy --compress-debug-sections=zlib-gabi tests/golden/inline-synth/symfs/usr/lib/inl/libinl.so \
	"$tmp/symfs/usr/lib/inl/libinl.so"
"$MKPERF" tests/golden/inline-synth/inl.spec "$tmp/inl.data" >/dev/null
JITSYM_CACHE_DIR=$tmp/cache "$build/jitsym" fold --symfs "$tmp/symfs" --kallsyms /dev/null \
	"$tmp/inl.data" >/dev/null
cp "$tmp/cache/dwarf/$(readelf -n "$tmp/symfs/usr/lib/inl/libinl.so" | sed -n 's/.*Build ID: //p')" \
	"$out/inline/dwarf-cache-entry-libinl"

# unwind: hand-made registers, CFI and stacks
"$(dirname "$0")/mkcorpus-unwind.sh" "$out/unwind"

# tarzst: GNU tar's archives of a small tree, raw and compressed
"$(dirname "$0")/mkcorpus-tarzst.sh" "$out/tarzst"

# a spec's name in the corpus: its directory and base name
name() { echo "$1" | sed 's|^tests/||; s|/|-|g; s|\.[a-z]*$||'; }

# perf.data: every spec in the forms mkperf writes
for spec in tests/golden/*/*.spec tests/golden/*/*/*.spec tests/tools/examples/*.spec; do
	n=$(name "$spec")
	for mode in "" --pipe --compress --swap "--pipe --compress" "--pipe --swap --compress"; do
		m=$(echo "${mode:-file}" | tr -d ' -')
		# shellcheck disable=SC2086
		"$MKPERF" $mode "$spec" "$out/perfdata/$n-$m.data" 2>/dev/null ||
			rm -f "$out/perfdata/$n-$m.data"
	done
done
# perf 6.15's COMPRESSED2 records (data_size, padding): the specs made for them
for spec in tests/golden/compressed2-synth/*.spec; do
	n=$(name "$spec")
	"$MKPERF" --compress2 "$spec" "$out/perfdata/$n-compress2.data"
	"$MKPERF" --pipe --swap --compress2 "$spec" "$out/perfdata/$n-pipeswapcompress2.data"
done
for f in tests/golden/*-recorded/perf.data; do
	head -c $RECORDED_MAX "$f" >"$out/perfdata/$(name "${f%/perf.data}").data"
done

# jitdump: every jdspec, native and big-endian
for spec in tests/golden/*/*.jdspec tests/golden/*/*/*.jdspec tests/tools/examples/*.jdspec; do
	n=$(name "$spec")
	"$MKJITDUMP" "$spec" "$out/jitdump/$n.dump" 2>/dev/null || rm -f "$out/jitdump/$n.dump"
	"$MKJITDUMP" --swap "$spec" "$out/jitdump/$n-swap.dump" 2>/dev/null ||
		rm -f "$out/jitdump/$n-swap.dump"
done

# perf maps
for f in tests/golden/*/maps/*.map; do
	cp "$f" "$out/perfmap/$(name "${f%.map}").map"
done

# pipeline: u32 pid, u32 perf.data length, u32 jitdump length, the three files
u32le() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"
}
pack() { # out pid perf.data jitdump perfmap
	{
		u32le "$2"; u32le "$(wc -c <"$3")"; u32le "$(wc -c <"$4")"
		cat "$3" "$4" "$5"
	} >"$1"
}
for spec in tests/golden/jit-*/*.spec tests/golden/report-jit/*.spec tests/golden/jit-lifecycle/*/s.spec \
	tests/golden/dwarf-jit/*.spec; do
	d=$(dirname "$spec")
	for jd in "$d"/jit-[0-9]*.jdspec "$d"/j.jdspec; do
		[ -f "$jd" ] || continue
		if [ "$(basename "$jd")" = j.jdspec ]; then
			pid=$(sed -n 's|.*filename=[^ ]*jit-\([0-9]*\)\.dump.*|\1|p' "$spec" | head -n 1)
		else
			pid=$(basename "$jd" | sed 's/^jit-\([0-9]*\).*/\1/')
		fi
		map=$d/maps/perf-$pid.map
		[ -f "$map" ] || map=/dev/null
		"$MKJITDUMP" "$jd" "$tmp/j.dump"
		n=$(name "$spec")-$pid
		for mode in "" "--pipe --compress" --swap; do
			m=$(echo "${mode:-file}" | tr -d ' -')
			# shellcheck disable=SC2086
			"$MKPERF" $mode "$spec" "$tmp/p.data"
			pack "$out/pipeline/$n-$m" "$pid" "$tmp/p.data" "$tmp/j.dump" "$map"
		done
	done
done
# pipeline: deferred user call chains joined in the session (no JIT files)
for spec in tests/golden/deferred-synth/*.spec; do
	n=$(name "$spec")
	for mode in "" "--pipe --compress" --swap; do
		m=$(echo "${mode:-file}" | tr -d ' -')
		# shellcheck disable=SC2086
		"$MKPERF" $mode "$spec" "$tmp/p.data"
		pack "$out/pipeline/$n-$m" 100 "$tmp/p.data" /dev/null /dev/null
	done
done
du -sh "$out"/*
