#!/bin/sh
# Re-record the golden cases made with real perf (a developer tool; the
# tests never run it). For each case it:
#  - records examples/native/native-demo from a fixed path
#    (/tmp/jitsym-golden/) with perf, without touching ~/.debug;
#  - bundles what the case needs: the demo and libdemo.so under symfs/,
#    and from /proc/kallsyms only the symbols holding a sampled kernel
#    address plus the symbol after each (where it ends);
#  - writes cmd and the expectations with run.sh --update (jitsym's
#    output), then checks jitsym script against perf script run on the
#    same bundle: identical on symbol and DSO names, but for caller frames
#    at a symbol's first byte (see README: jitsym looks up ip - 1).
#
#   tests/golden/record.sh BUILDDIR
set -eu
builddir=$(cd "${1:?usage: record.sh BUILDDIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fixed=/tmp/jitsym-golden
rm -rf "$fixed"; mkdir -p "$fixed"
cp "$builddir/examples/native/native-demo" "$builddir/examples/native/libdemo.so" "$fixed/"
export HOME="$fixed/home"   # perf's build-id cache, config: empty
mkdir -p "$HOME"

cases="native-recorded compressed-recorded multi-event-recorded pipe-recorded"
for c in $cases; do
	rm -rf "${here:?}/$c"; mkdir -p "$here/$c/symfs$fixed"
	cp "$fixed/native-demo" "$fixed/libdemo.so" "$here/$c/symfs$fixed/"
done

record() { # perf record options...
	perf record -q -N -k 1 -g "$@" -- "$fixed/native-demo" 0.25 2>"$fixed/record.err" ||
		{ cat "$fixed/record.err"; exit 1; }
}

trim_kallsyms() { # case: the kallsyms the recording needs
	d=$here/$1
	perf script -i "$d/perf.data" -F ip --kallsyms /proc/kallsyms 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^ffff/) print $i }' | sort -u >"$fixed/addrs"
	sort /proc/kallsyms | awk -v addrs="$fixed/addrs" '
		BEGIN { while ((getline a < addrs) > 0) want[n++] = a; }
		$2 ~ /^[tTwWdDbB]$/ { if ($3 ~ /^(_text|_stext|_etext|_end)$/) keep[m] = 1; sym[m] = $0; at[m++] = $1 }
		END {
			j = 0
			for (i = 0; i < n; i++) {
				while (j + 1 < m && at[j + 1] <= want[i]) j++
				keep[j] = 1; keep[j + 1] = 1
			}
			for (k = 0; k < m; k++) if (k in keep) print sym[k]
		}' >"$d/kallsyms"
}

write_cmd() { # case, jitsym input argument
	cat >"$here/$1/cmd" <<CMD
# Recorded with perf by tests/golden/record.sh: native-demo (three threads,
# a shared library) with the binaries and kallsyms it needs bundled.
opts="--symfs symfs --kallsyms kallsyms --buildid-dir symfs"
echo "== fold"; "\$JITSYM" fold \$opts $2
echo "== fold --annotate --include-tid"; "\$JITSYM" fold --annotate --include-tid \$opts $2
echo "== script"; "\$JITSYM" script \$opts $2
CMD
}

check_against_perf() { # case
	d=$here/$1
	(cd "$d" && perf script -i perf.data --symfs symfs --kallsyms kallsyms 2>/dev/null) >"$fixed/perf.script"
	(cd "$d" && "$builddir/jitsym" script --symfs symfs --kallsyms kallsyms --buildid-dir symfs perf.data 2>/dev/null) >"$fixed/jitsym.script"
	perl "$top/tests/live/fold-perf-script.pl" --normalize --caller-start-wild "$fixed/perf.script" >"$fixed/perf.norm"
	perl "$top/tests/live/fold-perf-script.pl" --normalize "$fixed/jitsym.script" >"$fixed/jitsym.norm"
	awk -F'\t' '
		NR == FNR { a[FNR] = $0; n = FNR; next }
		{ if (FNR > n) { print "extra lines"; exit 1 } split(a[FNR], p, "\t")
		  if (a[FNR] == $0) next
		  if (p[1] == "F" && p[2] == "*" && $1 == "F" && p[3] == $3) { w++; next }
		  print "line " FNR ": perf \"" a[FNR] "\", jitsym \"" $0 "\""; exit 1 }
		END { if (FNR != n) { print "line counts differ"; exit 1 }
		      printf "%d lines agree with perf script (%d caller frames at a symbol start)\n", n, w }' \
		"$fixed/perf.norm" "$fixed/jitsym.norm"
}

record -e cpu-clock -F 1999 -o "$here/native-recorded/perf.data"
record -z -e cpu-clock -F 1999 -o "$here/compressed-recorded/perf.data"
record -e cpu-clock,task-clock -F 999 -o "$here/multi-event-recorded/perf.data"
record -e cpu-clock -F 1999 -o - >"$here/pipe-recorded/perf.data"
for c in $cases; do
	trim_kallsyms "$c"
	write_cmd "$c" perf.data
	printf '%s: ' "$c"; check_against_perf "$c"
done
# the pipe-mode recording read through a real pipe
sed -i 's|"\$JITSYM" \(.*\) perf.data$|cat perf.data \| "$JITSYM" \1 -|' "$here/pipe-recorded/cmd"
# shellcheck disable=SC2086
"$here/run.sh" --update $cases
rm -rf "$fixed"
