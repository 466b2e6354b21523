#!/bin/sh
# mkman.sh JITSYM DOCDIR VERSION: write jitsym.1 to standard output.
#
# The page is DOCDIR/jitsym.1.prose (what --help does not say: the
# description, exit status, files, environment, examples) with its
# @COMMANDS@ line replaced by every command's --help, as JITSYM prints it,
# turned into roff by DOCDIR/help2roff.awk; @VERSION@ becomes VERSION.
# So the page lists exactly the commands and options the program has.
set -eu
jitsym=$1 docdir=$2 version=$3

commands() {
	"$jitsym" --help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9-]*\)  *\(.*\)$/\1	\2/p'
}

help_texts() {
	commands | while IFS='	' read -r name what; do
		printf '@@CMD %s\t%s\n' "$name" "$what"
		"$jitsym" "$name" --help
	done
}

# The one-line list for NAME's COMMANDS overview, as .TP items
command_list() {
	commands | while IFS='	' read -r name what; do
		printf '.TP\n\\fB%s\\fR\n%s\n' "$name" "$(printf '%s' "$what" | sed 's/-/\\-/g')"
	done
}

help_texts >/dev/null   # fail here, not half way through the page
while IFS= read -r line; do
	case $line in
	@COMMAND_LIST@) command_list ;;
	@COMMANDS@) help_texts | awk -f "$docdir/help2roff.awk" ;;
	*) printf '%s\n' "$line" | sed "s/@VERSION@/$version/g" ;;
	esac
done <"$docdir/jitsym.1.prose"
