#!/bin/sh
# The documentation stays within the repository (issue 21):
#  - no file of the source tree (git's tracked files, else every file of
#    the unpacked tree) names the directory "shared" beside the tree (the
#    path below): a reader of the repository does not have it;
#  - each relative link of README.md and ARCHITECTURE.md, "[text](target)"
#    outside fenced code, names a file or directory of the tree, and a
#    "#anchor" (alone or after a .md file) names a heading of that file as
#    GitHub makes anchors of headings.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"
top=$abs_top_srcdir

# the files of the source tree, one a line, relative to $top: git's list
# when $top is the top of a work tree; else (an unpacked tarball, which
# distcheck unpacks inside the build directory, perhaps inside a clone)
# every file under $top
gittop=$(git -C "$top" rev-parse --show-toplevel 2>/dev/null) || gittop=
if [ -n "$gittop" ] && [ "$(cd "$gittop" && pwd -P)" = "$(cd "$top" && pwd -P)" ]; then
	git -C "$top" ls-files >"$tmp/files"
else
	(cd "$top" && find . -type f ! -path './.git/*' ! -path './autom4te.cache/*' |
		sed 's|^\./||') >"$tmp/files"
fi
[ -s "$tmp/files" ] || { bad "no files found under $top"; exit 1; }

# built from two parts so that this file does not name it
dots=..
outside="$dots/shared"
: >"$tmp/outside"
while IFS= read -r f; do
	[ -f "$top/$f" ] || continue
	grep -I -n -F -e "$outside" "$top/$f" 2>/dev/null | sed "s|^|$f:|" >>"$tmp/outside"
done <"$tmp/files"
if [ -s "$tmp/outside" ]; then
	bad "files name $outside, which is not in the repository:"
	sed 's/^/#   /' "$tmp/outside"
else
	ok "no file names $outside ($(wc -l <"$tmp/files") files)"
fi

# The anchors of doc's headings (outside fenced code), one a line: the
# heading's text lowercased, backquotes and punctuation but '-' and '_'
# dropped, blanks as '-'.
anchors() {
	awk '/^```/ { fence = !fence; next } !fence && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
		tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# "target" of each [text](target) outside fenced code, one a line
links() {
	awk '/^```/ { fence = !fence; next }
	     !fence {
		s = $0
		while (match(s, /\]\([^) ]+\)/)) {
			print substr(s, RSTART + 2, RLENGTH - 3)
			s = substr(s, RSTART + RLENGTH)
		}
	     }' "$1"
}

for doc in README.md ARCHITECTURE.md; do
	[ -f "$top/$doc" ] || { bad "$doc is missing"; continue; }
	n=0
	broken=0
	for target in $(links "$top/$doc"); do
		case $target in
		http://*|https://*|mailto:*) continue ;;
		esac
		n=$((n + 1))
		file=${target%%#*}
		anchor=
		case $target in *'#'*) anchor=${target#*#} ;; esac
		[ -n "$file" ] || file=$doc
		if [ ! -e "$top/$file" ]; then
			echo "# $doc: link '$target': no file '$file' in the repository"
			broken=$((broken + 1))
		elif [ -n "$anchor" ] && ! anchors "$top/$file" | grep -qx -e "$anchor"; then
			echo "# $doc: link '$target': no heading of $file has the anchor '#$anchor'"
			broken=$((broken + 1))
		fi
	done
	if [ "$broken" -eq 0 ] && [ "$n" -gt 0 ]; then
		ok "$doc: its $n relative links name files and headings of the repository"
	elif [ "$broken" -eq 0 ]; then
		ok "$doc: no relative links"
	else
		bad "$doc: $broken of its $n relative links lead nowhere in the repository"
	fi
done
exit "$fail"
