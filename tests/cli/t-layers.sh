#!/bin/sh
# The stages of src/ hold (scripts/check-layers.sh, ARCHITECTURE.md "The
# tree"): the tree follows the stage order, and the check does fail on a
# planted back-edge and on a writer reaching below the aggregator.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"
top=$abs_top_srcdir
check=$top/scripts/check-layers.sh

if sh "$check" "$top/src" >"$tmp/out" 2>&1; then
	ok "src/ follows the stage order: $(tail -n 1 "$tmp/out")"
else
	bad "src/ breaks the stage order:"
	sed 's/^/#   /' "$tmp/out"
fi

# a copy of the tree with one planted include; the check must name it
plant() { # FILE INCLUDE WHAT
	rm -rf "$tmp/src" && cp -R "$top/src" "$tmp/src" && chmod -R u+w "$tmp/src"
	printf '#include "%s"\n' "$2" >>"$tmp/src/$1"
	if sh "$check" "$tmp/src" >"$tmp/planted" 2>&1; then
		bad "$3: the check passed"
	elif grep -q "^src/$1:[0-9]*: includes $2" "$tmp/planted"; then
		ok "$3: the check fails and names src/$1"
	else
		bad "$3: the check failed without naming src/$1:"
		sed 's/^/#   /' "$tmp/planted"
	fi
}
plant common/alloc.c command/cmds.h "a back-edge from common/ to command/"
plant reader/order.c timeline/machine.h "a back-edge from reader/ to timeline/"
plant output/out-fold.c session/session.h "a writer including the session"
plant output/out-fold.c timeline/jitmap.h "a writer including a timeline"
exit "$fail"
