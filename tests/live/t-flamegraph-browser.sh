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
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 || live_skip "no '$CHROMIUM' (Debian package 'chromium')"

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

# chrome ARG...: headless Chromium with a fresh profile, nothing from the network
chrome() {
	chrome_profile=$(mktemp -d "$live_tmp/profile.XXXXXX")
	timeout "${LIVE_CHROMIUM_TIMEOUT:-120}" "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$chrome_profile" \
		"$@" 2>>"$live_tmp/chromium.log"
}

# status URL: the text of the SVG's status element once its script has run
status() {
	chrome --dump-dom "$1" >"$live_tmp/dom" ||
		{ live_show "$live_tmp/chromium.log" 20 >&2; live_hard_error "chromium --dump-dom '$1' failed"; }
	sed -n 's/.*<text id="status"[^>]*>\([^<]*\)<.*/\1/p' "$live_tmp/dom"
}

# field NAME STATUS: the value of NAME=VALUE in a status text
field() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
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
if [ ! -s "$live_tmp/fg.png" ]; then
	live_fail "chromium wrote no screenshot"
elif ! "$PERL" -MCompress::Zlib -e 1 2>/dev/null; then
	live_say "no Compress::Zlib in $PERL: screenshot checked for size only ($(wc -c <"$live_tmp/fg.png") bytes)"
	[ "$(wc -c <"$live_tmp/fg.png")" -gt 10000 ] || live_fail "the screenshot is suspiciously small"
else
	# colours: how many distinct ones, and the share of the commonest (the background)
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
		printf "%dx%d colours=%d background=%d%%\n", $w, $h, scalar keys %col, 100 * $top / ($w * $h);
	' "$live_tmp/fg.png" 2>&1) || { live_fail "cannot read the screenshot: $png"; png=; }
	if [ -n "$png" ]; then
		live_say "screenshot: $png"
		ncol=$(printf '%s\n' "$png" | sed -n 's/.*colours=\([0-9]*\).*/\1/p')
		bg=$(printf '%s\n' "$png" | sed -n 's/.*background=\([0-9]*\)%.*/\1/p')
		[ "${ncol:-0}" -ge 8 ] || live_fail "the screenshot has ${ncol:-0} colours: blank?"
		[ "${bg:-100}" -le 90 ] || live_fail "the screenshot is ${bg:-100}% one colour: blank?"
	fi
fi

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
