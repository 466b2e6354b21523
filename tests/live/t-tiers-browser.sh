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
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 || live_skip "no '$CHROMIUM' (Debian package 'chromium')"
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

# chrome ARG...: headless Chromium with a fresh profile, nothing from the network
chrome() {
	chrome_profile=$(mktemp -d "$live_tmp/profile.XXXXXX")
	timeout "${LIVE_CHROMIUM_TIMEOUT:-120}" "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$chrome_profile" \
		--enable-logging=stderr --v=0 --window-size=1200,900 \
		"$@" 2>>"$live_tmp/chromium.log"
}

# dom URL: the document once its script has run, into $live_tmp/dom
dom() {
	: >"$live_tmp/chromium.log"
	chrome --dump-dom "$1" >"$live_tmp/dom" ||
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

# field NAME STATUS: the value of NAME=VALUE in a status text
field() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
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
if [ ! -s "$live_tmp/tiers.png" ]; then
	live_fail "chromium wrote no screenshot"
elif ! "$PERL" -MCompress::Zlib -e 1 2>/dev/null; then
	live_say "no Compress::Zlib: screenshot checked for size only ($(wc -c <"$live_tmp/tiers.png") bytes)"
	[ "$(wc -c <"$live_tmp/tiers.png")" -gt 10000 ] || live_fail "the screenshot is suspiciously small"
else
	# shellcheck disable=SC2016 # a perl program
	png=$("$PERL" -MCompress::Zlib -e '
		local $/; open my $fh, "<:raw", $ARGV[0] or die "$ARGV[0]: $!\n"; my $d = <$fh>;
		substr($d, 0, 8) eq "\x89PNG\r\n\x1a\n" or die "not a PNG\n";
		my ($pos, $w, $h, $bd, $ct, $idat) = (8, 0, 0, 0, 0, "");
		while ($pos + 8 <= length $d) {
			my ($len, $type) = unpack "N a4", substr($d, $pos, 8);
			my $body = substr($d, $pos + 8, $len);
			$pos += 12 + $len;
			($w, $h, $bd, $ct) = unpack "N N C C", $body if $type eq "IHDR";
			$idat .= $body if $type eq "IDAT";
		}
		$bd == 8 && ($ct == 2 || $ct == 6) or die "PNG with bit depth $bd, colour type $ct\n";
		my $bpp = $ct == 6 ? 4 : 3;
		my $raw = uncompress($idat);
		defined $raw or die "bad zlib data\n";
		my $stride = $w * $bpp;
		my @prev = (0) x $stride;
		my %col;
		for my $y (0 .. $h - 1) {
			my $f = ord substr($raw, $y * ($stride + 1), 1);
			my @c = unpack "C*", substr($raw, $y * ($stride + 1) + 1, $stride);
			for my $i (0 .. $#c) {
				my $a = $i >= $bpp ? $c[$i - $bpp] : 0;
				my $b = $prev[$i];
				my $q = $i >= $bpp ? $prev[$i - $bpp] : 0;
				if ($f == 1) { $c[$i] += $a }
				elsif ($f == 2) { $c[$i] += $b }
				elsif ($f == 3) { $c[$i] += int(($a + $b) / 2) }
				elsif ($f == 4) {
					my $p = $a + $b - $q;
					my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $q));
					$c[$i] += $pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $q;
				}
				$c[$i] &= 255;
			}
			@prev = @c;
			for (my $i = 0; $i < @c; $i += $bpp) { $col{"$c[$i],$c[$i+1],$c[$i+2]"}++ }
		}
		my ($top) = sort { $b <=> $a } values %col;
		printf "%dx%d colours=%d commonest=%d%%\n", $w, $h, scalar keys %col, 100 * $top / ($w * $h);
	' "$live_tmp/tiers.png" 2>&1) || { live_fail "cannot read the screenshot: $png"; png=; }
	if [ -n "$png" ]; then
		live_say "screenshot $live_tmp/tiers.png: $png"
		ncol=$(printf '%s\n' "$png" | sed -n 's/.*colours=\([0-9]*\).*/\1/p')
		top=$(printf '%s\n' "$png" | sed -n 's/.*commonest=\([0-9]*\)%.*/\1/p')
		[ "${ncol:-0}" -ge 12 ] || live_fail "the screenshot has ${ncol:-0} colours: blank?"
		[ "${top:-100}" -le 80 ] || live_fail "the screenshot is ${top:-100}% one colour: blank?"
	fi
fi

live_finish
