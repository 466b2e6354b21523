#!/bin/sh
# t-flamegraph-browser.sh: jitsym flamegraph's SVG of the bundled recording
# tests/golden/native-recorded, opened in headless Chromium:
#  - a screenshot is written and is not blank (many colours, frames drawn);
#  - no console message; the SVG's script ran without errors and drew one
#    frame per distinct stack prefix of jitsym fold (plus the root), and
#    the frames, read in document order with their depths (rows from the
#    root's) and counts, are fold's stacks;
#  - "#search=hash_bytes" highlights the frames so named and reports the
#    share of samples that fold gives those stacks;
#  - "#zoom=N" keeps the frame's callers and callees and hides the rest,
#    with the root at the top (the default) and with --root-at-bottom.
# Then the synthesized recording of tests/golden/flamegraph-deep (built
# with tests/tools/mkperf into the temp dir), 0.3% of whose samples are in
# a chain of 128 frames, the rest at most 5 deep:
#  - the first screenshot (a 1200 x 800 window) shows the root and the
#    busy part: the pixels of the root's colour are at least 40% of the
#    root's area, those of the colours of the frames of >= 1% of the
#    samples at least 40% of their area; the SVG places them all in the
#    top 800 px; no console message, no script error;
#  - the chain is there: "#search=recurse_" finds its 126 frames and
#    0.30% of the samples, "#zoom=N" of its last frame keeps its 129
#    callers (130 frames visible).
# The bundled recording is read where it is; everything written goes to
# the temp dir. Needs no perf; skips (77) when chromium is not installed.
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
# the SVG's frames in document order: depth from the frame's row (its
# distance from the root's, the first frame, whichever way up the graph
# is drawn), path from its callers, name from its title, count from data-n
awk '/^<g class="f/ {
	y = $0; sub(/.*<rect x="[^"]*" y="/, "", y); sub(/".*/, "", y)
	n = $0; sub(/.*data-n="/, "", n); sub(/".*/, "", n)
	t = $0; sub(/.*<title>/, "", t); sub(/&#10;.*/, "", t)
	gsub(/&lt;/, "<", t); gsub(/&gt;/, ">", t); gsub(/&quot;/, "\"", t)
	gsub(/&#39;/, "'\''", t); gsub(/&amp;/, "\\&", t)
	ys[++nr] = y + 0; name[nr] = t; cnt[nr] = n
     }
     END {
	y0 = ys[1]
	for (i = 1; i <= nr; i++) {
		ys[i] -= y0; if (ys[i] < 0) ys[i] = -ys[i]
		if (!(ys[i] in rank)) { rank[ys[i]] = 0; lv[++nl] = ys[i] }
	}
	# rows from the root: the nearer the root, the lower the depth
	for (i = 1; i <= nl; i++) { d = 0; for (j = 1; j <= nl; j++) if (lv[j] < lv[i]) d++; rank[lv[i]] = d }
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
live_no_console "the flame graph"
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
	# the same, drawn flamegraph.pl's way up
	if jitsym_in_rec flamegraph --root-at-bottom -o "$live_tmp/up.svg" 2>"$live_tmp/up.stderr"; then
		st=$(status "file://$live_tmp/up.svg#zoom=$zoom")
		live_say "--root-at-bottom #zoom=$zoom: $st"
		if [ "$(field errors "$st")" != 0 ] || [ "$(field visible "$st")" != "$want_visible" ]; then
			live_fail "--root-at-bottom: zoom left $(field visible "$st") frames, expected $want_visible"
		fi
	else
		live_show "$live_tmp/up.stderr" >&2
		live_fail "jitsym flamegraph --root-at-bottom failed"
	fi
fi

# ---- a deep, narrow stack beside a shallow busy part ----
tools=${abs_top_builddir:-$(dirname "$JITSYM")}/tests/tools
MKPERF=${MKPERF:-$tools/mkperf}
[ -x "$MKPERF" ] || live_hard_error "no '$MKPERF': make check builds it"
deep=$live_tmp/deep
mkdir -p "$deep/maps"
if ! sh "$live_top/tests/golden/flamegraph-deep/make-spec.sh" "$deep/deep.spec" \
		"$deep/maps/perf-4242.map" >"$live_tmp/mk.log" 2>&1 ||
	! "$MKPERF" "$deep/deep.spec" "$deep/perf.data" >>"$live_tmp/mk.log" 2>&1; then
	live_show "$live_tmp/mk.log" >&2
	live_hard_error "cannot build the deep recording"
fi
: >"$deep/kallsyms"
dsvg=$live_tmp/deep.svg
# $JITSYM_WRAPPER is a word list: unquoted on purpose.
# shellcheck disable=SC2086
if ! (cd "$deep" && ${JITSYM_WRAPPER:-} "$JITSYM" flamegraph --kallsyms kallsyms \
		--perfmap-dir maps -o "$dsvg" perf.data) 2>"$live_tmp/deep.stderr"; then
	live_show "$live_tmp/deep.stderr" >&2
	live_fail "jitsym flamegraph failed on the deep recording"
	live_finish
fi
# per frame: y, width, samples, fill, name; the root first
awk '/^<g class="f/ {
	n = $0; sub(/.*data-n="/, "", n); sub(/".*/, "", n)
	r = $0; sub(/.*<rect /, "", r); sub(/\/>.*/, "", r)
	y = r; sub(/.* y="/, "", y); sub(/".*/, "", y)
	w = r; sub(/.* width="/, "", w); sub(/".*/, "", w)
	c = r; sub(/.* fill="/, "", c); sub(/".*/, "", c)
	t = $0; sub(/.*<title>/, "", t); sub(/&#10;.*/, "", t)
	print y, w, n, c, t
     }' "$dsvg" >"$live_tmp/deep.frames"
# the busy part: the frames of >= 1% of the samples; their colours and area
busy=$(awk 'NR == 1 { total = $3 } $3 * 100 >= total { printf "%s ", $4 }' "$live_tmp/deep.frames")
busy_area=$(awk 'NR == 1 { total = $3 } $3 * 100 >= total { a += $2 * 15 } END { printf "%d", a }' "$live_tmp/deep.frames")
busy_low=$(awk 'NR == 1 { total = $3 } $3 * 100 >= total && $1 + 15 > m { m = $1 + 15 } END { print m + 0 }' "$live_tmp/deep.frames")
root_fill=$(awk 'NR == 1 { print $4 }' "$live_tmp/deep.frames")
root_area=$(awk 'NR == 1 { printf "%d", $2 * 15 }' "$live_tmp/deep.frames")
live_say "deep SVG: $(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$dsvg") px high, \
$(wc -l <"$live_tmp/deep.frames") frames; the busy part's lowest edge at $busy_low px"
[ "$busy_low" -le 800 ] || live_fail "the frames of >= 1% of the samples reach $busy_low px: not in the first 800"

: >"$live_tmp/chromium.log"
chrome --screenshot="$live_tmp/deep.png" --window-size=1200,800 "file://$dsvg" >/dev/null ||
	{ live_show "$live_tmp/chromium.log" 20 >&2; live_hard_error "chromium --screenshot failed"; }
live_check_screenshot "$live_tmp/deep.png" 8 95
# word lists of colours: unquoted on purpose
# shellcheck disable=SC2086
if got_root=$(live_png_matching "$live_tmp/deep.png" $root_fill) &&
	got_busy=$(live_png_matching "$live_tmp/deep.png" $busy); then
	live_say "first screenful: root colour $got_root px of its $root_area, busy colours $got_busy px of their $busy_area"
	[ "$((got_root * 10))" -ge "$((root_area * 4))" ] ||
		live_fail "the first screenful shows $got_root px of the root ($root_area px): not in view"
	[ "$((got_busy * 10))" -ge "$((busy_area * 4))" ] ||
		live_fail "the first screenful shows $got_busy px of the busy frames ($busy_area px): not in view"
fi
st=$(status "file://$dsvg")
live_say "deep status: $st"
live_no_console "the deep flame graph"
[ "$(field errors "$st")" = 0 ] || live_fail "script errors in the deep graph (status '$st')"
[ "$(field frames "$st")" = "$(wc -l <"$live_tmp/deep.frames")" ] ||
	live_fail "the script found $(field frames "$st") frames, the SVG has $(wc -l <"$live_tmp/deep.frames")"
# the chain: found by a search, and a zoom into its last frame keeps its callers
st=$(status "file://$dsvg#search=recurse_")
live_say "deep #search=recurse_: $st"
if [ "$(field hits "$st")" != 126 ] || [ "$(field matched "$st")" != 0.30% ]; then
	live_fail "search for the chain: $st, expected hits=126 matched=0.30%"
fi
last=$(awk '$5 == "recurse_126" { print NR - 1 }' "$live_tmp/deep.frames")
st=$(status "file://$dsvg#zoom=$last")
live_say "deep #zoom=$last (recurse_126): $st"
if [ "$(field zoomed "$st")" != "$last" ] || [ "$(field visible "$st")" != 130 ]; then
	live_fail "zoom into recurse_126: $st, expected visible=130 (itself and its 129 callers)"
fi
live_no_console "the deep flame graph's search and zoom"

live_finish
