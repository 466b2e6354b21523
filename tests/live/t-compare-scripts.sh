#!/bin/sh
# t-compare-scripts.sh: the live tests' own tools on synthetic input (no
# perf needed): fold-perf-script.pl --caller-start-wild names a caller
# frame at "sym+0x0" "*", never the leaf, and compare-folded.pl --wild lets
# such a frame stand for any one frame (with the same _[k]/_[j] suffix),
# counting each sample once; perf's inline frames ("(inlined)") fold as
# frames, annotated "_[i]", with the real frames perf prints "(inlined)"
# and the inlined ones it prints with a DSO told apart by --real-frames.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PERL=${PERL:-perl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jitsym-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
check() { # name expected actual
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		printf 'FAIL: %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3" >&2
		failed=$((failed + 1))
	fi
}

# perf script text: a user caller and a kernel caller at a symbol start,
# a leaf at a symbol start (never wild), a caller inside its symbol.
cat >"$tmp/perf.script" <<'PS'
demo 100   1.000001:     1000 cpu-clock:
	            1984 leaf+0x24 (/x/demo)
	            19d4 _dl_start_user+0x0 (/lib/ld.so)
	            1000 _start+0x10 (/lib/ld.so)

demo 100   1.000002:     1000 cpu-clock:
	ffffffff81000010 kleaf+0x3 ([kernel.kallsyms])
	ffffffff81000000 kcaller+0x0 ([kernel.kallsyms])
	            1984 leaf+0x24 (/x/demo)

demo 100   1.000003:     1000 cpu-clock:
	            2000 start_leaf+0x0 (/x/demo)
	            1000 _start+0x10 (/lib/ld.so)

PS
"$PERL" "$here/fold-perf-script.pl" --caller-start-wild --annotate "$tmp/perf.script" >"$tmp/a.folded"
check "wild callers, annotated" \
	"demo;_start;*;leaf|demo;_start;start_leaf|demo;leaf;*_[k];kleaf_[k]" \
	"$(cut -d' ' -f1 "$tmp/a.folded" | paste -sd'|' -)"
"$PERL" "$here/fold-perf-script.pl" "$tmp/perf.script" >"$tmp/plain.folded"
check "no wildcard without the option" \
	"demo;_start;_dl_start_user;leaf|demo;_start;start_leaf|demo;leaf;kcaller;kleaf" \
	"$(cut -d' ' -f1 "$tmp/plain.folded" | paste -sd'|' -)"

# jitsym's names for the same samples: ip - 1 names the code before the
# symbol start; one sample more of the first stack than perf has.
cat >"$tmp/j.folded" <<'J'
demo;_start;_start;leaf 2
demo;_start;start_leaf 1
demo;leaf;kprev_[k];kleaf_[k] 1
J
"$PERL" "$here/compare-folded.pl" --wild "$tmp/a.folded" "$tmp/j.folded" >"$tmp/cmp" || true
check "wild match counts each sample once" \
	"same         3 samples in identical stacks (2 of them through a wild caller frame)" \
	"$(sed -n 3p "$tmp/cmp")"
check "agreement against the larger total" "agreement 75.00% (need 99%), 1 stacks differ" \
	"$(sed -n 4p "$tmp/cmp")"

# A wild kernel frame does not match a user frame; a different leaf or
# depth never matches.
cat >"$tmp/k.folded" <<'J'
demo;_start;_start;leafB 1
demo;_start;x;y;leaf 1
demo;leaf;kprev;kleaf_[k] 1
J
"$PERL" "$here/compare-folded.pl" --wild "$tmp/a.folded" "$tmp/k.folded" >"$tmp/cmp2" && rc=0 || rc=$?
check "no match on suffix, leaf or depth" "same         0 samples in identical stacks (0 of them through a wild caller frame)|1" \
	"$(sed -n 3p "$tmp/cmp2")|$rc"
"$PERL" "$here/compare-folded.pl" "$tmp/a.folded" "$tmp/j.folded" >"$tmp/cmp3" && rc=0 || rc=$?
check "without --wild only exact stacks count" "same         1 samples in identical stacks|1" \
	"$(sed -n 3p "$tmp/cmp3")|$rc"

# --cut-after-vdso: frames below a [vdso] frame are dropped from the
# normalised text, on whichever side has them
cat >"$tmp/vdso.script" <<'PS'
demo 100   1.000004:     1000 cpu-clock:
	             b46 __vdso_clock_gettime+0x36 ([vdso])
	           cf439 clock_gettime+0x19 (/lib/libc.so.6)
	            1abd worker_run+0x4d (/x/demo)

PS
check "frames below [vdso] cut" "H/F __vdso_clock_gettime [vdso]/" \
	"$("$PERL" "$here/fold-perf-script.pl" --normalize --cut-after-vdso "$tmp/vdso.script" |
		sed 's/^H.*/H/' | tr '\t' ' ' | paste -sd/ -)"
check "not cut without the option" 4 \
	"$("$PERL" "$here/fold-perf-script.pl" --normalize "$tmp/vdso.script" | grep -c .)"

# perf's mark where its dwarf unwinder gave up (address -1) is no frame
cat >"$tmp/cut.script" <<'PS'
demo 100   1.000005:     1000 cpu-clock:
	           5e95a buffered_vfprintf+0x11a (/lib/libc.so.6)
	ffffffffffffffff [unknown] ([unknown])

PS
check "address -1 dropped when folding" "demo;buffered_vfprintf 1" \
	"$("$PERL" "$here/fold-perf-script.pl" "$tmp/cut.script")"
check "address -1 dropped when normalising" 2 \
	"$("$PERL" "$here/fold-perf-script.pl" --normalize "$tmp/cut.script" | grep -c .)"

# --plt-wild: perf 6.1's PLT names (a leaf too) stand for any name
cat >"$tmp/plt.script" <<'PS'
demo 100   1.000006:     1000 cpu-clock:
	           26290 @plt+0x0 (/lib/libc.so.6)
	           3fbe7 msort_with_tmp+0x287 (/lib/libc.so.6)

PS
check "PLT frames wild" "F * /lib/libc.so.6/F msort_with_tmp /lib/libc.so.6" \
	"$("$PERL" "$here/fold-perf-script.pl" --normalize --plt-wild "$tmp/plt.script" |
		grep '^F' | tr '\t' ' ' | paste -sd/ -)"
check "PLT frames kept without the option" "F @plt /lib/libc.so.6" \
	"$("$PERL" "$here/fold-perf-script.pl" --normalize "$tmp/plt.script" | grep '^F' |
		head -1 | tr '\t' ' ')"

# inline frames: perf's "(inlined)" lines are frames of their own; perf
# prints the real frame "(inlined)" where its DWARF name is not the ELF
# symbol's (msort_with_tmp in msort_with_tmp.part.0, here recursing at one
# address: two real frames, two lines each), and an inlined function named
# as the symbol with the DSO (write in write); --real-frames (perf script
# --no-inline of the same samples) tells real frames from inlined ones
cat >"$tmp/inl.script" <<'PS'
demo 100   1.000007:     1000 cpu-clock:
	            1338 xorshift+0x168 (inlined)
	            1338 main+0x168 (/x/demo)

demo 100   1.000008:     1000 cpu-clock:
	ffffffff81000010 kleaf+0x3 ([kernel.kallsyms])
	           f838f write+0x4f (/lib/libc.so.6)
	           f838f write+0x4f (/lib/libc.so.6)
	           3f9a3 msort_with_tmp+0x43 (inlined)
	           3f9a3 msort_with_tmp+0x43 (inlined)
	           3f9a3 msort_with_tmp+0x43 (inlined)
	           3f9a3 msort_with_tmp+0x43 (inlined)
	            1338 main+0x168 (/x/demo)

PS
cat >"$tmp/inl.real" <<'PS'
demo 100   1.000007:     1000 cpu-clock:
	            1338 main+0x168 (/x/demo)

demo 100   1.000008:     1000 cpu-clock:
	ffffffff81000010 kleaf+0x3 ([kernel.kallsyms])
	           f838f write+0x4f (/lib/libc.so.6)
	           3f9a3 msort_with_tmp.part.0+0x43 (/lib/libc.so.6)
	           3f9a3 msort_with_tmp.part.0+0x43 (/lib/libc.so.6)
	            1338 main+0x168 (/x/demo)

PS
check "inline frames folded" \
	"demo;main;msort_with_tmp;msort_with_tmp;msort_with_tmp;msort_with_tmp;write;write;kleaf 1|demo;main;xorshift 1" \
	"$("$PERL" "$here/fold-perf-script.pl" "$tmp/inl.script" | paste -sd'|' -)"
check "inline frames _[i] by perf's marks alone" \
	"demo;main;msort_with_tmp_[i];msort_with_tmp_[i];msort_with_tmp_[i];msort_with_tmp_[i];write;write;kleaf_[k] 1|demo;main;xorshift_[i] 1" \
	"$("$PERL" "$here/fold-perf-script.pl" --annotate "$tmp/inl.script" | paste -sd'|' -)"
check "inline frames _[i] by --real-frames" \
	"demo;main;msort_with_tmp;msort_with_tmp_[i];msort_with_tmp;msort_with_tmp_[i];write;write_[i];kleaf_[k] 1|demo;main;xorshift_[i] 1" \
	"$("$PERL" "$here/fold-perf-script.pl" --annotate --real-frames="$tmp/inl.real" "$tmp/inl.script" \
		2>"$tmp/inl.err" | paste -sd'|' -)"
check "--real-frames counts" "fold-perf-script: by $tmp/inl.real: 2 real frame(s) perf printed (inlined), 1 inlined one(s) it printed with the DSO" \
	"$(cat "$tmp/inl.err")"
check "--real-frames DSOs when normalising" \
	"F kleaf [kernel.kallsyms]/F write inlined/F write /lib/libc.so.6/F msort_with_tmp inlined/F msort_with_tmp /lib/libc.so.6/F msort_with_tmp inlined/F msort_with_tmp /lib/libc.so.6/F main /x/demo" \
	"$("$PERL" "$here/fold-perf-script.pl" --normalize --real-frames="$tmp/inl.real" "$tmp/inl.script" \
		2>/dev/null | sed -n '/^H.*1.000008/,/^$/p' | grep '^F' | tr '\t' ' ' | paste -sd/ -)"
# a --real-frames file of other samples is an error, not a guess
sed 's/1.000008/1.000009/' "$tmp/inl.real" >"$tmp/inl.other"
"$PERL" "$here/fold-perf-script.pl" --real-frames="$tmp/inl.other" "$tmp/inl.script" \
	>/dev/null 2>&1 && rc=0 || rc=$?
check "--real-frames of another recording refused" 1 "$rc"
# a caller at a symbol start: its inlined frames are wild too, the leaf's never
cat >"$tmp/inlw.script" <<'PS'
demo 100   1.000010:     1000 cpu-clock:
	            2000 start_leaf+0x0 (inlined)
	            2000 outer_leaf+0x0 (/x/demo)
	            1a00 inl+0x0 (inlined)
	            1a00 caller+0x0 (/x/demo)

PS
check "wild inline callers" "demo;*;*_[i];outer_leaf;start_leaf_[i] 1" \
	"$("$PERL" "$here/fold-perf-script.pl" --annotate --caller-start-wild "$tmp/inlw.script")"

[ "$failed" = 0 ] || { echo "FAIL: $failed check(s)" >&2; exit 1; }
echo PASS
