#!/bin/sh
# Rebuilds the binaries of golden case inline-synth into symfs/ from inl.c,
# libinl.c and libplain.c (the committed binaries are what the test uses; a
# rebuild with another compiler moves every address in inl.spec). Built with
# gcc 12.2 (Debian 12.2.0-14), binutils 2.40.
#   symfs/usr/bin/inl-main          -O2 -g: two-deep inlining, a recursive inline
#   symfs/usr/lib/inl/libinl.so     -O2 -g: an inlined function in a shared library
#   symfs/usr/lib/inl/libplain.so   -O2, no -g: no DWARF, symbols only
set -eu
cd "$(dirname "$0")"
CC=${CC:-gcc}
mkdir -p symfs/usr/bin symfs/usr/lib/inl
# -ffile-prefix-map: the DWARF names the sources without the build directory
fpm=-ffile-prefix-map=$PWD=.
$CC -O2 -fno-omit-frame-pointer -fPIC -shared "$fpm" -o symfs/usr/lib/inl/libplain.so libplain.c
$CC -O2 -g -fno-omit-frame-pointer -fPIC -shared "$fpm" -o symfs/usr/lib/inl/libinl.so libinl.c \
	-Lsymfs/usr/lib/inl -lplain
$CC -O2 -g -fno-omit-frame-pointer "$fpm" -o symfs/usr/bin/inl-main inl.c \
	-Lsymfs/usr/lib/inl -linl -lplain -Wl,-rpath,/usr/lib/inl
