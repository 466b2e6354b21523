#!/bin/sh
# Every option a command's --help lists is one the command takes: each
# option line of each command's --help (its -x or --name, with a value
# made from the line's placeholder: FILE, DIR, N, a|b takes a, ...; an
# optional one, --name[=ARG], given as --name=VALUE) is
# given to the command on a small recording with sched_switch samples
# (tests/golden/offcpu-synth/sched.spec; diff gets it twice), and the run
# must not end in a usage error (exit 1): an option --help lists but the
# command refuses (diff's -i, once) fails here, by command and option.
# And each option is written once (src/command/option.h's tables): no long
# name in two rows of a command's file, the shared and input options of
# command.c and input-opts.c in no command's file, no option line of a
# usage text or getopt entry written by hand.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

spec=$abs_top_srcdir/tests/golden/offcpu-synth/sched.spec
"$MKPERF" "$spec" "$tmp/p.data" >/dev/null 2>&1 || { echo "not ok - mkperf $spec"; exit 1; }
cp "$abs_top_srcdir/tests/golden/offcpu-synth/kallsyms" "$tmp/kallsyms"
mkdir "$tmp/dir"

# The options of a --help text on stdin: "WORD [ARG]" a line, WORD the
# long name (or the short one where there is none), ARG the placeholder.
options() {
	awk '/^ +-/ && match($0, /^ +/) && RLENGTH <= 8 {
		s = substr($0, RLENGTH + 1); name = ""; arg = ""
		while (match(s, /^-[^ ,]+(, )?/)) {
			name = substr(s, 1, RLENGTH); sub(/, $/, "", name)
			s = substr(s, RLENGTH + 1)
			if (s !~ /^-/) break
		}
		if (name ~ /\[=/) { arg = name; sub(/^[^[]*\[/, "", arg); sub(/\]$/, "", arg); sub(/\[.*/, "", name) }
		else if (name ~ /=/) { arg = name; sub(/^[^=]*/, "", arg); sub(/=.*/, "", name) }
		else if (match(s, /^ [^ ]+/)) arg = substr(s, 2, RLENGTH - 1)
		print name, arg
	}'
}

# A value for placeholder ARG of option NAME
value() {
	a=${2#=}
	case $a in
	*'|'*) a=${a%%|*} ;;
	esac
	case $1:$a in
	-i:FILE | --input:FILE) echo "$tmp/p.data" ;;
	-o:FILE | --output:FILE) echo "$tmp/out" ;;
	--kallsyms:FILE) echo "$tmp/kallsyms" ;;
	*:DIR) echo "$tmp/dir" ;;
	*:PID=FILE) echo "100=$tmp/none" ;;
	*:PX) echo 600 ;;
	*:N | *:P | *:PCT) echo 10 ;;
	*:DURATION) echo 1ms ;;
	*:START,END) echo 0, ;;
	--cpu:LIST) echo 0 ;;
	--labels:LIST) echo comm ;;
	-F:LIST | --fields:LIST) echo ip,sym ;;
	*:PID,...) echo 100 ;;
	*:TID,...) echo 101 ;;
	*:NAME,...) echo app ;;
	--event:NAME) echo cpu-clock ;;
	*:TEXT) echo title ;;
	# nothing listens there: the recording names no file to ask for anyway
	--debuginfod:URLS) echo http://127.0.0.1:9 ;;
	*) echo "$a" ;;
	esac
}

cmds=$("$JITSYM" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || bad "jitsym --help lists no commands"
for c in $cmds; do
	inputs="$tmp/p.data"
	[ "$c" = diff ] && inputs="$tmp/p.data $tmp/p.data"
	refused=
	n=0
	"$JITSYM" "$c" --help | options >"$tmp/opts"
	while read -r name arg; do
		case $name in -h | --help) continue ;; esac
		set -- "$name"
		if [ -n "$arg" ]; then
			v=$(value "$name" "$arg")
			case $arg in
			=*) set -- "$name=$v" ;;
			*) set -- "$name" "$v" ;;
			esac
		fi
		in=$inputs
		case $name in -i | --input) [ "$c" != diff ] && in= ;; esac
		# shellcheck disable=SC2086
		(cd "$tmp" && "$JITSYM" "$c" "$@" --kallsyms "$tmp/kallsyms" $in) \
			</dev/null >"$tmp/stdout" 2>"$tmp/stderr"
		st=$?
		n=$((n + 1))
		# a jitsym built without libdebuginfod refuses it, by design
		if [ $st = 1 ] && grep -q 'built without libdebuginfod' "$tmp/stderr"; then
			st=0
		fi
		if [ $st = 1 ]; then
			refused="$refused $*"
			head -3 "$tmp/stderr" | while IFS= read -r l; do echo "  $c $name: $l"; done
		fi
		rm -f "$tmp/out"
	done <"$tmp/opts"
	if [ -z "$refused" ] && [ $n -gt 0 ]; then
		ok "$c takes the $n options its --help lists"
	else
		bad "$c refuses options its --help lists:$refused"
	fi
done

src=$abs_top_srcdir/src/command
names() { sed -n 's/.*\.name = "\([a-z0-9-]*\)".*/\1/p' "$@"; }
common=$(names "$src/command.c" "$src/input-opts.c")
twice=$(echo "$common" | sort | uniq -d)
for f in "$src"/cmd-*.c; do
	d=$( { names "$f"; echo "$common"; } | sort | uniq -d)
	[ -n "$d" ] && twice="$twice ${f##*/}: $(echo $d)"
done
n=$( { echo "$common"; names "$src"/cmd-*.c; } | grep -c .)
if [ -z "$twice" ] && [ "$n" -gt 30 ]; then
	ok "each of the $n option rows of src/command/ names its option once"
else
	bad "options written twice (or too few rows, $n):$twice"
fi
hand=$(grep -n '^[[:space:]]*"  *-[-a-zA-Z]\|_argument, NULL' "$src"/*.c "$src"/*.h | grep -v '/option\.c:')
if [ -z "$hand" ]; then
	ok "no usage line or getopt entry is written by hand in src/command/"
else
	bad "options written by hand, not in an option table:"
	echo "$hand"
fi
exit $fail
