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
#    at a symbol's first byte (see README: jitsym looks up ip - 1), and
#    every line that is not a frame (sample headers, with a tracepoint's
#    fields) byte for byte;
#  - for the tracepoint case (sched:sched_switch, as for off-CPU profiles),
#    also checks field selections without frames (-F) byte for byte.
#
#   tests/golden/record.sh BUILDDIR [CASE...]    (default: every case)
#
# PERF names the perf to record and compare with (default: perf). The
# perf612-* cases need a perf 6.12 (built from Debian's linux-source-6.12,
# outside the repository) and are recorded only when asked for by name:
#   PERF=/tmp/perf612/perf tests/golden/record.sh build perf612-recorded \
#       perf612-pipe perf612-compressed
# perf 6.12 prints pid/tid 7 columns wide (6.1: 5) and process addresses:
# sample headers are then compared with runs of spaces squeezed.
set -eu
PERF=${PERF:-perf}
builddir=$(cd "${1:?usage: record.sh BUILDDIR [CASE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fixed=/tmp/jitsym-golden
rm -rf "$fixed"; mkdir -p "$fixed"
cp "$builddir/examples/native/native-demo" "$builddir/examples/native/libdemo.so" "$fixed/"
export HOME="$fixed/home"   # perf's build-id cache, config: empty
mkdir -p "$HOME"

all_cases="native-recorded compressed-recorded multi-event-recorded pipe-recorded tracepoint-recorded"
perf612_cases="perf612-recorded perf612-pipe perf612-compressed"
cases=${*:-$all_cases}
for c in $cases; do
	case " $all_cases $perf612_cases " in *" $c "*) ;;
	*) echo "record.sh: no case '$c' (cases: $all_cases $perf612_cases)" >&2; exit 1 ;;
	esac
	case $c in perf612-*)
		"$PERF" --version | grep -q '^perf version 6\.12\.' ||
			{ echo "record.sh: $c needs PERF=<a perf 6.12>" >&2; exit 1; }
	esac
done
squeeze_spaces=false
"$PERF" --version | grep -q '^perf version 6\.1\.' || squeeze_spaces=true
squeeze() { if $squeeze_spaces; then tr -s ' '; else cat; fi; }
for c in $cases; do
	rm -rf "${here:?}/$c"; mkdir -p "$here/$c/symfs$fixed"
	cp "$fixed/native-demo" "$fixed/libdemo.so" "$here/$c/symfs$fixed/"
done

record() { # perf record options...
	"$PERF" record -q -N -k 1 -g "$@" -- "$fixed/native-demo" "$secs" 2>"$fixed/record.err" ||
		{ cat "$fixed/record.err"; exit 1; }
}

trim_kallsyms() { # case: the kallsyms the recording needs
	d=$here/$1
	"$PERF" script -i "$d/perf.data" -F ip --kallsyms /proc/kallsyms 2>/dev/null |
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

write_tracepoint_cmd() { # case
	cat >"$here/$1/cmd" <<'CMD'
# Recorded with perf by tests/golden/record.sh: sched:sched_switch with call
# chains (an off-CPU profile) of native-demo, with the binaries and kallsyms
# it needs bundled. Each sample prints the tracepoint's fields, formatted
# from the recording's tracing data.
opts="--symfs symfs --kallsyms kallsyms --buildid-dir symfs"
echo "== script"; "$JITSYM" script $opts perf.data
echo "== script -F comm,tid,pid,time,cpu,event,period,trace"
"$JITSYM" script $opts -F comm,tid,pid,time,cpu,event,period,trace perf.data
echo "== script -F +pid,-cpu"; "$JITSYM" script $opts -F +pid,-cpu perf.data
echo "== script -F event,trace,ip,sym"; "$JITSYM" script $opts -F event,trace,ip,sym perf.data
echo "== fold"; "$JITSYM" fold $opts perf.data
CMD
}

# jitsym and perf script -F FIELDS (no frames in them): byte for byte
check_fields_against_perf() { # case fields
	d=$here/$1
	(cd "$d" && "$PERF" script -i perf.data --symfs symfs --kallsyms kallsyms -F "$2" 2>/dev/null) >"$fixed/perf.fields"
	(cd "$d" && "$builddir/jitsym" script --symfs symfs --kallsyms kallsyms --buildid-dir symfs -F "$2" perf.data 2>/dev/null) >"$fixed/jitsym.fields"
	cmp -s "$fixed/perf.fields" "$fixed/jitsym.fields" ||
		{ echo "-F $2 differs from perf script:"; diff "$fixed/perf.fields" "$fixed/jitsym.fields" | head; exit 1; }
	echo "$1: -F $2: $(wc -l <"$fixed/perf.fields") lines identical to perf script"
}

check_against_perf() { # case
	d=$here/$1
	(cd "$d" && "$PERF" script -i perf.data --symfs symfs --kallsyms kallsyms 2>/dev/null) >"$fixed/perf.script"
	(cd "$d" && "$builddir/jitsym" script --symfs symfs --kallsyms kallsyms --buildid-dir symfs perf.data 2>/dev/null) >"$fixed/jitsym.script"
	# everything but frame lines: headers and tracepoint fields, byte for byte
	grep -v "$(printf '^\t')" "$fixed/perf.script" | squeeze >"$fixed/perf.headers" || true
	grep -v "$(printf '^\t')" "$fixed/jitsym.script" | squeeze >"$fixed/jitsym.headers" || true
	cmp -s "$fixed/perf.headers" "$fixed/jitsym.headers" ||
		{ echo "sample headers differ:"; diff "$fixed/perf.headers" "$fixed/jitsym.headers" | head; exit 1; }
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

record_case() { # case
	secs=0.25
	case $1 in perf612-*) secs=0.1 ;; esac   # smaller: they only add the newer perf
	case $1 in
	native-recorded) record -e cpu-clock -F 1999 -o "$here/$1/perf.data" ;;
	compressed-recorded) record -z -e cpu-clock -F 1999 -o "$here/$1/perf.data" ;;
	multi-event-recorded) record -e cpu-clock,task-clock -F 999 -o "$here/$1/perf.data" ;;
	pipe-recorded) record -e cpu-clock -F 1999 -o - >"$here/$1/perf.data" ;;
	perf612-pipe) record -e cpu-clock -F 999 -o - >"$here/$1/perf.data" ;;
	perf612-recorded) record -e cpu-clock -F 999 -o "$here/$1/perf.data" ;;
	perf612-compressed) record -z -e cpu-clock -F 999 -o "$here/$1/perf.data" ;;
	tracepoint-recorded) record -e sched:sched_switch -o "$here/$1/perf.data" ;;
	esac
}

for c in $cases; do
	record_case "$c"
done
for c in $cases; do
	trim_kallsyms "$c"
	case $c in
	tracepoint-*) write_tracepoint_cmd "$c" ;;
	*) write_cmd "$c" perf.data ;;
	esac
	printf '%s: ' "$c"; check_against_perf "$c"
done
case " $cases " in *" tracepoint-recorded "*)
	for f in comm,tid,pid,time,cpu,event,period,trace +pid,-cpu trace,event; do
		check_fields_against_perf tracepoint-recorded "$f"
	done
esac
# the pipe-mode recordings read through a real pipe
for c in pipe-recorded perf612-pipe; do
	case " $cases " in *" $c "*)
		sed -i 's|"\$JITSYM" \(.*\) perf.data$|cat perf.data \| "$JITSYM" \1 -|' "$here/$c/cmd"
	esac
done
# shellcheck disable=SC2086
"$here/run.sh" --update $cases
rm -rf "$fixed"
