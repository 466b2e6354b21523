#!/bin/sh
# The libraries as installed (issue 26): 'make install-libs DESTDIR=...'
# installs libjitdump-reader and libperfmap (headers, static and shared
# libraries, pkg-config files, man pages); then each example of
# examples/lib*/ is built out of the tree against that copy alone, through
# pkg-config (PKG_CONFIG_LIBDIR and PKG_CONFIG_SYSROOT_DIR into DESTDIR),
# once shared (run with LD_LIBRARY_PATH) and once static ('pkg-config
# --static', the archive), and run on a jitdump made by mkjitdump from a
# golden case's spec and on a golden case's perf map, its output compared
# line by line. Also: the sonames, that the shared libraries export the
# headers' functions and nothing else, and that the man pages render.
# Everything is written under $tmp. Skips only without pkg-config.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

command -v pkg-config >/dev/null 2>&1 || { echo "skip: no pkg-config"; exit 77; }
cc=${JITSYM_CC:-cc}
# the sanitizers the libraries were built with, which their users need too
san=${JITSYM_SAN:-}
inst=$tmp/inst
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$abs_top_builddir/config.h")

# MAKEFLAGS of a parallel 'make check' name a jobserver this make cannot use
if (cd "$abs_top_builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	"${MAKE:-make}" -s install-libs DESTDIR="$inst") >"$tmp/install.log" 2>&1; then
	ok "make install-libs DESTDIR=... installs"
else
	bad "make install-libs DESTDIR=... failed"
	cat "$tmp/install.log"
	exit 1
fi

pc=$(find "$inst" -name perfmap.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || { bad "no pkgconfig/perfmap.pc under DESTDIR"; exit 1; }
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
PKG_CONFIG_LIBDIR=$pcdir
PKG_CONFIG_PATH=$pcdir
PKG_CONFIG_SYSROOT_DIR=$inst
export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
unset LD_LIBRARY_PATH

# lib NAME HEADER: the installed files of libNAME
for pair in jitdump-reader:jitdump-reader/jitdump-reader.h perfmap:perfmap/perfmap.h; do
	name=${pair%%:*}
	header=${pair#*:}
	missing=
	for f in "lib$name.a" "lib$name.so" "lib$name.so.1" "pkgconfig/$name.pc"; do
		[ -e "$libdir/$f" ] || missing="$missing $f"
	done
	h=$(find "$inst" -path "*/include/$header" | head -n 1)
	[ -n "$h" ] || missing="$missing include/$header"
	m=$(find "$inst" -path "*/man3/lib$name.3" | head -n 1)
	[ -n "$m" ] || missing="$missing man3/lib$name.3"
	if [ -z "$missing" ]; then
		ok "lib$name: headers, .a, .so, .pc and man page installed"
	else
		bad "lib$name: not installed:$missing"
		continue
	fi

	if pkg-config --print-errors --exists "$name" 2>"$tmp/pc.err" &&
		[ "$(pkg-config --modversion "$name")" = "$version" ] &&
		pkg-config --cflags "$name" | grep -q -e "-I$inst/" &&
		pkg-config --libs "$name" | grep -q -e "-L$inst/.* -l$name"; then
		ok "$name.pc parses: version $version, $(pkg-config --cflags --libs "$name")"
	else
		bad "$name.pc does not parse or names other paths"
		cat "$tmp/pc.err"
		pkg-config --modversion --cflags --libs "$name"
	fi

	soname=$(objdump -p "$libdir/lib$name.so" | awk '$1 == "SONAME" { print $2 }')
	if [ "$soname" = "lib$name.so.1" ]; then
		ok "lib$name.so: soname $soname"
	else
		bad "lib$name.so: soname '$soname', not lib$name.so.1"
	fi

	# the functions the header declares (and its comments name)
	grep -o '[a-z_]*__[a-z_]*(' "$h" | tr -d '(' | sort -u >"$tmp/api"
	nm -D --defined-only "$libdir/lib$name.so" | awk '{ print $NF }' | sort -u >"$tmp/exported"
	if [ -s "$tmp/exported" ] && cmp -s "$tmp/api" "$tmp/exported"; then
		ok "lib$name.so exports the header's $(wc -l <"$tmp/exported") functions, nothing else"
	else
		bad "lib$name.so: exported symbols differ from the header's functions (< header, > exported)"
		diff "$tmp/api" "$tmp/exported" | grep '^[<>]'
	fi

	if command -v man >/dev/null 2>&1; then
		if MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$m" >"$tmp/man.txt" 2>"$tmp/man.err" &&
			[ ! -s "$tmp/man.err" ] && grep -q "#include <$header>" "$tmp/man.txt" &&
			grep -q "pkg-config --cflags --libs $name" "$tmp/man.txt"; then
			ok "man -l lib$name.3 renders without warnings"
		else
			bad "man -l lib$name.3: warnings, or no #include or pkg-config line"
			cat "$tmp/man.err"
		fi
	fi
done

# build NAME SOURCE OUT [--static]: the example, against the installed copy
build() {
	name=$1 src=$2 out=$3
	# shellcheck disable=SC2046 # pkg-config's words, split
	if [ "${4:-}" = --static ]; then
		# the archive: -Bstatic for the library only (libc stays shared)
		set -- $(pkg-config --static --cflags --libs-only-L --libs-only-other "$name") \
			-Wl,-Bstatic $(pkg-config --static --libs-only-l "$name") -Wl,-Bdynamic
	else
		set -- $(pkg-config --cflags --libs "$name")
	fi
	# shellcheck disable=SC2086
	(cd "$tmp" && $cc $san -std=c11 -pedantic-errors -Wall -Wextra -Werror -O1 \
		-o "$out" "$src" "$@") >"$tmp/cc.log" 2>&1
}

# check NAME SOURCE EXPECTED ARGS...: build the example both ways, run it
# with ARGS, compare its output with EXPECTED
check() {
	name=$1 src=$2 expected=$3
	shift 3
	for how in shared static; do
		out=$tmp/$(basename "$src" .c)-$how
		if ! build "$name" "$src" "$out" "--$how"; then
			bad "$name: $how build of $(basename "$src") failed"
			cat "$tmp/cc.log"
			continue
		fi
		needed=$(objdump -p "$out" | awk '$1 == "NEEDED" { print $2 }' | grep "^lib$name\.")
		if [ $how = shared ]; then
			resolved=$(LD_LIBRARY_PATH=$libdir ldd "$out" | awk -v l="lib$name.so.1" '$1 == l { print $3 }')
			if [ "$needed" != "lib$name.so.1" ] || [ "$resolved" != "$libdir/lib$name.so.1" ]; then
				bad "$name: shared example needs '$needed', found at '$resolved'"
				continue
			fi
			LD_LIBRARY_PATH=$libdir "$out" "$@" >"$tmp/out" 2>"$tmp/err"
		else
			if [ -n "$needed" ]; then
				bad "$name: static example still needs $needed"
				continue
			fi
			"$out" "$@" >"$tmp/out" 2>"$tmp/err"
		fi
		rc=$?
		if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && printf '%s\n' "$expected" | cmp -s - "$tmp/out"; then
			ok "$name: $(basename "$src") built $how, runs: $(wc -l <"$tmp/out") lines as expected"
		else
			bad "$name: $how $(basename "$src") exit $rc, output differs (< expected, > output)"
			printf '%s\n' "$expected" | diff - "$tmp/out" | grep '^[<>]'
			cat "$tmp/err"
		fi
	done
}

# the JIT code of the callsite golden case's process 400
golden=$abs_top_srcdir/tests/golden/callsite
if ! "$MKJITDUMP" "$golden/jit-400.jdspec" "$tmp/jit-400.dump" 2>"$tmp/err"; then
	bad "mkjitdump $golden/jit-400.jdspec failed"
	cat "$tmp/err"
else
	check jitdump-reader "$abs_top_srcdir/examples/libjitdump-reader/dump-loads.c" \
'1100 400 400 0x7f5000001000 0x20 erts_beamasm:normal_exit/0-CodeInfoPrologue
1200 400 400 0x7f5000001020 0x40 erts_beamasm:normal_exit/0
1300 400 400 0x7f5000001060 0x40 busy:work/1
1400 400 400 0x7f50000010a0 0x40 busy:fib/1' \
		"$tmp/jit-400.dump"
fi
check perfmap "$abs_top_srcdir/examples/libperfmap/lookup.c" \
'0x7f5000002000 stub_a+0x0 0x7f5000002000 0x20
0x7f5000002010 stub_a+0x10 0x7f5000002000 0x20
0x7f500000203f stub_b+0x1f 0x7f5000002020 0x20
0x7f5000002040 -' \
	"$golden/maps/perf-400.map" 7f5000002000 0x7f5000002010 7f500000203f 7f5000002040

exit $fail
