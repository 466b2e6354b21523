#!/bin/sh
# The DWARF cache, end to end (src/resolve/dwarf-cache.h): the golden
# inline-synth recording with its two objects with DWARF (inl-main,
# libinl.so) compressed as Debian's -dbg packages have them (objcopy
# --compress-debug-sections=zlib-gabi). With JITSYM_CACHE_DIR set, the
# first fold writes one entry per build id and the second reads both;
# both print the golden's fold (the uncompressed objects', checked against
# addr2line there), as does a fold with the cache off; sources says what
# the cache gave and took, and nothing when it is off. Four runs at once
# on an empty cache each fold right and leave entries the next run reads.
# A run killed while it writes leaves no file in the cache. Skips without objcopy or without
# libdeflate (the cache keeps what jitsym inflates with it).
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

command -v objcopy >/dev/null || { echo "SKIP: objcopy (binutils) is not installed"; exit 77; }
grep -q '^#define HAVE_LIBDEFLATE 1' "$abs_top_builddir/config.h" ||
	{ echo "SKIP: jitsym is built without libdeflate: no DWARF cache"; exit 77; }

golden=$abs_top_srcdir/tests/golden/inline-synth
cp -R "$golden/symfs" "$tmp/symfs" && chmod -R u+w "$tmp/symfs" || exit 99
for f in usr/bin/inl-main usr/lib/inl/libinl.so; do
	objcopy --compress-debug-sections=zlib-gabi "$golden/symfs/$f" "$tmp/symfs/$f" || exit 99
done
"$MKPERF" "$golden/inl.spec" "$tmp/inl.data" >/dev/null || exit 99
# the golden's fold: the first section of its expected output
sed -n '/^== fold$/,/^== /p' "$golden/expected.stdout" | sed '1d;$d' >"$tmp/expected" || exit 99
[ -s "$tmp/expected" ] || { echo "no fold in the golden's output"; exit 99; }
opts="--symfs $tmp/symfs --kallsyms /dev/null"
cache=$tmp/cache
bid_main=$(readelf -n "$golden/symfs/usr/bin/inl-main" | sed -n 's/.*Build ID: //p')

fold() { JITSYM_CACHE_DIR=$1 "$JITSYM" fold $opts "$tmp/inl.data"; }
sources_line() { JITSYM_CACHE_DIR=$1 "$JITSYM" sources $opts "$tmp/inl.data" | grep '^DWARF cache'; }

fold "" >"$tmp/off" 2>"$tmp/off.err"
if cmp -s "$tmp/off" "$tmp/expected"; then ok "cache off: the golden's fold"; else bad "cache off: fold differs"; diff "$tmp/expected" "$tmp/off" | head; fi
[ ! -e "$cache" ] && ok "cache off: no directory made" || bad "cache off made $cache"
[ -z "$(sources_line "")" ] && ok "cache off: sources says nothing of it" || bad "cache off: sources has a cache line"

fold "$cache" >"$tmp/first" 2>"$tmp/first.err"
cmp -s "$tmp/first" "$tmp/expected" && ok "first run: the golden's fold" || bad "first run: fold differs"
n=$(find "$cache/dwarf" -type f | wc -l)
[ "$n" -eq 2 ] && ok "first run: two entries written" || bad "first run: $n entries in $cache/dwarf"
[ -s "$cache/dwarf/$bid_main" ] && ok "inl-main's entry is named by its build id" ||
	bad "no entry $cache/dwarf/$bid_main"
before=$(cd "$cache/dwarf" && md5sum ./*)

fold "$cache" >"$tmp/second" 2>"$tmp/second.err"
cmp -s "$tmp/second" "$tmp/expected" && ok "second run: the golden's fold" || bad "second run: fold differs"
[ "$(cd "$cache/dwarf" && md5sum ./*)" = "$before" ] && ok "second run: the entries unchanged" ||
	bad "second run rewrote the cache"
line=$(sources_line "$cache")
case $line in
*": 2 debug files' inflated sections read from it, 0 written") ok "sources: 2 read, 0 written" ;;
*) bad "sources says: '$line'" ;;
esac
rm -rf "$cache"
line=$(sources_line "$cache")
case $line in
*": 0 debug files' inflated sections read from it, 2 written") ok "sources, a new cache: 0 read, 2 written" ;;
*) bad "sources, a new cache, says: '$line'" ;;
esac

# stale: an entry for inl-main that is not its sections
printf 'JSYMDWC\0garbage' >"$cache/dwarf/$bid_main"
fold "$cache" >"$tmp/stale" 2>"$tmp/stale.err"
cmp -s "$tmp/stale" "$tmp/expected" && ok "a damaged entry: the golden's fold" || bad "a damaged entry: fold differs"
[ "$(wc -c <"$cache/dwarf/$bid_main")" -gt 100 ] && ok "the damaged entry is written again" ||
	bad "the damaged entry stays"

# a directory that cannot be made: the right fold, the reason in sources
: >"$tmp/plain-file"
fold "$tmp/plain-file/cache" >"$tmp/nodir" 2>"$tmp/nodir.err"
cmp -s "$tmp/nodir" "$tmp/expected" && ok "no cache directory: the golden's fold" || bad "no cache directory: fold differs"
[ ! -s "$tmp/nodir.err" ] && ok "no cache directory: nothing said without -v" || bad "no cache directory: $(cat "$tmp/nodir.err")"
line=$(sources_line "$tmp/plain-file/cache")
case $line in
*"2 not written (/"*"Not a directory)") ok "sources says why nothing was written" ;;
*) bad "sources, no directory, says: '$line'" ;;
esac

# four runs at once on an empty cache: each right, the entries whole
rm -rf "$cache"
for i in 1 2 3 4; do fold "$cache" >"$tmp/par$i" 2>/dev/null & done
wait
n=0
for i in 1 2 3 4; do cmp -s "$tmp/par$i" "$tmp/expected" && n=$((n + 1)); done
[ "$n" -eq 4 ] && ok "four runs at once: each the golden's fold" || bad "four runs at once: $n of 4 right"
line=$(sources_line "$cache")
case $line in
*": 2 debug files' inflated sections read from it, 0 written") ok "after them, both entries read whole" ;;
*) bad "after four runs at once, sources says: '$line'" ;;
esac

# killed while writing: the entries appear whole or not at all
rm -rf "$cache"
JITSYM_CACHE_DIR=$cache "$JITSYM" fold $opts "$tmp/inl.data" >/dev/null 2>&1 &
kill -KILL $! 2>/dev/null
wait 2>/dev/null
leftovers=$(find "$cache" -type f ! -size +100c 2>/dev/null | wc -l)
tmps=$(find "$cache" -name '*.tmp' 2>/dev/null | wc -l)
[ "$leftovers" -eq 0 ] && [ "$tmps" -eq 0 ] && ok "killed: no partial entry" || bad "killed: $leftovers short files, $tmps temporary"
exit $fail
