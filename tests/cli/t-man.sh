#!/bin/sh
# jitsym.1 (made by 'jitsym --man-source' from doc/jitsym.1.prose and
# the option tables --help prints, src/command/man.c) says what --help
# says:
#  - the page's commands are those 'jitsym --help' lists, in its order;
#  - for each command, the options its --help lists (the leading -x and
#    --name words of each option line) are the options the page lists for
#    it (its own .TP items and, where it says '.\" shared: HEADING', the
#    section marked '.\" shared-section: HEADING'), no more, no fewer;
#  - every option item of the page says what the option does;
#  - 'make install-man DESTDIR=...' installs it as man1/jitsym.1, and
#    'man -l' (man-db) renders the installed page without a warning, as
#    do groff -ww and mandoc -Tlint where they are installed (each
#    check skipped without its program; the test skips without man).
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"
page=$abs_top_builddir/jitsym.1

[ -f "$page" ] || { echo "not ok - $page was not built"; exit 1; }

# The option words of option lines on stdin: "-i --input", one a line
opt_words() {
	awk '/^ +-/ && match($0, /^ +/) && RLENGTH <= 8 {
		for (i = 1; i <= NF; i++) {
			w = $i
			if (w !~ /^-/) break
			sub(/,$/, "", w); sub(/=.*/, "", w)
			print w
		}
	}' | sort
}

"$JITSYM" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' >"$tmp/cmds.help"
awk '/^\.\\" command: / { print $3 }' "$page" >"$tmp/cmds.man"
if cmp -s "$tmp/cmds.help" "$tmp/cmds.man"; then
	ok "the page's commands are jitsym --help's: $(tr '\n' ' ' <"$tmp/cmds.help")"
else
	bad "the page's commands differ from jitsym --help's"
	diff "$tmp/cmds.help" "$tmp/cmds.man"
fi

# The page's option lines of a command, as --help would print them
man_options() { # command
	awk -v cmd="$1" '
	function unroff(s) { gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\e/, "\\", s); return s }
	/^\.S[SH] / { in_cmd = 0; in_shared = "" }
	/^\.\\" command: / { in_cmd = ($3 == cmd) }
	in_cmd && /^\.\\" shared: / { h = $0; sub(/^[^:]*: /, "", h); want[h] = 1 }
	/^\.\\" shared-section: / { h = $0; sub(/^[^:]*: /, "", h); in_shared = h }
	/^\.TP/ { tp = 1; next }
	tp { tp = 0; line = "  " unroff($0)
		if (in_cmd) print line
		else if (in_shared != "") shared[in_shared] = shared[in_shared] line "\n" }
	END { for (h in want) printf "%s", shared[h] }' "$page" | opt_words
}

while read -r cmd; do
	"$JITSYM" "$cmd" --help | opt_words >"$tmp/$cmd.help"
	man_options "$cmd" >"$tmp/$cmd.man"
	if [ -s "$tmp/$cmd.help" ] && cmp -s "$tmp/$cmd.help" "$tmp/$cmd.man"; then
		ok "$cmd: the page lists the $(wc -l <"$tmp/$cmd.help") options of its --help"
	else
		bad "$cmd: the page's options differ from its --help (< help, > page)"
		diff "$tmp/$cmd.help" "$tmp/$cmd.man"
	fi
done <"$tmp/cmds.help"

# a .TP item: the option in bold, then a line of what it does
undoc=$(awk '/^\.TP/ { tp = 1; next }
	tp == 1 { tp = 2; item = $0; next }
	tp == 2 { tp = 0; if ($0 == "" || $0 ~ /^\./) print item }' "$page")
if [ -z "$undoc" ]; then
	ok "every option item of the page says what it does"
else
	bad "option items without a description: $undoc"
fi

if ! command -v man >/dev/null 2>&1; then
	echo "ok - man -l # SKIP man (man-db) not installed"
	exit $fail
fi
# make install-man DESTDIR: the page as installed; MAKEFLAGS of a parallel
# 'make check' name a jobserver this make cannot use
if (cd "$abs_top_builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	"${MAKE:-make}" -s install-man DESTDIR="$tmp/inst") >"$tmp/install.log" 2>&1; then
	ok "make install-man DESTDIR=... installs the page"
else
	bad "make install-man DESTDIR=... failed"
	cat "$tmp/install.log"
fi
installed=$(find "$tmp/inst" -path '*/man1/jitsym.1' | head -n 1)
if [ -z "$installed" ]; then
	bad "no man1/jitsym.1 under DESTDIR"
	exit 1
fi
if MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$installed" >"$tmp/man.txt" 2>"$tmp/man.err" &&
	[ ! -s "$tmp/man.err" ] && grep -q 'OPTIONS FOR READING THE RECORDING' "$tmp/man.txt"; then
	ok "man -l renders the installed page without warnings ($(wc -l <"$tmp/man.txt") lines)"
else
	bad "man -l: warnings or no page"
	cat "$tmp/man.err"
fi
if command -v groff >/dev/null 2>&1; then
	if groff -ww -man -Tutf8 -z "$installed" >"$tmp/groff.err" 2>&1 && [ ! -s "$tmp/groff.err" ]; then
		ok "groff -ww -man: no warnings"
	else
		bad "groff -ww -man warns"
		cat "$tmp/groff.err"
	fi
fi
if command -v mandoc >/dev/null 2>&1; then
	if mandoc -Tlint -Wwarning "$installed" >"$tmp/mandoc.err" 2>&1; then
		ok "mandoc -Tlint: no warnings"
	else
		bad "mandoc -Tlint warns"
		cat "$tmp/mandoc.err"
	fi
fi
exit $fail
