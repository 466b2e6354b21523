#!/bin/sh
# The SVG pages' scripts and style sheets (src/output/web/): every .js file
# is JavaScript as `node --check` reads it, and the pages jitsym writes
# (flamegraph, tiers --format svg) carry each file byte for byte, the
# error counter (errors.js) with its "$p" and "$items" filled in. Without
# node (NODE names it, "node" by default) the copies are still compared,
# then the test reports a skip.
set -u
# shellcheck source=../tap.sh
. "$(dirname "$0")/../tap.sh"

NODE=${NODE:-node}
web=$abs_top_srcdir/src/output/web
cat >"$tmp/t.spec" <<'SPEC'
feature hostname webhost
feature osrelease 6.1.0-test
feature arch x86_64
feature nrcpus 1 1
attr name=cpu-clock type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD,CPU sample_period=10000 sample_id_all=1 disabled=1 inherit=1 mmap=1 comm=1 task=1 mmap2=1 comm_exec=1 use_clockid=1 clockid=1
comm pid=100 tid=100 comm=app exec=1 time=1000 cpu=0
sample pid=100 tid=100 time=2000 cpu=0 period=10000 ip=0x401000 callchain=user:0x401000,0x402000
sample pid=100 tid=100 time=3000 cpu=0 period=10000 ip=0x401000 callchain=user:0x401000
SPEC
: >"$tmp/kallsyms"
"$MKPERF" "$tmp/t.spec" "$tmp/t.data" || { echo "mkperf failed"; exit 99; }

# the lines of $1 between the line matching $2 and the next "]]></..." line
between() {
	awk -v start="$2" 'on && /^\]\]><\// { exit } on { print } $0 ~ start { on = 1 }' "$1"
}
# $1 (a page) holds file $3 between the line matching $2 and its end
same() {
	if between "$1" "$2" | cmp -s - "$3"; then
		ok "$(basename "$1") carries $(basename "$3")"
	else
		bad "$(basename "$1") does not carry $(basename "$3") as it is"
		between "$1" "$2" | diff "$3" - | head -5
	fi
}
# errors.js as page $1 carries it, for prefix $2 and items $3
same_errors() {
	sed "s/\\\$items/$3/g; s/\\\$p/$2/g" "$web/errors.js" >"$tmp/errors-$2.js"
	same "$1" '^<script><!\[CDATA\[$' "$tmp/errors-$2.js"
}

if "$JITSYM" flamegraph --kallsyms "$tmp/kallsyms" -o "$tmp/fg.svg" "$tmp/t.data" 2>"$tmp/err"; then
	same "$tmp/fg.svg" '^<style><!\[CDATA\[$' "$web/flamegraph.css"
	same "$tmp/fg.svg" '^var fg = \{' "$web/flamegraph.js"
	same_errors "$tmp/fg.svg" fg frames
else
	bad "jitsym flamegraph failed: $(cat "$tmp/err")"
fi
if "$JITSYM" tiers --kallsyms "$tmp/kallsyms" --format svg -o "$tmp/tiers.svg" "$tmp/t.data" \
		2>"$tmp/err"; then
	same "$tmp/tiers.svg" '^<style><!\[CDATA\[$' "$web/tiers.css"
	same "$tmp/tiers.svg" '^var ts = \{' "$web/tiers.js"
	same_errors "$tmp/tiers.svg" ts charts
else
	bad "jitsym tiers failed: $(cat "$tmp/err")"
fi

if ! command -v "$NODE" >/dev/null 2>&1; then
	[ "$fail" = 0 ] || exit 1
	echo "skip: node is not installed, the scripts' syntax is not checked"
	exit 77
fi
for f in "$web"/*.js; do
	if "$NODE" --check "$f" 2>"$tmp/err"; then
		ok "node --check $(basename "$f")"
	else
		bad "node --check $(basename "$f"): $(head -5 "$tmp/err")"
	fi
done
exit "$fail"
