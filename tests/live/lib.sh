# tests/live/lib.sh: steps shared by the live tests, which record real
# programs with "perf record" and check that jitsym reads the recording the
# way perf does: "jitsym fold" against perf script folded by
# fold-perf-script.pl, and "jitsym script" against perf script.
#
# Sourced by tests/live/t-*.sh after "set -eu"; POSIX sh. A test reads:
#
#   . "$(dirname "$0")/lib.sh"
#   live_init NAME              temp dir, traps, tools
#   live_require_perf           skip (77) unless perf can record here
#   live_find_jitsym            the binary under test
#   live_record DATA CMD...     perf record -k 1 -e cpu-clock -g CMD
#   live_compare_all DATA       fold (4 variants) and script comparisons
#   live_no_inline COMPARISON.. a comparison with --no-inline on both sides
#   live_finish                 exit 0, or 1 if a comparison failed
#
# Inline frames: jitsym prints the functions inlined at an address as
# frames of their own by default, as perf script does, but perf 6.1 does
# so only for --call-graph dwarf chains (it asks addr2line about the user
# frames it unwound), not for frame-pointer ones. So the reference is
# plain perf script against jitsym's default for dwarf chains, and perf
# script against "jitsym --no-inline" for frame-pointer chains, unless
# PERF612 names a perf that prints inline frames there too (6.12), which
# then is the reference against jitsym's default. live_no_inline compares
# perf script --no-inline with jitsym --no-inline, for the option itself.
#
# Environment:
#   JITSYM              jitsym binary (default $abs_top_builddir/jitsym,
#                       else jitsym two directories above this file)
#   NATIVE_DEMO         prebuilt native-demo (if unset or not executable,
#                       build one with $CC into the temp dir)
#   JITSYM_WRAPPER      command words to run jitsym under (e.g. valgrind)
#   CC                  compiler for native-demo (default cc)
#   PERF, PERL          tools (default perf, perl)
#   PERF612             a perf that prints inline frames for frame-pointer
#                       chains (6.12): perf script of frame-pointer
#                       recordings in the comparisons, against jitsym's
#                       default; unset: $PERF against jitsym --no-inline
#                       (perf 6.12.117 built from linux-source-6.12 prints
#                       none there either: 0 on a native-demo recording)
#   LIVE_SECONDS        how long native-demo runs (default 2)
#   LIVE_FREQ           sampling frequency in Hz (default 2000)
#   LIVE_CALLGRAPH      perf record's call-graph option (default -g; a test
#                       of --call-graph dwarf sets it)
#   LIVE_RECORD_OPTS    more perf record options (e.g. -z)
#   LIVE_RECORD_PIPE=1  record in pipe mode: perf record -o - > DATA
#   LIVE_SCRIPT_OPTS    more options for the perf script jitsym is compared
#                       with (live_no_inline adds --no-inline)
#   LIVE_JITSYM_OPTS    more options for the jitsym fold and script commands
#                       the comparisons run (--no-inline goes by itself: see
#                       above)
#   LIVE_NORMALIZE_OPTS more fold-perf-script.pl --normalize options for
#                       both sides of the script comparison
#   LIVE_MIN_AGREEMENT  percent of samples in identical stacks that a fold
#                       comparison needs (default 99)
#   LIVE_SELF_CHECK=1   let perf stand in for jitsym ("jitsym fold" becomes
#                       perf script | fold-perf-script.pl): checks these
#                       scripts, not jitsym; every comparison must pass
#   LIVE_KEEP=1         keep the temp dir when the test passes too
#
# Exit status (automake): 0 pass, 1 fail, 77 skip, 99 hard error (the test
# could not run: no jitsym binary, perf record failed, ...). On anything but
# pass and skip the temp dir is kept and named on the last line.

LIVE_RE_SAMPLES='s/.*(\([0-9][0-9]*\) samples).*/\1/p'

live_say() {
	printf '%s: %s\n' "$live_name" "$*"
}

live_skip() {
	printf 'SKIP: %s: %s\n' "$live_name" "$*"
	exit 77
}

live_hard_error() {
	printf 'ERROR: %s: %s\n' "$live_name" "$*" >&2
	exit 99
}

# Record a failed comparison and go on, so one run reports all of them.
live_fail() {
	printf 'FAIL: %s: %s\n' "$live_name" "$*" >&2
	live_failed=$((live_failed + 1))
}

live_on_exit() {
	case $1 in
	0|77)
		if [ "${LIVE_KEEP:-0}" = 1 ]; then
			live_say "files kept in $live_tmp"
		else
			rm -rf "$live_tmp"
		fi
		;;
	*)
		# An early error leaves nothing worth keeping.
		rmdir "$live_tmp" 2>/dev/null ||
			printf '%s: exit %s; files kept in %s\n' "$live_name" \
				"$1" "$live_tmp" >&2
		;;
	esac
}

# Print the first lines of FILE indented, for diagnostics.
live_show() {
	sed -n "1,${2:-10}s/^/    /p" "$1"
}

live_init() {
	live_name=$1
	LC_ALL=C
	TZ=UTC
	export LC_ALL TZ
	live_here=$(cd "$(dirname "$0")" && pwd)
	live_top=$(cd "$live_here/../.." && pwd)
	PERF=${PERF:-perf}
	PERL=${PERL:-perl}
	live_failed=0
	live_tmp=$(mktemp -d "${TMPDIR:-/tmp}/jitsym-$live_name.XXXXXX") ||
		live_hard_error "cannot create a temporary directory"
	# perf and jitsym both get an empty build-id cache, so what earlier
	# recordings left in ~/.debug (a [vdso] copy, old binaries) cannot
	# make one of them resolve more than the other.
	live_buildid_dir=$live_tmp/buildid-cache
	mkdir -p "$live_buildid_dir"
	trap 'live_on_exit $?' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	command -v "$PERL" >/dev/null 2>&1 || live_skip "no '$PERL' to run the folding scripts"
	# scripts/check.sh --distcheck: these recordings already ran in the
	# -Werror and sanitizer builds of the same sources; the tarball's
	# check runs the hermetic tests, and CI stays within its time
	[ -z "${JITSYM_LIVE_RAN:-}" ] ||
		live_skip "ran in this check's build trees (JITSYM_LIVE_RAN is set)"
}

# Skip unless "perf record" works here with the options the tests use.
live_require_perf() {
	command -v "$PERF" >/dev/null 2>&1 ||
		live_skip "no '$PERF' command (Debian package 'linux-perf')"
	if ! "$PERF" record -q -N -k 1 -e cpu-clock -g \
		-o "$live_tmp/probe.data" -- true \
		>"$live_tmp/probe.log" 2>&1; then
		live_skip "perf record cannot record here" \
			"(kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?')," \
			"uid $(id -u)): $(head -n 3 "$live_tmp/probe.log" | tr '\n\t' '  ')"
	fi
	rm -f "$live_tmp/probe.data" "$live_tmp/probe.log"
	# The running vdso into the tests' build-id cache, as perf record
	# without -N leaves it: perf 6.1 names the [vdso] frames of a -N file
	# (which has a [vdso] build id) from the cache alone, jitsym from the
	# running vdso on that build id; both then read the same image. Only
	# the [vdso] entry is kept; without it, [vdso] frames may differ.
	live_pc=$live_tmp/probe-cache
	if "$PERF" --buildid-dir "$live_pc" record -q --buildid-all -k 1 -e cpu-clock \
		-o "$live_tmp/probe.data" -- true >/dev/null 2>&1 && [ -d "$live_pc/[vdso]" ]; then
		mv "$live_pc/[vdso]" "$live_buildid_dir/"
		for live_l in "$live_pc"/.build-id/*/*; do
			case $(readlink "$live_l") in
			*'/[vdso]/'*)
				live_d=$live_buildid_dir/.build-id/$(basename "$(dirname "$live_l")")
				mkdir -p "$live_d" && mv "$live_l" "$live_d/" ;;
			esac
		done
	fi
	rm -rf "$live_pc" "$live_tmp/probe.data"
}

# Whether HotSpot can be recorded here: java and javac (JAVA, JAVAC
# override them; both set) and -XX:+DumpPerfMapAtExit (JDK 17+). When not,
# status 1 and why in live_java_why.
live_java_check() {
	JAVA=${JAVA:-java}
	JAVAC=${JAVAC:-javac}
	live_java_why=
	if ! command -v "$JAVA" >/dev/null 2>&1 || ! command -v "$JAVAC" >/dev/null 2>&1; then
		live_java_why="no '$JAVA' or '$JAVAC' (Debian package 'openjdk-17-jdk')"
	# asked of the flag table: running -version with the flag on would leave a map in /tmp
	elif ! "$JAVA" -XX:+UnlockDiagnosticVMOptions -XX:+PrintFlagsFinal -version 2>/dev/null |
		grep -q '[[:space:]]DumpPerfMapAtExit[[:space:]]'; then
		live_java_why="'$JAVA' has no -XX:+DumpPerfMapAtExit (JDK 17+)"
	fi
	[ -z "$live_java_why" ]
}

live_find_jitsym() {
	if [ "${LIVE_SELF_CHECK:-0}" = 1 ]; then
		live_say "LIVE_SELF_CHECK=1: perf stands in for jitsym (checks the test scripts, not jitsym)"
		return 0
	fi
	if [ -z "${JITSYM:-}" ]; then
		if [ -n "${abs_top_builddir:-}" ]; then
			JITSYM=$abs_top_builddir/jitsym
		else
			JITSYM=$live_top/jitsym
		fi
	fi
	[ -x "$JITSYM" ] ||
		live_hard_error "no jitsym binary at '$JITSYM': build it, or set JITSYM"
	live_say "jitsym under test: $JITSYM"
}

# live_find_minijit: $MINIJIT, the build's examples/minijit/minijit, or
# one built into $live_tmp with $CC; skips without either
live_find_minijit() {
	MINIJIT=${MINIJIT:-${abs_top_builddir:-$live_top}/examples/minijit/minijit}
	[ -x "$MINIJIT" ] && return 0
	command -v "${CC:-cc}" >/dev/null 2>&1 || live_skip "no minijit and no C compiler"
	${CC:-cc} -O2 -g -fno-omit-frame-pointer -pthread -o "$live_tmp/minijit" \
		"$live_top"/examples/minijit/*.c >"$live_tmp/build.log" 2>&1 ||
		{ live_show "$live_tmp/build.log" 20 >&2; live_hard_error "cannot build minijit"; }
	MINIJIT=$live_tmp/minijit
}

# What LIVE_SELF_CHECK=1 runs for "jitsym fold [OPTS] DATA" and
# "jitsym script DATA": options start with '-' and take no argument.
live_perf_as_jitsym() {
	live_reference
	live_pj_cmd=$1
	shift
	live_pj_opts=
	live_pj_script_opts=
	for live_pj_arg in "$@"; do
		case $live_pj_arg in
		--include-pid|--include-tid)
			live_pj_script_opts='-F +pid'
			live_pj_opts="$live_pj_opts $live_pj_arg"
			;;
		--no-inline)
			live_pj_script_opts="$live_pj_script_opts --no-inline" ;;
		-)	live_pj_data=- ;;
		-*)	live_pj_opts="$live_pj_opts $live_pj_arg" ;;
		*)	live_pj_data=$live_pj_arg ;;
		esac
	done
	# The option lists are words without spaces: unquoted on purpose.
	# shellcheck disable=SC2086
	case $live_pj_cmd in
	script)
		"$live_ref_perf" --buildid-dir "$live_buildid_dir" script -i "$live_pj_data" \
			$live_pj_script_opts ${LIVE_SCRIPT_OPTS:-}
		;;
	fold)
		"$live_ref_perf" --buildid-dir "$live_buildid_dir" script -i "$live_pj_data" \
			$live_pj_script_opts ${LIVE_SCRIPT_OPTS:-} >"$live_tmp/self-check.script" &&
		live_real_frames "$live_tmp/self-check.script" "$live_pj_data" &&
		"$PERL" "$live_here/fold-perf-script.pl" $live_pj_opts $live_rf_opt \
			"$live_tmp/self-check.script"
		;;
	*)
		echo "live_perf_as_jitsym: unknown command '$live_pj_cmd'" >&2
		return 2
		;;
	esac
}

# live_reference: set what the comparisons compare (see "Inline frames"
# at the top): live_ref_perf, the perf whose script is the reference;
# live_ref_jopts, the options for jitsym (--no-inline, LIVE_JITSYM_OPTS);
# live_ref_tag, "" or ".no-inline", for the names of the files made.
live_reference() {
	live_ref_perf=$PERF
	live_ref_jopts=
	live_ref_tag=
	case " ${LIVE_SCRIPT_OPTS:-} " in
	*" --no-inline "*)
		live_ref_jopts=--no-inline
		live_ref_tag=.no-inline
		;;
	*)
		case " ${LIVE_CALLGRAPH:--g} " in
		*" --call-graph dwarf"*) ;;
		*)	# frame-pointer chains: perf 6.1 prints no inline frames
			if [ -n "${PERF612:-}" ]; then
				live_ref_perf=$PERF612
			else
				live_ref_jopts=--no-inline
			fi
			;;
		esac
		;;
	esac
	[ -z "${LIVE_JITSYM_OPTS:-}" ] ||
		live_ref_jopts="${live_ref_jopts:+$live_ref_jopts }$LIVE_JITSYM_OPTS"
	# for the messages
	live_ref_said="$(basename "$live_ref_perf") script${LIVE_SCRIPT_OPTS:+ $LIVE_SCRIPT_OPTS}"
}

# live_no_inline COMPARISON [ARG...]: run a comparison (live_compare_all,
# live_compare_fold, ...) with perf script --no-inline against jitsym
# --no-inline; its files are named with ".no-inline".
live_no_inline() {
	live_ni_save=${LIVE_SCRIPT_OPTS:-}
	LIVE_SCRIPT_OPTS="${live_ni_save:+$live_ni_save }--no-inline"
	"$@"
	LIVE_SCRIPT_OPTS=$live_ni_save
}

# live_real_frames SCRIPT DATA: set live_rf_opt to the fold-perf-script.pl
# option that tells it which lines of SCRIPT (perf script text of DATA)
# are real frames, "--real-frames=FILE" with FILE perf script --no-inline
# of DATA (made once), when SCRIPT has inline frames; else to nothing.
# perf prints a line "(inlined)" when its name is not the ELF symbol's, be
# it an inlined function or the real frame whose DWARF name differs
# (__libc_start_main_impl in __libc_start_main, msort_with_tmp in
# msort_with_tmp.part.0), where jitsym prints the real frame with its DSO
# and fold --annotate leaves it unmarked.
live_real_frames() {
	live_rf_opt=
	[ "$2" != - ] || return 0
	grep -q ' (inlined)$' "$1" || return 0
	live_rf_file=$2.perf-script-real-frames
	if [ ! -s "$live_rf_file" ] &&
	   ! "$live_ref_perf" --buildid-dir "$live_buildid_dir" script -i "$2" --no-inline \
		>"$live_rf_file" 2>"$live_rf_file.stderr"; then
		live_show "$live_rf_file.stderr" >&2
		live_hard_error "perf script -i '$2' --no-inline failed"
	fi
	live_rf_opt=--real-frames=$live_rf_file
}

# Run the jitsym under test (or perf, with LIVE_SELF_CHECK=1), inside
# $JITSYM_WRAPPER (valgrind, from tests/setup.sh) when that is set.
live_jitsym() {
	if [ "${LIVE_SELF_CHECK:-0}" = 1 ]; then
		live_perf_as_jitsym "$@"
	else
		live_js_cmd=$1
		shift
		# shellcheck disable=SC2086
		${JITSYM_WRAPPER:-} "$JITSYM" "$live_js_cmd" --buildid-dir "$live_buildid_dir" "$@"
	fi
}

# Build examples/native into the temp dir unless NATIVE_DEMO names one.
live_build_demo() {
	# tests/setup.sh points NATIVE_DEMO into the build tree whether or not
	# it was built there.
	if [ -n "${NATIVE_DEMO:-}" ]; then
		if [ -x "$NATIVE_DEMO" ]; then
			live_say "native-demo: $NATIVE_DEMO"
			return 0
		fi
		live_say "NATIVE_DEMO='$NATIVE_DEMO' is not executable; building one"
	fi
	live_cc=${CC:-cc}
	command -v "${live_cc%% *}" >/dev/null 2>&1 ||
		live_skip "no C compiler '$live_cc' to build native-demo (or set NATIVE_DEMO)"
	live_src=$live_top/examples/native
	live_out=$live_tmp/demo
	live_flags='-O2 -g -fno-omit-frame-pointer'
	mkdir "$live_out"
	# $live_cc and $live_flags are word lists: unquoted on purpose.
	# '$ORIGIN' is for the dynamic linker, not the shell.
	# shellcheck disable=SC2086,SC2016
	if ! $live_cc $live_flags -fPIC -shared -Wl,-soname,libdemo.so \
		-o "$live_out/libdemo.so" "$live_src/libdemo.c" \
		>"$live_tmp/build.log" 2>&1 ||
	   ! $live_cc $live_flags -pthread -o "$live_out/native-demo" \
		"$live_src/native-demo.c" -L"$live_out" -ldemo \
		-Wl,-rpath,'$ORIGIN' >>"$live_tmp/build.log" 2>&1; then
		live_show "$live_tmp/build.log" 20 >&2
		live_hard_error "cannot build native-demo from '$live_src'"
	fi
	NATIVE_DEMO=$live_out/native-demo
	live_say "native-demo built: $NATIVE_DEMO"
}

# live_record DATA CMD [ARG...]: record CMD and its children.
# -N keeps the temp binaries out of ~/.debug.
live_record() {
	live_data=$1
	shift
	live_say "recording: $*"
	live_rec_out=$live_data
	live_rec_stdout=$live_data.stdout
	if [ "${LIVE_RECORD_PIPE:-0}" = 1 ]; then
		live_rec_out=-
		live_rec_stdout=$live_data
	fi
	# $LIVE_CALLGRAPH, $LIVE_RECORD_OPTS: words, unquoted on purpose.
	# shellcheck disable=SC2086
	if ! "$PERF" record -N -k 1 -e cpu-clock -F "${LIVE_FREQ:-2000}" ${LIVE_CALLGRAPH:--g} \
		${LIVE_RECORD_OPTS:-} -o "$live_rec_out" -- "$@" \
		>"$live_rec_stdout" 2>"$live_data.stderr"; then
		live_show "$live_data.stderr" 20 >&2
		live_hard_error "perf record of '$*' failed (output in $live_data.stderr)"
	fi
	live_samples=$(sed -n "$LIVE_RE_SAMPLES" "$live_data.stderr" | tail -n 1)
	# pipe mode and -z print no sample count: ask perf script
	[ -n "$live_samples" ] ||
		live_samples=$("$PERF" script -G -F tid -i "$live_data" 2>/dev/null | wc -l)
	[ "${live_samples:-0}" -gt 0 ] ||
		live_hard_error "perf record took no samples of '$*'"
	live_say "perf record: $live_samples samples in $live_data"
}

# live_perf_script DATA PID(0|1): set live_ps_out to the file holding perf
# script's text for DATA, with "-F +pid" when PID is 1; made once; and
# live_rf_opt as live_real_frames does.
live_perf_script() {
	live_reference
	live_ps_out=$1.perf-script$live_ref_tag
	live_ps_opts=
	if [ "$2" = 1 ]; then
		live_ps_out=$1.perf-script-pid$live_ref_tag
		live_ps_opts='-F +pid'
	fi
	# $live_ps_opts, $LIVE_SCRIPT_OPTS: unquoted on purpose.
	# shellcheck disable=SC2086
	if [ ! -s "$live_ps_out" ] &&
	   ! "$live_ref_perf" --buildid-dir "$live_buildid_dir" script -i "$1" $live_ps_opts \
		${LIVE_SCRIPT_OPTS:-} >"$live_ps_out" 2>"$live_ps_out.stderr"; then
		live_show "$live_ps_out.stderr" >&2
		live_hard_error "perf script -i '$1' $live_ps_opts ${LIVE_SCRIPT_OPTS:-} failed"
	fi
	live_real_frames "$live_ps_out" "$1"
}

# live_compare_fold DATA TAG [FOLD-OPTION...]: "jitsym fold OPTIONS DATA"
# against perf script | fold-perf-script.pl OPTIONS.
live_compare_fold() {
	live_cf_data=$1
	live_reference
	live_cf_base=$1.$2$live_ref_tag
	shift 2
	live_cf_pid=0
	case " $* " in
	*" --include-pid "*|*" --include-tid "*) live_cf_pid=1 ;;
	esac
	live_say "fold ${*:-(no options)}: $live_ref_said | fold-perf-script.pl" \
		"vs jitsym fold${live_ref_jopts:+ $live_ref_jopts}"
	live_perf_script "$live_cf_data" "$live_cf_pid"
	live_cf_script=$live_ps_out
	# Callers at a symbol start: perf names the symbol, jitsym the code
	# before it (ip - 1); "*" lets either stand, as the script comparison does.
	# $live_rf_opt: unquoted on purpose (empty or one word).
	# shellcheck disable=SC2086
	if ! "$PERL" "$live_here/fold-perf-script.pl" --caller-start-wild $live_rf_opt "$@" \
		"$live_cf_script" >"$live_cf_base.perf.folded" 2>"$live_cf_base.perf.stderr"; then
		live_show "$live_cf_base.perf.stderr" >&2
		live_hard_error "fold-perf-script.pl cannot read '$live_cf_script'"
	fi
	# shellcheck disable=SC2086
	if ! live_jitsym fold $live_ref_jopts "$@" "$live_cf_data" \
		>"$live_cf_base.jitsym.folded" 2>"$live_cf_base.jitsym.stderr"; then
		live_show "$live_cf_base.jitsym.stderr" >&2
		live_fail "jitsym fold $* failed (stderr: $live_cf_base.jitsym.stderr)"
		return 0
	fi
	if "$PERL" "$live_here/compare-folded.pl" \
		--min "${LIVE_MIN_AGREEMENT:-99}" --wild \
		--label-a perf --label-b jitsym \
		"$live_cf_base.perf.folded" "$live_cf_base.jitsym.folded" \
		>"$live_cf_base.compare" 2>&1; then
		live_show "$live_cf_base.compare" 4
	else
		live_show "$live_cf_base.compare" 30 >&2
		live_fail "jitsym fold $* disagrees with perf"
	fi
}

# Line number of the first difference between two files, from diff's first
# command: "12c12", "12,14d11", or "11a12,13" (lines added after 11).
live_first_diff() {
	diff "$1" "$2" | awk 'NR == 1 { n = $0 + 0; if ($0 ~ /^[0-9,]*a/) n++; print n; exit }'
}

# live_compare_script DATA: perf script against jitsym script, line by line
# on comm/pid/tid/time/event and symbol/DSO names (offsets and addresses
# are not compared).
live_compare_script() {
	live_reference
	live_cs_base=$1.script$live_ref_tag
	live_say "script: $live_ref_said vs jitsym script${live_ref_jopts:+ $live_ref_jopts}" \
		"(names, no addresses)"
	live_perf_script "$1" 0
	live_cs_perf=$live_ps_out
	# which of perf's "(inlined)" lines are real frames: see live_real_frames
	live_cs_rf=$live_rf_opt
	live_cs_jrf=
	[ "${LIVE_SELF_CHECK:-0}" = 1 ] && live_cs_jrf=$live_rf_opt
	# shellcheck disable=SC2086
	if ! live_jitsym script $live_ref_jopts "$1" >"$live_cs_base.jitsym" \
		2>"$live_cs_base.jitsym.stderr"; then
		live_show "$live_cs_base.jitsym.stderr" >&2
		live_fail "jitsym script failed (stderr: $live_cs_base.jitsym.stderr)"
		return 0
	fi
	# $LIVE_NORMALIZE_OPTS: words, unquoted on purpose.
	# shellcheck disable=SC2086
	"$PERL" "$live_here/fold-perf-script.pl" --normalize --caller-start-wild --plt-wild \
		$live_cs_rf ${LIVE_NORMALIZE_OPTS:-} "$live_cs_perf" \
		>"$live_cs_base.perf.norm" 2>"$live_cs_base.perf.norm.stderr" ||
		{ live_show "$live_cs_base.perf.norm.stderr" >&2
		  live_hard_error "fold-perf-script.pl cannot read '$live_cs_perf'"; }
	[ -z "$live_cs_rf" ] || live_say "script: $(sed -n 's/^fold-perf-script: by [^:]*: //p' \
		"$live_cs_base.perf.norm.stderr")"
	# shellcheck disable=SC2086
	if ! "$PERL" "$live_here/fold-perf-script.pl" --normalize --plt-wild $live_cs_jrf \
		${LIVE_NORMALIZE_OPTS:-} "$live_cs_base.jitsym" >"$live_cs_base.jitsym.norm" \
		2>"$live_cs_base.jitsym.norm.stderr"; then
		live_show "$live_cs_base.jitsym.norm.stderr" >&2
		live_fail "jitsym script printed lines that are not perf script text"
		return 0
	fi
	live_cs_lines=$(wc -l <"$live_cs_base.perf.norm")
	live_cs_samples=$(grep -c '^H' "$live_cs_base.perf.norm" || true)
	# Lines match when equal, or when perf's symbol is the "*" of
	# --caller-start-wild or --plt-wild (either side's) and the DSOs are
	# equal, or when perf names a [vdso] frame jitsym has no vdso image
	# for (no build id: pipe mode, -z; perf reads its own process's vdso);
	# the matched lines are counted and reported.
	if live_cs_wild=$(awk -F'\t' '
		NR == FNR { a[FNR] = $0; n = FNR; next }
		{ if (FNR > n) exit 1; split(a[FNR], p, "\t")
		  if (a[FNR] == $0) next
		  if (p[1] == "F" && (p[2] == "*" || $2 == "*") && $1 == "F" && p[3] == $3) { w++; next }
		  if (p[1] == "F" && p[3] == "[vdso]" && $0 == "F\t[unknown]\t[vdso]") { w++; next }
		  exit 1 }
		END { if (FNR != n) exit 1; print w + 0 }' \
		"$live_cs_base.perf.norm" "$live_cs_base.jitsym.norm"); then
		live_say "script: identical ($live_cs_samples samples, $live_cs_lines lines;" \
			"$live_cs_wild frames wild: callers at a symbol start named by ip - 1, PLT, [vdso])"
		return 0
	fi
	live_cs_at=$(live_first_diff "$live_cs_base.perf.norm" "$live_cs_base.jitsym.norm")
	live_cs_ndiff=$(diff "$live_cs_base.perf.norm" "$live_cs_base.jitsym.norm" |
		grep -c '^<' || true)
	live_cs_from=$((live_cs_at > 4 ? live_cs_at - 4 : 1))
	live_cs_to=$((live_cs_at + 4))
	{
		echo "  $live_cs_ndiff of $live_cs_lines lines differ; samples: perf $live_cs_samples, jitsym $(grep -c '^H' "$live_cs_base.jitsym.norm" || true)"
		echo "  first mismatch at line $live_cs_at"
		echo "  perf script, lines $live_cs_from-$live_cs_to of $live_cs_perf:"
		sed -n "${live_cs_from},${live_cs_to}s/^/    | /p" "$live_cs_perf"
		echo "  jitsym script, lines $live_cs_from-$live_cs_to of $live_cs_base.jitsym:"
		sed -n "${live_cs_from},${live_cs_to}s/^/    | /p" "$live_cs_base.jitsym"
		echo "  normalised diff (perf -, jitsym +):"
		diff -u "$live_cs_base.perf.norm" "$live_cs_base.jitsym.norm" |
			sed -n '3,30s/^/    /p'
	} >&2
	live_fail "jitsym script differs from perf script"
}

# live_compare_jit_fold DATA: "jitsym fold DATA" against perf's route for
# JIT code: perf inject --jit, then perf script | fold-perf-script.pl.
# perf inject writes jitted-PID-N.so files next to the jitdump (the
# recording's directory, inside the temp dir) and into the build-id cache
# (the test's own); it runs on a copy, so DATA itself stays untouched.
live_compare_jit_fold() {
	live_cj=$1
	live_reference
	live_cjb=$1$live_ref_tag
	live_say "fold: perf inject --jit + $live_ref_said | fold-perf-script.pl" \
		"vs jitsym fold${live_ref_jopts:+ $live_ref_jopts}"
	if [ ! -s "$live_cj.injected" ] &&
	   ! "$PERF" --buildid-dir "$live_buildid_dir" inject --jit -i "$live_cj" \
		-o "$live_cj.injected" >"$live_cj.inject.log" 2>&1; then
		live_show "$live_cj.inject.log" >&2
		live_hard_error "perf inject --jit failed"
	fi
	# $LIVE_SCRIPT_OPTS: unquoted on purpose.
	# shellcheck disable=SC2086
	"$live_ref_perf" --buildid-dir "$live_buildid_dir" script -i "$live_cj.injected" \
		${LIVE_SCRIPT_OPTS:-} >"$live_cjb.injected.script" 2>/dev/null ||
		live_hard_error "perf script on the injected recording failed"
	live_real_frames "$live_cjb.injected.script" "$live_cj.injected"
	# shellcheck disable=SC2086
	"$PERL" "$live_here/fold-perf-script.pl" --caller-start-wild $live_rf_opt \
		"$live_cjb.injected.script" >"$live_cjb.inject.perf.folded" 2>/dev/null ||
		live_hard_error "fold-perf-script.pl cannot read '$live_cjb.injected.script'"
	live_say "perf inject wrote $(find "$(dirname "$live_cj")" -name 'jitted-*.so' | wc -l) jitted-*.so files"
	# shellcheck disable=SC2086
	if ! live_jitsym fold $live_ref_jopts "$live_cj" >"$live_cjb.inject.jitsym.folded" \
		2>"$live_cjb.inject.jitsym.stderr"; then
		live_show "$live_cjb.inject.jitsym.stderr" >&2
		live_fail "jitsym fold failed"
		return 0
	fi
	if "$PERL" "$live_here/compare-folded.pl" --min "${LIVE_MIN_AGREEMENT:-99}" --wild \
		--label-a perf-inject --label-b jitsym \
		"$live_cjb.inject.perf.folded" "$live_cjb.inject.jitsym.folded" \
		>"$live_cjb.inject.compare" 2>&1; then
		live_show "$live_cjb.inject.compare" 4
	else
		live_show "$live_cjb.inject.compare" 30 >&2
		live_fail "jitsym fold disagrees with perf inject --jit + perf script"
	fi
}

# live_expect_jit_resolved DATA [MAP]: no frame in anonymous memory (where
# JIT code lives) stays [unknown], per "jitsym sources". With MAP (the
# runtime's perf map, which a runtime writing both lists every jitdump load
# in too), a frame at an address no line of MAP covers is the runtime's
# omission, not jitsym's: said, not failed (perf's pipeline leaves it
# [unknown] as well; node did so for 1 of 84,844 frames in one CI run).
# Its output goes to the temp dir, not next to DATA.
live_expect_jit_resolved() {
	live_ej=$live_tmp/$(basename "$1").sources
	live_jitsym sources "$1" >"$live_ej" 2>"$live_ej.stderr" ||
		{ live_show "$live_ej.stderr" >&2; live_fail "jitsym sources failed"; return 0; }
	live_show "$live_ej" 12
	if grep -E 'unresolved in (//anon|\[anon|/memfd:)' "$live_ej" >&2; then
		if [ $# -ge 2 ] && [ -r "$2" ]; then
			live_expect_jit_described "$1" "$2"
		else
			live_fail "frames in JIT code stayed [unknown] (above)"
		fi
	fi
	grep -qE '^  frames .* [1-9][0-9]* (jitdump|perf map)' "$live_ej" ||
		live_fail "no frame was resolved from a jitdump or perf map"
}

# live_expect_jit_described DATA MAP: every frame of DATA that jitsym
# script leaves [unknown] in anonymous memory is at an address no line of
# the perf map MAP covers (else fails, naming the covered addresses),
# or one a line covers that repeats a load of the jitdump next to DATA
# (jit-PID.dump, PID from MAP's name): jitsym takes such a line only from
# the load's time on (README), and a sample can land in code before its
# load record's time, as perf's pipeline leaves it [unknown] too.
live_expect_jit_described() {
	live_ed=$live_tmp/$(basename "$1").anon-unknown
	live_jitsym script --no-inline "$1" 2>/dev/null |
		sed -n 's/^[[:space:]]*\([0-9a-f][0-9a-f]*\) \[unknown\] (\(\/\/anon\|\[anon\|\/memfd:\).*/\1/p' |
		sort -u >"$live_ed"
	live_ed_n=$(wc -l <"$live_ed")
	[ "$live_ed_n" -gt 0 ] ||
		{ live_fail "sources counts frames in JIT code as [unknown], script shows none"; return 0; }
	live_ed_dump=$(dirname "$1")/jit-$(basename "$2" .map | sed 's/^perf-//').dump
	live_ed_covered=$("$PERL" -e '
		# the jitdump loads (x86-64: little-endian), "start size" each
		my %load;
		if (open(my $j, "<:raw", $ARGV[2])) {
			local $/;
			my $d = <$j>;
			my $off = length($d) >= 12 ? unpack("V", substr($d, 8, 4)) : length($d);
			while ($off + 16 <= length($d)) {
				my ($id, $size) = unpack("V V", substr($d, $off, 8));
				last if $size < 16 || $off + $size > length($d);
				if ($id == 0 && $size >= 56) {
					my ($addr, $len) = unpack("Q< Q<", substr($d, $off + 32, 16));
					$load{"$addr $len"} = 1;
				}
				$off += $size;
			}
		}
		open(my $m, "<", $ARGV[0]) or die "$ARGV[0]: $!\n";
		my @r;
		while (<$m>) {
			next unless /^(?:0x)?([0-9a-fA-F]+) (?:0x)?([0-9a-fA-F]+) /;
			next if $load{hex($1) . " " . hex($2)};
			push @r, [hex($1), hex($1) + hex($2)];
		}
		open(my $a, "<", $ARGV[1]) or die "$ARGV[1]: $!\n";
		while (my $x = <$a>) {
			chomp $x;
			my $v = hex($x);
			for my $r (@r) {
				if ($v >= $r->[0] && $v < $r->[1]) { print "$x\n"; last }
			}
		}' "$2" "$live_ed" "$live_ed_dump")
	if [ -n "$live_ed_covered" ]; then
		printf '%s\n' "$live_ed_covered" | head -n 10 >&2
		live_fail "frames in JIT code stayed [unknown] at addresses $2 describes (above)"
	else
		live_say "$live_ed_n address(es) left [unknown] in JIT code: no line of $2 covers them (the runtime never described that code), or one repeating a jitdump load they ran before"
	fi
}

# live_expect_unwound_jit DATA FRAME_RE LEAF_RE: a --call-graph dwarf
# recording of a JIT runtime that writes unwinding info into its jitdump:
# jitsym read that info; at most 1% of the unwound user stacks ended for
# want of CFI in JIT code; fold has frames matching FRAME_RE (the
# runtime's JIT frames, e.g. ';py::') and one matching LEAF_RE; and at
# least 95% of the samples through FRAME_RE frames have the native stack
# below them down to main. Shares, not counts: how many samples land where
# varies from run to run.
live_expect_unwound_jit() {
	live_uj_src=$live_tmp/sources
	live_uj_folded=$live_tmp/jitsym.folded
	live_jitsym sources "$1" >"$live_uj_src" 2>/dev/null ||
		{ live_fail "jitsym sources failed"; return 0; }
	live_show "$live_uj_src" 8
	grep -q 'unwinding info' "$live_uj_src" ||
		live_fail "no JIT_CODE_UNWINDING_INFO read from the jitdump"
	live_uj_stacks=$(sed -n 's/^  unwound   \([0-9]*\) user stack.*/\1/p' "$live_uj_src" |
		awk '{ n += $1 } END { print n + 0 }')
	live_uj_nocfi=$(grep -oE "[0-9]+ no CFI for '(//anon|\[unknown\])'" "$live_uj_src" |
		awk '{ n += $1 } END { print n + 0 }')
	live_say "$live_uj_nocfi of $live_uj_stacks unwound stacks ended for want of CFI in JIT code"
	[ "$live_uj_stacks" -gt 0 ] || live_fail "no user stack was unwound"
	[ $((live_uj_nocfi * 100)) -le "$live_uj_stacks" ] ||
		live_fail "more than 1% of the stacks ended at JIT code for want of CFI"
	live_jitsym fold "$1" >"$live_uj_folded" 2>/dev/null ||
		{ live_fail "jitsym fold failed"; return 0; }
	live_uj_jit=$(awk -v re="$2" '$0 ~ re { n += $NF } END { print n + 0 }' "$live_uj_folded")
	live_uj_deep=$(awk -v re="$2" '$0 ~ re && /;(main|_start|Py_BytesMain|node::Start);/ {
		n += $NF } END { print n + 0 }' "$live_uj_folded")
	live_say "$live_uj_jit samples through JIT frames, $live_uj_deep of them down to main"
	[ "$live_uj_jit" -gt 0 ] || live_fail "no frame matching '$2' in jitsym fold"
	grep -qE "$3" "$live_uj_folded" || live_fail "no frame matching '$3' in jitsym fold"
	[ $((live_uj_deep * 100)) -ge $((live_uj_jit * 95)) ] ||
		live_fail "only $live_uj_deep of $live_uj_jit samples through JIT frames reach main"
}

# live_jit_leaves SCRIPT: "JIT NAMED" for perf script text (perf's or
# jitsym's): JIT the samples whose first user frame (the first frame not
# in the kernel) is in JIT code (DSO //anon, a memfd, a jitdump, a perf
# map, or perf inject's jitted-*.so), NAMED those of them whose frame has
# a name (not [unknown]).
live_jit_leaves() {
	awk '
	function flush() {
		if (inside && first != "" && first ~ jit) { n++; if (first !~ /[ \t]\[unknown\] \(/) named++ }
		inside = 0
	}
	BEGIN { jit = "[(](//anon|/memfd:[^()]*|[^()]*/?jit-[0-9]+[.]dump|[^()]*/?perf-[0-9]+[.]map|[^()]*/?jitted-[0-9]+-[0-9]+[.]so)[)]$" }
	/^[^ \t]/ { flush(); inside = 1; first = ""; next }
	/^$/ { flush(); next }
	inside && first == "" {
		if ($0 ~ /\[kernel[.][^)]*\]\)$/ || $0 ~ /\(\[unknown\]\)$/ && $1 ~ /^ffff/) next
		first = $0
	}
	END { flush(); printf "%d %d\n", n, named }' "$1"
}

# live_snapshot DIR: a listing with checksums of every file under DIR.
live_snapshot() {
	(cd "$1" && find . -type f -exec md5sum {} + | sort)
}

# Every comparison the live tests make on one recording.
live_compare_all() {
	live_compare_fold "$1" fold
	live_compare_fold "$1" fold-pid --include-pid
	live_compare_fold "$1" fold-tid --include-tid
	live_compare_fold "$1" fold-annotate --annotate
	live_compare_script "$1"
}

# live_expect_frames FOLDED NAME...: warn about functions missing from a
# profile; a missing one means the recording, not jitsym, is off.
live_expect_frames() {
	live_ef_file=$1
	shift
	for live_ef_name in "$@"; do
		grep -q "[;]${live_ef_name}[; ]" "$live_ef_file" ||
			live_say "warning: no '$live_ef_name' frame in $live_ef_file"
	done
}

live_finish() {
	if [ "$live_failed" -gt 0 ]; then
		printf 'FAIL: %s: %d comparison(s) failed\n' "$live_name" \
			"$live_failed" >&2
		exit 1
	fi
	live_say "PASS"
	exit 0
}
