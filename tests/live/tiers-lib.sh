# tests/live/tiers-lib.sh: checks of "jitsym tiers" shared by the live
# tests t-tiers-*.sh; sourced after lib.sh (live_init done). POSIX sh.
#
#   tiers_main_pid DATA         the recorded command's pid
#   tiers_run DATA PID          CSV and JSON of the recording, the interval
#                               totals checked against perf's own samples
#   tiers_share FROM TO CAT     share (percent, 1 decimal) of category CAT
#                               in intervals [FROM, TO) of PID's group
#   tiers_tenths CAT            tiers_first, tiers_last: CAT's share in the
#                               first and the last tenth of the intervals
#   tiers_seen TIER             0 if a series of TIER has samples
#   tiers_expect_warm           a warm-up point, and a plausible one
#   tiers_innermost             PID's interpreted innermost share (percent)
#
# Sets tiers_csv, tiers_json, tiers_n (intervals), tiers_warm (warm-up point
# in seconds, or null).

# tiers_main_pid DATA: the pid with the most samples (the recorded
# command's), from perf script, not from whichever perf map is newest in
# /tmp (another program may write one at the same time)
tiers_main_pid() {
	"$PERF" script -i "$1" -F pid 2>/dev/null |
		awk '{ n[$1]++ } END { for (p in n) if (n[p] > m) { m = n[p]; b = p }; print b }'
}

# tiers_run DATA PID
tiers_run() {
	tiers_data=$1
	tiers_pid=$2
	tiers_csv=$live_tmp/tiers.csv
	tiers_json=$live_tmp/tiers.json
	live_jitsym tiers --format csv "$tiers_data" >"$tiers_csv" 2>"$tiers_csv.stderr" ||
		{ live_show "$tiers_csv.stderr" >&2; live_hard_error "jitsym tiers --format csv failed"; }
	live_jitsym tiers --format json "$tiers_data" >"$tiers_json" 2>"$tiers_json.stderr" ||
		{ live_show "$tiers_json.stderr" >&2; live_hard_error "jitsym tiers --format json failed"; }
	live_jitsym tiers "$tiers_data" >"$live_tmp/tiers.table" 2>/dev/null ||
		live_fail "jitsym tiers (table) failed"
	live_show "$live_tmp/tiers.table" 20
	[ "$(head -n 1 "$tiers_csv")" = start_s,end_s,pid,tid,comm,category,tier,samples,weight ] ||
		live_fail "unexpected CSV header: $(head -n 1 "$tiers_csv")"
	tiers_t0=$(sed -n 's/^{"t0":\([0-9]*\),.*/\1/p' "$tiers_json")
	tiers_iv=$(sed -n 's/^.*"interval_s":\([0-9.]*\),.*/\1/p' "$tiers_json" | head -n 1)
	tiers_n=$(sed -n 's/^.*"nr_intervals":\([0-9]*\),.*/\1/p' "$tiers_json" | head -n 1)
	[ -n "$tiers_t0" ] && [ -n "$tiers_iv" ] && [ -n "$tiers_n" ] ||
		live_hard_error "no t0/interval_s/nr_intervals in $tiers_json"
	tiers_warm=$(grep "\"pid\":$tiers_pid," "$tiers_json" |
		sed -n 's/.*"warm_after_s":\([0-9.a-z]*\).*/\1/p' | head -n 1)
	live_say "tiers: $tiers_n intervals of $tiers_iv s; warm after: ${tiers_warm:-?} s"
	tiers_check_totals
}

# Interval totals: per interval, the samples of all series of the CSV (all
# groups) against perf script's samples bucketed the same way (t0 and the
# interval from the JSON, times in ns): equal in every interval means no
# sample is lost or counted twice, so the shares add up to 100%. And the
# CSV's grand total against jitsym fold's and perf record's.
tiers_check_totals() {
	"$PERF" --buildid-dir "$live_buildid_dir" script -i "$tiers_data" -F time --ns \
		>"$live_tmp/times.txt" 2>/dev/null ||
		live_hard_error "perf script -F time --ns failed"
	# the interval in whole ns, as jitsym has it: rounding the divisor
	# instead (iv * 1e9 + 0.5) put a sample within k/2 ns after the start of
	# interval k into the one before
	awk -F, -v t0="$tiers_t0" -v iv="$tiers_iv" -v n="$tiers_n" '
		BEGIN { ivns = int(iv * 1000000000 + 0.5) }
		FNR == NR { t = $0; gsub(/[ :]/, "", t); split(t, p, ".")
			ns = p[1] * 1000000000 + p[2] - t0
			perf[int(ns / ivns)]++; next }
		FNR > 1 { csv[int($1 / iv + 0.5)] += $8; total += $8 }
		END {
			bad = 0
			for (i = 0; i < n; i++)
				if (csv[i] + 0 != perf[i] + 0) {
					if (bad++ < 5) printf "interval %d: csv %d, perf %d\n", i, csv[i], perf[i]
				}
			for (i in perf) if (i + 0 < 0 || i + 0 >= n) { bad++; printf "perf samples in interval %d of %d\n", i, n }
			printf "%d %d\n", bad, total
		}' "$live_tmp/times.txt" "$tiers_csv" >"$live_tmp/totals.txt"
	tiers_bad=$(tail -n 1 "$live_tmp/totals.txt" | cut -d' ' -f1)
	tiers_total=$(tail -n 1 "$live_tmp/totals.txt" | cut -d' ' -f2)
	if [ "$tiers_bad" -eq 0 ]; then
		live_say "interval totals: all $tiers_n equal to perf script's, $tiers_total samples"
	else
		live_show "$live_tmp/totals.txt" >&2
		live_fail "$tiers_bad interval totals differ from perf script's"
	fi
	tiers_fold=$(live_jitsym fold "$tiers_data" 2>/dev/null | awk '{ n += $NF } END { print n + 0 }')
	[ "$tiers_fold" -eq "$tiers_total" ] ||
		live_fail "CSV total $tiers_total samples, jitsym fold $tiers_fold"
	[ "$live_samples" -eq "$tiers_total" ] ||
		live_fail "CSV total $tiers_total samples, perf record $live_samples"
	live_say "totals: CSV $tiers_total, jitsym fold $tiers_fold, perf record $live_samples samples"
}

# tiers_share FROM TO CATEGORY: percent of PID's samples in intervals
# [FROM, TO) whose category is CATEGORY; "-" when there are none.
tiers_share() {
	awk -F, -v pid="$tiers_pid" -v iv="$tiers_iv" -v from="$1" -v to="$2" -v cat="$3" '
		FNR > 1 && $3 == pid { i = int($1 / iv + 0.5)
			if (i >= from && i < to) { all += $8; if ($6 == cat) n += $8 } }
		END { if (all) printf "%.1f\n", 100 * n / all; else print "-" }' "$tiers_csv"
}

# tiers_tenths CATEGORY: tiers_first, tiers_last.
tiers_tenths() {
	tiers_k=$((tiers_n / 10))
	[ "$tiers_k" -gt 0 ] || tiers_k=1
	tiers_first=$(tiers_share 0 "$tiers_k" "$1")
	tiers_last=$(tiers_share $((tiers_n - tiers_k)) "$tiers_n" "$1")
	live_say "$1 share: first tenth (intervals 0-$((tiers_k - 1))) $tiers_first%," \
		"last tenth ($((tiers_n - tiers_k))-$((tiers_n - 1))) $tiers_last%"
}

# tiers_expect_falling CATEGORY: its share in the first tenth above the last.
tiers_expect_falling() {
	tiers_tenths "$1"
	if [ "$tiers_first" = - ] || [ "$tiers_last" = - ]; then
		live_fail "no samples in the first or the last tenth"
	elif ! awk -v a="$tiers_first" -v b="$tiers_last" 'BEGIN { exit !(a > b) }'; then
		live_fail "$1 share does not fall: first tenth $tiers_first%, last tenth $tiers_last%"
	fi
}

# tiers_seen TIER: PID has samples in a series of TIER.
tiers_seen() {
	awk -F, -v pid="$tiers_pid" -v tier="$1" '
		FNR > 1 && $3 == pid && $7 == tier { n += $8 } END { exit !(n > 0) }' "$tiers_csv"
}

# tiers_series: "category/tier samples" of PID, for the log.
tiers_series() {
	awk -F, -v pid="$tiers_pid" '
		FNR > 1 && $3 == pid { k = $6 "/" ($7 == "" ? "-" : $7); n[k] += $8 }
		END { for (k in n) printf "%s %d; ", k, n[k]; print "" }' "$tiers_csv"
}

# tiers_expect_warm: after tiers_tenths interpreted (tiers_first and
# tiers_last set), the run of a warming workload has a warm-up point, and
# a plausible one: not at 0 when the first tenth was 5% or more interpreted
# (the run started in the interpreter), and no later than the start of the
# last tenth when that ran below 5% interpreted (it ran warm).
tiers_expect_warm() {
	if [ -z "$tiers_warm" ] || [ "$tiers_warm" = null ]; then
		live_fail "no warm-up point (warm_after_s null)"
		return
	fi
	awk -v w="$tiers_warm" -v f="$tiers_first" -v l="$tiers_last" -v iv="$tiers_iv" \
		-v n="$tiers_n" -v k="$tiers_k" 'BEGIN {
		if (f != "-" && f + 0 >= 5 && w + 0 <= 0) { print "warm at 0 s, but the first tenth is " f "% interpreted"; exit 1 }
		if (l != "-" && l + 0 < 5 && w + 0 > (n - k) * iv + 1e-9) { print "warm after " w " s, later than the last tenth (from " (n - k) * iv " s), which is " l "% interpreted"; exit 1 }
	}' >"$live_tmp/warm.txt" || live_fail "implausible warm-up point: $(cat "$live_tmp/warm.txt")"
}

# tiers_innermost: PID's interpreted innermost share of the whole run, in
# percent (1 decimal), from the JSON's "inclusive_interpreted".
tiers_innermost() {
	grep "\"pid\":$tiers_pid," -A 100 "$tiers_json" | tr -d '\n' |
		sed -n 's/^.*"total":{"samples":\([0-9]*\),.*"inclusive_interpreted":{"total_samples":\([0-9]*\),.*$/\1 \2/p' |
		awk '{ if ($1) printf "%.1f\n", 100 * $2 / $1; else print "-" }'
}
