#!/bin/sh
# t-tiers-browser.sh: the SVG of "jitsym tiers --format svg" on the
# synthesized recording of tests/golden/tiers-synth (seven runtimes over
# 1 s, a V8 process warming up), opened in headless Chromium:
#  - no console message, and the script ran without errors and found one
#    chart per group and one area per series of the CSV of the same run;
#  - "#hover=0" moves the mouse, as an event at a point found by hit
#    testing, over chart 0's largest area in its busiest interval: the
#    tooltip shows, and its interval, series, samples and share are the
#    CSV's;
#  - "#overlay=0" hides the inclusive interpreted line;
#  - a screenshot with the tooltip up is written (kept with LIVE_KEEP=1)
#    and is not blank.
# Needs no perf: the recording is built with tests/tools/mkperf and
# mkjitdump into the temp dir. Skips (77) when chromium is not installed.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init tiers-browser
[ "${LIVE_SELF_CHECK:-0}" = 1 ] && live_skip "LIVE_SELF_CHECK=1: nothing to check without jitsym"
live_find_jitsym
# shellcheck source=browser-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/browser-lib.sh"
tools=${abs_top_builddir:-$(dirname "$JITSYM")}/tests/tools
MKPERF=${MKPERF:-$tools/mkperf}
MKJITDUMP=${MKJITDUMP:-$tools/mkjitdump}
if [ ! -x "$MKPERF" ] || [ ! -x "$MKJITDUMP" ]; then
	live_hard_error "no '$MKPERF' or '$MKJITDUMP': make check builds them"
fi

src=$live_top/tests/golden/tiers-synth
[ -f "$src/tiers.spec" ] || live_hard_error "no synthesized recording in $src"
rec=$live_tmp/rec
cp -R "$src" "$rec"
if ! "$MKPERF" "$rec/tiers.spec" "$rec/perf.data" >"$live_tmp/mk.log" 2>&1 ||
	! "$MKJITDUMP" "$rec/jit-100.jdspec" "$rec/jit-100.dump" >>"$live_tmp/mk.log" 2>&1; then
	live_show "$live_tmp/mk.log" >&2
	live_hard_error "cannot build the recording"
fi
svg=$live_tmp/tiers.svg

# tiers FORMAT OUT: jitsym tiers on the recording, 100 ms intervals
tiers() {
	# $JITSYM_WRAPPER is a word list: unquoted on purpose.
	# shellcheck disable=SC2086
	(cd "$rec" && ${JITSYM_WRAPPER:-} "$JITSYM" tiers --kallsyms kallsyms --symfs . \
		--buildid-dir . --perfmap-dir maps --interval 100ms --format "$1" -o "$2" perf.data)
}

# dom URL: the document once its script has run, into $live_tmp/dom
dom() {
	: >"$live_tmp/chromium.log"
	chrome --window-size=1200,900 --dump-dom "$1" >"$live_tmp/dom" ||
		{ live_show "$live_tmp/chromium.log" 20 >&2; live_hard_error "chromium --dump-dom '$1' failed"; }
	if grep -q 'CONSOLE' "$live_tmp/chromium.log"; then
		grep 'CONSOLE' "$live_tmp/chromium.log" | sed -n '1,5s/^/    /p' >&2
		live_fail "console messages opening '$1'"
	fi
}

# status: the text of the status element in $live_tmp/dom
status() {
	sed -n 's/.*<text id="status"[^>]*>\([^<]*\)<.*/\1/p' "$live_tmp/dom"
}

if ! tiers svg "$svg" 2>"$live_tmp/svg.stderr" || ! tiers csv "$live_tmp/t.csv" 2>>"$live_tmp/svg.stderr"; then
	live_show "$live_tmp/svg.stderr" >&2
	live_fail "jitsym tiers failed"
	live_finish
fi
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$svg" 2>"$live_tmp/xmllint.log" ||
		{ live_show "$live_tmp/xmllint.log" >&2; live_fail "the SVG is not well-formed"; }
fi
# (comm may be quoted and hold commas: the other columns counted from the end)
want_charts=$(awk -F, 'NR > 1 { g[$3] = 1 } END { print length(g) }' "$live_tmp/t.csv")
want_areas=$(awk -F, 'NR > 1 { s[$3 "," $(NF - 3) "," $(NF - 2)] = 1 } END { print length(s) }' "$live_tmp/t.csv")
live_say "SVG: $(wc -c <"$svg") bytes; the CSV has $want_charts groups, $want_areas series"

# the script: ran, no errors, read every chart and area
dom "file://$svg"
st=$(status)
live_say "status: $st"
[ "$(field errors "$st")" = 0 ] || live_fail "script errors (status '$st')"
[ "$(field charts "$st")" = "$want_charts" ] || live_fail "charts: status '$st', CSV $want_charts groups"
[ "$(field areas "$st")" = "$want_areas" ] || live_fail "areas: status '$st', CSV $want_areas series"
grep -q '<g id="tip" visibility="hidden"' "$live_tmp/dom" || live_fail "the tooltip shows before any hover"

# hover: the tooltip's lines, then the CSV's numbers for the same cell
dom "file://$svg#hover=0"
st=$(status)
[ "$(field hover "$st")" = area ] || live_fail "hovering chart 0 found no area (status '$st')"
grep -q '<g id="tip" visibility="visible"' "$live_tmp/dom" || live_fail "no tooltip after the hover"
sed -n 's/.*<g id="tip"[^>]*>\(.*\)<\/g>.*/\1/p' "$live_tmp/dom" |
	sed 's/<text[^>]*>/\n/g; s/<[^>]*>//g; s/&amp;/\&/g; s/&#39;/'\''/g' | sed '/^$/d' >"$live_tmp/tip"
live_say "tooltip: $(tr '\n' '|' <"$live_tmp/tip")"
# line 1 "COMM PID: START–END s", 2 "CATEGORY[: RUNTIME TIER]", 3 "N samples: P% of the interval's T"
pid=$(sed -n '1s/.* \([0-9][0-9]*\): .*/\1/p' "$live_tmp/tip")
start=$(sed -n '1s/.*: \([0-9.]*\).* s$/\1/p' "$live_tmp/tip")
series=$(sed -n 2p "$live_tmp/tip")
got=$(sed -n "3s/^\([0-9]*\) samples\{0,1\}: \([0-9.]*\)% of the interval's \([0-9]*\)$/\1 \2 \3/p" "$live_tmp/tip")
want=$(awk -F, -v pid="$pid" -v start="$start" '
	NR > 1 && $3 == pid && $1 + 0 == start + 0 {
		tot += $(NF - 1)
		if ($(NF - 1) > best) { best = $(NF - 1); cat = $(NF - 3); tier = $(NF - 2) }
	}
	END { if (tot) printf "%d %.3f %d\t%s\t%s\n", best, 100 * best / tot, tot, cat, tier }' "$live_tmp/t.csv")
live_say "CSV for pid ${pid:-?} at ${start:-?} s: $(printf '%s' "$want" | tr '\t' '|')"
want_cat=$(printf '%s\n' "$want" | cut -f2)
want_tier=$(printf '%s\n' "$want" | cut -f3)
# samples and interval total equal, shares within rounding
printf '%s\n%s\n' "$got" "$(printf '%s\n' "$want" | cut -f1)" | awk '
	NR == 1 { n = $1; p = $2; t = $3 } NR == 2 { ok = n != "" && n == $1 && t == $3 && p - $2 < 0.06 && $2 - p < 0.06 }
	END { exit !ok }' || live_fail "the tooltip says '$got' for '$series', the CSV '$want'"
# the label: the CSV's category, then the runtime and the CSV's tier
case $series in
"$want_cat") [ -z "$want_tier" ] || live_fail "the tooltip's series '$series' lacks the CSV's tier '$want_tier'" ;;
"$want_cat: "*"$want_tier") [ -n "$want_tier" ] || live_fail "the tooltip's series '$series' has a tier, the CSV none" ;;
*) live_fail "the tooltip's series '$series' is not the CSV's '$want_cat' '$want_tier'" ;;
esac

# the overlay: shown, and hidden by #overlay=0
n_interp=$(grep -c '<path class="interp"' "$svg" || true)
[ "$n_interp" -gt 0 ] || live_fail "no inclusive interpreted line in the SVG"
dom "file://$svg#overlay=0"
[ "$(grep -o '<path class="interp hidden"' "$live_tmp/dom" | wc -l)" = "$n_interp" ] ||
	live_fail "#overlay=0 did not hide the $n_interp overlay lines"
grep -q 'class="warm"' "$svg" || live_fail "no warm-up line (node warms up at 0.9 s)"

# the picture, tooltip up: not blank (many colours, no colour filling it)
height=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$svg")
chrome --screenshot="$live_tmp/tiers.png" --window-size="1200,${height:-900}" "file://$svg#hover=0" \
	>/dev/null || { live_show "$live_tmp/chromium.log" 20 >&2; live_hard_error "chromium --screenshot failed"; }
live_check_screenshot "$live_tmp/tiers.png" 12 80

live_finish
