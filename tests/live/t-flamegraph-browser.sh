#!/bin/sh
# t-flamegraph-browser.sh: jitsym flamegraph's SVG of the bundled recording
# tests/golden/native-recorded, opened in headless Chromium:
#  - a screenshot is written and is not blank (many colours, frames drawn);
#  - the SVG's script ran without errors and drew one frame per distinct
#    stack prefix of jitsym fold (plus the root), and the frames, read in
#    document order with their depths and counts, are fold's stacks;
#  - "#search=hash_bytes" highlights the frames so named and reports the
#    share of samples that fold gives those stacks;
#  - "#zoom=N" keeps the frame's callers and callees and hides the rest.
# The recording is read where it is; everything written goes to the temp
# dir. Needs no perf; skips (77) when chromium is not installed.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init flamegraph-browser
[ "${LIVE_SELF_CHECK:-0}" = 1 ] && live_skip "LIVE_SELF_CHECK=1: nothing to check without jitsym"
live_find_jitsym
# shellcheck source=browser-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/browser-lib.sh"

rec=$live_top/tests/golden/native-recorded
[ -f "$rec/perf.data" ] || live_hard_error "no bundled recording in $rec"
svg=$live_tmp/fg.svg
opts="--symfs symfs --kallsyms kallsyms --buildid-dir symfs"

# jitsym_in_rec CMD [ARG...]: run jitsym inside the recording's directory
jitsym_in_rec() {
	# $opts and $JITSYM_WRAPPER are word lists: unquoted on purpose.
	# shellcheck disable=SC2086
	(cd "$rec" && ${JITSYM_WRAPPER:-} "$JITSYM" "$@" $opts perf.data)
}

# status URL: the text of the SVG's status element once its script has run
status() {
	chrome --dump-dom "$1" >"$live_tmp/dom" ||
		{ live_show "$live_tmp/chromium.log" 20 >&2; live_hard_error "chromium --dump-dom '$1' failed"; }
	sed -n 's/.*<text id="status"[^>]*>\([^<]*\)<.*/\1/p' "$live_tmp/dom"
}

before=$(live_snapshot "$rec")
jitsym_in_rec fold >"$live_tmp/fold" 2>"$live_tmp/fold.stderr" ||
	{ live_show "$live_tmp/fold.stderr" >&2; live_hard_error "jitsym fold failed"; }
if ! jitsym_in_rec flamegraph -o "$svg" 2>"$live_tmp/fg.stderr"; then
	live_show "$live_tmp/fg.stderr" >&2
	live_fail "jitsym flamegraph failed"
	live_finish
fi
after=$(live_snapshot "$rec")
[ "$before" = "$after" ] || live_fail "jitsym changed files in the recording's directory"
live_say "SVG: $(wc -c <"$svg") bytes, $(grep -c '^<g class="f' "$svg") frames"

# fold's stacks as the flame graph's tree: every distinct prefix with the
# samples through it, in depth-first order with callees sorted by name
# (paths joined with \001, which sorts before every character of a name)
awk '{ c = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";"); p = ""
       for (i = 1; i <= n; i++) { p = (i > 1 ? p "\001" : "") f[i]; sum[p] += c } }
     END { for (p in sum) print p "\t" sum[p] }' "$live_tmp/fold" |
	LC_ALL=C sort -t "$(printf '\t')" -k1,1 >"$live_tmp/fold.tree"
# the SVG's frames in document order: depth from the frame's row, path
# from the frames above it, name from its title, count from data-n
awk '/^<g class="f/ {
	y = $0; sub(/.*<rect x="[^"]*" y="/, "", y); sub(/".*/, "", y)
	n = $0; sub(/.*data-n="/, "", n); sub(/".*/, "", n)
	t = $0; sub(/.*<title>/, "", t); sub(/&#10;.*/, "", t)
	gsub(/&lt;/, "<", t); gsub(/&gt;/, ">", t); gsub(/&quot;/, "\"", t)
	gsub(/&#39;/, "'\''", t); gsub(/&amp;/, "\\&", t)
	ys[++nr] = y + 0; name[nr] = t; cnt[nr] = n
     }
     END {
	for (i = 1; i <= nr; i++) if (!(ys[i] in rank)) { rank[ys[i]] = 0; lv[++nl] = ys[i] }
	# rows from the bottom: the root is the lowest
	for (i = 1; i <= nl; i++) { d = 0; for (j = 1; j <= nl; j++) if (lv[j] > lv[i]) d++; rank[lv[i]] = d }
	for (i = 1; i <= nr; i++) {
		d = rank[ys[i]]; path[d] = name[i]
		if (d == 0) continue
		p = path[1]; for (k = 2; k <= d; k++) p = p "\001" path[k]
		print p "\t" cnt[i]
	}
     }' "$svg" >"$live_tmp/svg.tree"
if cmp -s "$live_tmp/fold.tree" "$live_tmp/svg.tree"; then
	live_say "frames: fold's $(wc -l <"$live_tmp/fold.tree") stack prefixes, same counts, same order"
else
	tr '\001' ';' <"$live_tmp/fold.tree" >"$live_tmp/fold.tree.txt"
	tr '\001' ';' <"$live_tmp/svg.tree" >"$live_tmp/svg.tree.txt"
	diff "$live_tmp/fold.tree.txt" "$live_tmp/svg.tree.txt" | sed -n '1,20s/^/    /p' >&2
	live_fail "the SVG's frames are not fold's stacks (fold <, svg >)"
fi
expect_frames=$(($(wc -l <"$live_tmp/fold.tree") + 1))

# the picture: not blank
chrome --screenshot="$live_tmp/fg.png" --window-size=1200,800 "file://$svg" >/dev/null ||
	{ live_show "$live_tmp/chromium.log" 20 >&2; live_hard_error "chromium --screenshot failed"; }
live_check_screenshot "$live_tmp/fg.png" 8 90

# the script: ran, no errors, drew every frame
st=$(status "file://$svg")
live_say "status: $st"
[ "$(field errors "$st")" = 0 ] || live_fail "script errors (status '$st')"
[ "$(field frames "$st")" = "$expect_frames" ] ||
	live_fail "the script drew $(field frames "$st") frames, fold's stacks make $expect_frames"

# search: frames named hash_bytes, and the samples of the stacks through them
want_hits=$(awk -F'\t' '{ n = split($1, f, "\001"); if (f[n] ~ /hash_bytes/) h++ } END { print h + 0 }' \
	"$live_tmp/fold.tree")
want_pct=$(awk '{ c = $NF; t += c; sub(/ [0-9]+$/, ""); if ($0 ~ /hash_bytes/) m += c }
	END { printf "%.2f", t ? 100 * m / t : 0 }' "$live_tmp/fold")
st=$(status "file://$svg#search=hash_bytes")
live_say "#search=hash_bytes: $st (fold: $want_hits frames, $want_pct%)"
[ "$(field errors "$st")" = 0 ] || live_fail "script errors in the search (status '$st')"
[ "$(field hits "$st")" = "$want_hits" ] ||
	live_fail "search matched $(field hits "$st") frames, fold has $want_hits named hash_bytes"
got_pct=$(field matched "$st")
awk -v a="${got_pct%\%}" -v b="$want_pct" 'BEGIN { d = a - b; exit !(a != "" && d <= 0.011 && d >= -0.011) }' ||
	live_fail "search matched ${got_pct:-nothing}, fold gives $want_pct%"
[ "$want_hits" -gt 0 ] || live_fail "no hash_bytes frame in the recording: the search checked nothing"

# zoom: into the first worker_run frame; its callers and its callees stay
zoom=$(awk -F'\t' '{ n = split($1, f, "\001"); if (f[n] == "worker_run") { print NR; exit } }' \
	"$live_tmp/fold.tree")
if [ -z "$zoom" ]; then
	live_fail "no worker_run frame in the recording: the zoom checked nothing"
else
	zpath=$(sed -n "${zoom}s/	.*//p" "$live_tmp/fold.tree")
	want_visible=$(awk -F'\t' -v z="$zpath" '
		BEGIN { nz = split(z, f, "\001") }
		$1 == z || index($1, z "\001") == 1 { v++ }
		END { print v + nz }' "$live_tmp/fold.tree")
	st=$(status "file://$svg#zoom=$zoom")
	live_say "#zoom=$zoom (worker_run): $st (expected visible=$want_visible)"
	[ "$(field errors "$st")" = 0 ] || live_fail "script errors in the zoom (status '$st')"
	[ "$(field zoomed "$st")" = "$zoom" ] || live_fail "the script did not zoom (status '$st')"
	[ "$(field visible "$st")" = "$want_visible" ] ||
		live_fail "zoom left $(field visible "$st") frames, expected $want_visible (callers and callees)"
fi

live_finish
