#!/bin/sh
# The seeds of fuzz-tarzst (layout in tests/fuzz/fuzz-tarzst.c), written
# into DIR; mkcorpus.sh calls it. Made by GNU tar and zstd, reproducibly
# (names sorted, owner 0, one mtime, 512-byte records, umask 022): the
# same small tree in tar's ustar, posix (pax) and gnu formats, as raw tar
# streams (flag byte 3: the fuzz target compresses them and fixes header
# checksums) and one as a container (flag byte 0); and a tree of the
# kinds a bundle never holds (hard link, FIFO), raw (flag byte 1); and a
# bundle (command/bundle.h: manifest, files, a symbolic link, aliases, a
# vdso), raw and opened as a bundle too (flag byte 7).
#
#   tests/fuzz/mkcorpus-tarzst.sh DIR
set -eu
[ $# -eq 1 ] || { echo "usage: tests/fuzz/mkcorpus-tarzst.sh DIR" >&2; exit 2; }
dir=$1
umask 022
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the tree: a file, an empty one, a directory, a symbolic link, a path of
# 150 bytes (ustar's prefix) and one of 300 (pax path, GNU 'L')
t=$tmp/tree
c49=long-component-long-component-long-component-49
long=$c49/$c49/$c49/
mkdir -p "$t/dir" "$t/$long" "$t/$long/$long"
printf 'hello\n' >"$t/dir/hello"
: >"$t/empty"
printf 'x' >"$t/$long/file-under-a-150-byte-path"
printf 'y' >"$t/$long/$long/file-under-a-300-byte-path"
ln -s dir/hello "$t/link"
ln -s "${long}file-under-a-150-byte-path" "$t/long-link"

mktar() { # format, tree, out
	[ "$1" = posix ] && set -- "$@" --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime
	tar --format="$1" --sort=name --mtime=@1700000000 --owner=0 --group=0 --numeric-owner \
		-b 1 -cf "$3" -C "$2" ${4:+"$4"} .
}
for f in ustar posix gnu; do
	# ustar cannot hold the 300-byte path: leave that file out of its archive
	if [ $f = ustar ]; then
		mktar $f "$t" "$tmp/$f.tar" 2>/dev/null || true
	else
		mktar $f "$t" "$tmp/$f.tar"
	fi
	{ printf '\003'; cat "$tmp/$f.tar"; } >"$dir/raw-$f"
done
{ printf '\000'; zstd -q -3 -c "$tmp/posix.tar"; } >"$dir/container-posix"

# the kinds a bundle never holds: skipped, a warning each
k=$tmp/kinds
mkdir -p "$k"
printf 'data' >"$k/a"
ln "$k/a" "$k/b"
mkfifo "$k/fifo"
mktar posix "$k" "$tmp/kinds.tar"
{ printf '\001'; cat "$tmp/kinds.tar"; } >"$dir/raw-kinds"

# a bundle: jitsym-bundle.txt first, root/PATH files and a link, aliases, vdso
bt=$tmp/bundle
mkdir -p "$bt/root/rec" "$bt/root/usr/lib"
printf 'jitsym-bundle 1\ninput perf.data\ncwd /rec\nhome /root\nrelease 6.1.0\nnodename host\noption symfs /\nfetched 00 /usr/lib/dbg\n' \
	>"$bt/jitsym-bundle.txt"
printf 'PERFILE2' >"$bt/root/rec/perf.data"
printf '\177ELF' >"$bt/root/usr/lib/libx.so"
ln -s usr/lib "$bt/root/link"
printf '/usr/lib/liby.so\000/usr/lib/libx.so\000' >"$bt/aliases"
printf '\177ELF' >"$bt/vdso"
(cd "$bt" && tar --format=posix --pax-option=delete=atime,delete=ctime --mtime=@1700000000 \
	--owner=0 --group=0 --numeric-owner -b 1 -cf "$tmp/bundle.tar" \
	jitsym-bundle.txt root/rec/perf.data root/usr/lib/libx.so root/link aliases vdso)
{ printf '\007'; cat "$tmp/bundle.tar"; } >"$dir/raw-bundle"
