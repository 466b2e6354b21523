#!/bin/sh
# The seeds of fuzz-unwind (layout in tests/fuzz/fuzz-unwind.c), written
# into DIR; mkcorpus.sh calls it. Hand-made: a CFI chain through an
# .eh_frame of the input's own (rbp-based CFA, saved rbp), the x86-64 PLT
# CFA expression, a frame-pointer chain with no CFI, and random stack bytes
# under this program's own CFI. Needs perl (as the live tests do).
#
#   tests/fuzz/mkcorpus-unwind.sh DIR
set -eu
[ $# -eq 1 ] || { echo "usage: tests/fuzz/mkcorpus-unwind.sh DIR" >&2; exit 2; }
dir=$1
mkdir -p "$dir"

hex() { perl -e 'my $h = join("", @ARGV); $h =~ s/\s//g; print pack("H*", $h)' "$@"; }
u64() { for v in "$@"; do perl -e 'print pack("Q<", hex($ARGV[0]))' "$v"; done; }
S=7ffc00000000
s() { printf '%x' $((0x$S + $1)); }   # the stack address S + offset

# The CIE's initial instructions: CFA rsp+8, return address at CFA-8.
cie="05 0c0708 9001"

# 1: CFA rbp+16 after a push of rbp: three frames, then a return address 0.
{
	hex 01 00; u64 1c0 "$(s 32)" "$S" 400010
	hex "$cie" 08 41 0e10 8602 43 0d06
	hex "$(printf '%064d' 0)"; u64 "$(s 64)" 400020
	hex "$(printf '%032d' 0)"; u64 "$(s 96)" 400030
	hex "$(printf '%032d' 0)"; u64 0 0; hex "$(printf '%032d' 0)"
} >"$dir/cfi-rbp-chain"

# 2: the PLT's CFA expression (rsp + 8, + 8 more past byte 11 of each entry),
# rbx by an expression, return addresses through the entries.
{
	hex 01 00; u64 1c2 1 0 "$S" 400005
	hex "$cie" 13 0f0b 7708 8000 3f1a 3b2a 3324 22 1003 0309f022
	u64 400105 40010c 0 0 0 0
} >"$dir/cfi-plt-expression"

# 3: no CFI anywhere (pcs with the top bit set): the rbp chain.
{
	hex 00 00; u64 1c0 "$(s 16)" "$S" 8000000000001000
	u64 0 0 "$(s 48)" 8000000000002000 0 0 "$(s 80)" 8000000000003000 0 0 0 0
} >"$dir/fp-chain"

# 4: every register, this program's own CFI, a stack of return-address-like words.
{
	hex 00 00; u64 ff0fff
	u64 1 2 3 4 5 "$(s 64)" "$S" 1234 246 33 2b 0 0 0 0 8 9 a b c
	i=0
	while [ $i -lt 32 ]; do u64 "$(printf '%x' $((0x1000 + i * 0x123)))" "$(s $((i * 16 + 16)))"; i=$((i + 1)); done
} >"$dir/self-cfi-words"
