#!/bin/sh
# Rebuilds the stand-in kernel of golden case vmlinux-synth, vmlinux, from
# kern.c and kern.lds (the committed vmlinux is what the test uses; a
# rebuild with another compiler moves the addresses in kern.spec and
# kern-dwarf.spec and changes the build id written there). Built with gcc
# 12.2 (Debian 12.2.0-14), binutils 2.40: -O2 -g, no libc, linked static at
# the kernel's address 0xffffffff81000000 with _text first, as a kernel is.
set -eu
cd "$(dirname "$0")"
CC=${CC:-gcc}
# -ffile-prefix-map: the DWARF names the source without the build directory
$CC -O2 -g -fno-omit-frame-pointer -mcmodel=kernel -fno-pie -no-pie -ffreestanding \
	-nostdlib -static "-ffile-prefix-map=$PWD=." -Wl,--build-id -Wl,-T,kern.lds \
	-Wl,--no-warn-rwx-segments -o vmlinux kern.c
