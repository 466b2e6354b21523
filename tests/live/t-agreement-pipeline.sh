#!/bin/sh
# t-agreement-pipeline.sh: record a shell pipeline (many short processes,
# fork without exec, exec, threads in sort, stripped system binaries) and
# check that "jitsym fold" and "jitsym script" agree with perf's own
# symbolisation. See lib.sh for the environment it reads; exit 77 when perf
# cannot record.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init agreement-pipeline
live_require_perf
live_find_jitsym

for tool in sh seq awk sort uniq head tail gzip md5sum; do
	command -v "$tool" >/dev/null 2>&1 || live_skip "no '$tool' for the pipeline"
done

# Deterministic data through several processes; the first sort gets a
# buffer big enough to sort in two threads; the ( ) subshells fork copies
# of sh that then fork and exec again.
cat >"$live_tmp/pipeline.sh" <<'PIPELINE'
seq 1 400000 | awk '{ print ($1 * 7919) % 100003 }' |
	sort -S 64M --parallel=2 -n | uniq -c | sort -k1,1nr -k2,2n | head -n 3
for i in 1 2 3; do
	( seq 1 150000 | sort -rn | tail -n 1 )
done
seq 1 300000 | gzip -1 | gzip -dc | md5sum
PIPELINE

data=$live_tmp/perf.data
live_record "$data" sh "$live_tmp/pipeline.sh"
live_compare_all "$data"
live_finish
