# browser-lib.sh: headless Chromium for the live tests that open an SVG
# (t-flamegraph-browser.sh, t-tiers-browser.sh); sourced after lib.sh.
# Skips the test when there is no Chromium ($CHROMIUM, default chromium).

CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 || live_skip "no '$CHROMIUM' (Debian package 'chromium')"

# chrome ARG...: headless Chromium with a fresh profile, nothing from the
# network; its log (console messages included) goes to $live_tmp/chromium.log
chrome() {
	chrome_profile=$(mktemp -d "$live_tmp/profile.XXXXXX")
	timeout "${LIVE_CHROMIUM_TIMEOUT:-120}" "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$chrome_profile" \
		--enable-logging=stderr --v=0 "$@" 2>>"$live_tmp/chromium.log"
}

# field NAME STATUS: the value of NAME=VALUE in a status text
field() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# live_check_screenshot PNG MIN_COLOURS MAX_COMMONEST_PCT: fail when
# Chromium wrote no picture or a blank-looking one (too few colours, or one
# colour filling too much of it)
live_check_screenshot() {
	if [ ! -s "$1" ]; then
		live_fail "chromium wrote no screenshot"
	elif ! "$PERL" -MCompress::Zlib -e 1 2>/dev/null; then
		live_say "no Compress::Zlib in $PERL: screenshot checked for size only ($(wc -c <"$1") bytes)"
		[ "$(wc -c <"$1")" -gt 10000 ] || live_fail "the screenshot is suspiciously small"
	elif ! png=$("$PERL" "$live_top/tests/live/png-colours.pl" "$1" 2>&1); then
		live_fail "cannot read the screenshot: $png"
	else
		live_say "screenshot $1: $png"
		ncol=$(printf '%s\n' "$png" | sed -n 's/.*colours=\([0-9]*\).*/\1/p')
		top=$(printf '%s\n' "$png" | sed -n 's/.*commonest=\([0-9]*\)%.*/\1/p')
		[ "${ncol:-0}" -ge "$2" ] || live_fail "the screenshot has ${ncol:-0} colours: blank?"
		[ "${top:-100}" -le "$3" ] || live_fail "the screenshot is ${top:-100}% one colour: blank?"
	fi
}

# live_png_matching PNG COLOUR...: print the number of pixels of PNG of
# exactly those colours (#rrggbb); false (after live_say) where Perl cannot
# read PNGs, so the caller checks nothing
live_png_matching() {
	lpm_png=$1
	shift
	if ! "$PERL" -MCompress::Zlib -e 1 2>/dev/null; then
		live_say "no Compress::Zlib in $PERL: the colours of $lpm_png not counted" >&2
		return 1
	fi
	lpm_out=$("$PERL" "$live_top/tests/live/png-colours.pl" "$lpm_png" "$@" 2>&1) ||
		{ live_fail "cannot read the screenshot: $lpm_out"; return 1; }
	printf '%s\n' "$lpm_out" | sed -n 's/.* matching=\([0-9]*\).*/\1/p'
}

# live_no_console WHAT: fail when Chromium's log since it was last emptied
# holds a console message (a script error, a warning)
live_no_console() {
	if grep -q 'CONSOLE' "$live_tmp/chromium.log"; then
		grep 'CONSOLE' "$live_tmp/chromium.log" | sed -n '1,5s/^/    /p' >&2
		live_fail "console messages opening $1"
	fi
}
