#!/bin/sh
# README.md names the frame categories as jitsym writes them (the strings
# of category_names in src/aggregate/frameclass.c), so that what a reader copies
# from it (go tool pprof -tagfocus=category=..., a tiers CSV filter)
# matches:
#  - the pprof label list ("its `category` (`kernel`, ...:"): every
#    category but unknown (which gets no label), no other value;
#  - the first column of the tiers table: every category.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"
readme=$abs_top_srcdir/README.md
src=$abs_top_srcdir/src/aggregate/frameclass.c

# the strings of category_names[] in src/aggregate/frameclass.c, one a line
sed -n '/^static const char \*const category_names\[/,/^};/p' "$src" |
	sed -n 's/^[^"]*= "\(.*\)",$/\1/p' | sort >"$tmp/src"
[ "$(wc -l <"$tmp/src")" -ge 8 ] || { bad "no category names found in $src"; exit 1; }
grep -v '^unknown$' "$tmp/src" >"$tmp/src-labelled"

# the backquoted words of the pprof label paragraph, from "its `category`" to ":"
awk '/its `category`/ { on = 1 } on { print } on && /: / { exit }' "$readme" |
	tr '\n' ' ' | sed 's/.*its `category` *(//; s/:.*//' |
	grep -o '`[^`]*`' | tr -d '`' | sort >"$tmp/pprof"
if cmp -s "$tmp/src-labelled" "$tmp/pprof"; then
	ok "README's pprof category values are the ones written: $(tr '\n' ',' <"$tmp/pprof")"
else
	bad "README's pprof category values differ from src/aggregate/frameclass.c's (< source, > README)"
	diff "$tmp/src-labelled" "$tmp/pprof"
fi

# the tiers table: rows between "| category | examples" and the first line not a row
awk '/^\| category \| examples/ { on = 1; next } on && !/^\|/ { exit }
	on && !/^\|---/ { split($0, f, "|"); print f[2] }' "$readme" |
	tr ',' '\n' | sed 's/^ *//; s/ *$//; /^$/d' | sort >"$tmp/tiers"
if cmp -s "$tmp/src" "$tmp/tiers"; then
	ok "README's tiers table names every category as written"
else
	bad "README's tiers table categories differ from src/aggregate/frameclass.c's (< source, > README)"
	diff "$tmp/src" "$tmp/tiers"
fi
exit $fail
