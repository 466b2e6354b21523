#!/bin/sh
# t-debuginfod.sh: jitsym --debuginfod against Debian's debuginfod server
# (issue 26). A small C program is built with -g; an unstripped copy is
# kept, its debug file made with objcopy --only-keep-debug, and the
# program stripped (its build-id note stays) and recorded. A debuginfod
# server on 127.0.0.1 (a free port, its own database) serves the
# directory holding the debug file alone, and the client's cache is a
# temporary directory. Then:
#   - fold --debuginfod=URL is fold of the unstripped binary (given in a
#     build-id cache), byte for byte, and names the program's functions;
#     without --debuginfod those frames are [unknown];
#   - DEBUGINFOD_URLS set without --debuginfod: one line says so;
#   - sources says the build id was fetched;
#   - with the server stopped and an empty cache, the run ends well
#     within the time limit, with one line about it, its frames
#     [unknown], and sources says it failed: connection refused;
#   - a server that accepts and never answers (python3) is given up at
#     DEBUGINFOD_MAXTIME=1, one line, no negative-cache entry left.
# The server is stopped at the end, whatever happens. Exit 77 when perf
# cannot record, without the debuginfod server (Debian package
# 'debuginfod') or a jitsym built without libdebuginfod.
set -eu
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

live_init debuginfod
live_require_perf
live_find_jitsym
command -v debuginfod >/dev/null 2>&1 ||
	live_skip "no 'debuginfod' server (Debian package 'debuginfod')"
command -v debuginfod-find >/dev/null 2>&1 ||
	live_skip "no 'debuginfod-find' (Debian package 'debuginfod')"
for t in "${CC:-cc}" objcopy readelf; do
	command -v "$t" >/dev/null 2>&1 || live_skip "no '$t'"
done
if "$JITSYM" fold --debuginfod=http://127.0.0.1:9 -i /dev/null 2>&1 |
	grep -q 'built without libdebuginfod'; then
	live_skip "jitsym was built without libdebuginfod (Debian package 'libdebuginfod-dev')"
fi

t=$live_tmp
srv_pid=
hole_pid=
# The servers go with the test, however it ends; live_on_exit after.
# shellcheck disable=SC2317 # called by the trap
dbg_on_exit() {
	for p in $srv_pid $hole_pid; do
		if kill "$p" 2>/dev/null; then
			wait "$p" 2>/dev/null || :
		fi
	done
	live_on_exit "$1"
}
trap 'dbg_on_exit $?' EXIT

# A free port: bound, then let go for the server to take.
free_port() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
	else
		echo $((20000 + $$ % 30000))
	fi
}

# the program: a few named functions, about a second of CPU; -O0, so that
# the leaf has a frame pointer too and its caller is in the call chain;
# -static, so that its debug file is the only one asked for, whichever
# debug packages (libc6-dbg) the host has
mkdir "$t/bin" "$t/srv"
cat >"$t/burn.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void burn_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 2654435761u;
}

__attribute__((noinline)) void burn_alpha(unsigned long n) { burn_leaf(n); sink++; }
__attribute__((noinline)) void burn_beta(unsigned long n) { burn_leaf(n / 2); burn_alpha(n / 2); sink++; }

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		burn_alpha(200000);
		burn_beta(200000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("%lu\n", sink & 1);
	return 0;
}
EOF
prog=$t/bin/burn
# shellcheck disable=SC2086
${CC:-cc} -O0 -g -static -fno-omit-frame-pointer -Wl,--build-id -o "$t/burn.full" "$t/burn.c" \
	>"$t/build.log" 2>&1 || { live_show "$t/build.log" >&2; live_hard_error "cannot build burn.c"; }
objcopy --only-keep-debug "$t/burn.full" "$t/srv/burn.debug"
objcopy --strip-all "$t/burn.full" "$prog"
hex=$(readelf -n "$prog" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$hex" ] || live_hard_error "the stripped program has no build id"
# the unstripped binary in a build-id cache of its own, for the reference fold
full_cache=$t/full-cache
mkdir -p "$full_cache/.build-id/$(echo "$hex" | cut -c1-2)"
cp "$t/burn.full" "$full_cache/.build-id/$(echo "$hex" | cut -c1-2)/$(echo "$hex" | cut -c3-)"

data=$t/perf.data
live_record "$data" "$prog" "${LIVE_SECONDS:-1}"

# the server, over the debug file alone; waited for until it serves it
port=$(free_port)
url=http://127.0.0.1:$port
debuginfod -F -p "$port" -d "$t/srv.sqlite" -t 0 -g 0 "$t/srv" >"$t/srv.log" 2>&1 &
srv_pid=$!
served=false
i=0
while [ $i -lt 100 ]; do
	rm -rf "$t/poll-cache"
	if DEBUGINFOD_CACHE_PATH=$t/poll-cache DEBUGINFOD_URLS=$url \
		debuginfod-find debuginfo "$hex" >/dev/null 2>&1; then
		served=true
		break
	fi
	kill -0 "$srv_pid" 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
$served || { live_show "$t/srv.log" 20 >&2; live_hard_error "debuginfod on port $port did not serve $hex"; }
live_say "debuginfod serves build id $hex at $url (after $i polls)"

# jitsym with an empty build-id cache ($live_buildid_dir) and a cache for the client
js() {
	"$JITSYM" "$@" --buildid-dir "$live_buildid_dir" "$data"
}
DEBUGINFOD_CACHE_PATH=$t/cache1
export DEBUGINFOD_CACHE_PATH

"$JITSYM" fold --buildid-dir "$full_cache" "$data" >"$t/ref.folded" 2>"$t/ref.stderr"
for f in main burn_alpha burn_beta burn_leaf; do
	grep -q ";${f}[; ]" "$t/ref.folded" ||
		live_hard_error "fold of the unstripped binary does not name '$f' (a recording problem)"
done

js fold >"$t/plain.folded" 2>"$t/plain.stderr"
if grep -q ';burn_\|;main[; ]' "$t/plain.folded" || ! grep -q 'burn;.*\[unknown\]' "$t/plain.folded"; then
	live_show "$t/plain.folded" >&2
	live_fail "without --debuginfod the stripped program's frames are not [unknown]"
else
	live_say "without --debuginfod: the program's frames are [unknown]"
fi

js fold --debuginfod="$url" >"$t/dbg.folded" 2>"$t/dbg.stderr"
if cmp -s "$t/ref.folded" "$t/dbg.folded"; then
	live_say "fold --debuginfod: the same as fold of the unstripped binary ($(wc -l <"$t/dbg.folded") stacks)"
else
	diff "$t/ref.folded" "$t/dbg.folded" | sed -n '1,20s/^/    /p' >&2
	live_show "$t/dbg.stderr" >&2
	live_fail "fold --debuginfod differs from fold of the unstripped binary"
fi
if grep -q debuginfod "$t/dbg.stderr"; then
	live_show "$t/dbg.stderr" >&2
	live_fail "fold --debuginfod that fetched said something about it"
fi

DEBUGINFOD_URLS=$url js fold >/dev/null 2>"$t/hint.stderr"
if [ "$(grep -c 'debuginfod' "$t/hint.stderr")" = 1 ] &&
   grep -q "burn' (build id $hex).*--debuginfod" "$t/hint.stderr"; then
	live_say "DEBUGINFOD_URLS without --debuginfod: $(grep debuginfod "$t/hint.stderr")"
else
	live_show "$t/hint.stderr" >&2
	live_fail "DEBUGINFOD_URLS without --debuginfod: not one line saying it was not used"
fi

# a cache of its own: from the server, not the cache fold filled
DEBUGINFOD_CACHE_PATH=$t/cache1s js sources --debuginfod="$url" >"$t/sources.txt" \
	2>"$t/sources.stderr"
if grep -q "^  fetched   $hex '$prog': from $url/buildid/$hex/debuginfo, [1-9][0-9]* bytes, in $t/cache1s/$hex/debuginfo\$" \
	"$t/sources.txt"; then
	live_say "sources: $(grep "^  fetched" "$t/sources.txt")"
else
	live_show "$t/sources.txt" 30 >&2
	live_fail "sources does not say the debug file of '$prog' was fetched"
fi

# a bundle of the run that fetched: read with no server and an empty cache
DEBUGINFOD_CACHE_PATH=$t/cache1b js archive --debuginfod="$url" -o "$t/rec.jsar" 2>"$t/archive.stderr" ||
	live_fail "archive --debuginfod failed: $(cat "$t/archive.stderr")"

# the server stopped: one connection refused, then no more requests
kill "$srv_pid"
wait "$srv_pid" 2>/dev/null || :
srv_pid=
DEBUGINFOD_CACHE_PATH=$t/cache2
start=$(date +%s%N)
js fold --debuginfod="$url" >"$t/down.folded" 2>"$t/down.stderr"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
# the budget is 30 s; a refused connection must not come near it
if [ "$ms" -lt 10000 ]; then
	live_say "server stopped: fold ended in $ms ms"
else
	live_fail "server stopped: fold took $ms ms (the limit is 30 s)"
fi
if [ "$(grep -c 'debuginfod' "$t/down.stderr")" = 1 ] &&
   grep -q "debuginfod: cannot get debug files from '$url' (connection refused)" "$t/down.stderr"; then
	live_say "server stopped: $(grep debuginfod "$t/down.stderr")"
else
	live_show "$t/down.stderr" >&2
	live_fail "server stopped: not one line saying debuginfod could not be reached"
fi
cmp -s "$t/plain.folded" "$t/down.folded" ||
	live_fail "server stopped: fold differs from fold without --debuginfod"
DEBUGINFOD_CACHE_PATH=$t/cache3
js sources --debuginfod="$url" >"$t/down-sources.txt" 2>/dev/null
if grep -q "^  failed    $hex '$prog': connection refused\$" "$t/down-sources.txt" &&
   grep -q "^debuginfod '$url': 1 debug file asked for: 0 fetched, 0 not found, 1 failed\$" \
	"$t/down-sources.txt"; then
	live_say "server stopped: sources: $(grep '^  failed' "$t/down-sources.txt")"
else
	live_show "$t/down-sources.txt" 30 >&2
	live_fail "server stopped: sources does not say the request failed, connection refused"
fi

DEBUGINFOD_CACHE_PATH=$t/cache-bundle
if "$JITSYM" fold "$t/rec.jsar" >"$t/bundle.folded" 2>"$t/bundle.stderr" &&
   cmp -s "$t/ref.folded" "$t/bundle.folded" && [ ! -e "$t/cache-bundle/$hex" ]; then
	live_say "the bundle of a run that fetched, read without the server: the same fold"
else
	diff "$t/ref.folded" "$t/bundle.folded" | sed -n '1,10s/^/    /p' >&2
	live_show "$t/bundle.stderr" >&2
	live_fail "the bundle of a run that fetched does not fold as that run did"
fi

# a server that takes connections and never answers: the time limit ends it
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1]); sys.stdout.flush()
held = []
while True:
	held.append(s.accept()[0])
' >"$t/hole.port" &
	hole_pid=$!
	i=0
	while [ ! -s "$t/hole.port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	hole=http://127.0.0.1:$(cat "$t/hole.port")
	DEBUGINFOD_CACHE_PATH=$t/cache4
	start=$(date +%s%N)
	DEBUGINFOD_MAXTIME=1 js sources --debuginfod="$hole" >"$t/hole.txt" 2>"$t/hole.stderr"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	if [ "$ms" -lt 10000 ] && [ "$(grep -c 'debuginfod' "$t/hole.stderr")" = 1 ] &&
	   grep -q 'time limit of 1 s (DEBUGINFOD_MAXTIME) is spent' "$t/hole.stderr" &&
	   grep -q "^  failed    $hex '$prog': time limit spent\$" "$t/hole.txt"; then
		live_say "server silent, DEBUGINFOD_MAXTIME=1: given up in $ms ms"
	else
		live_show "$t/hole.stderr" >&2
		live_show "$t/hole.txt" 30 >&2
		live_fail "server silent, DEBUGINFOD_MAXTIME=1: not given up within the limit ($ms ms) with one line"
	fi
	# libdebuginfod records a cancelled download as a 404; jitsym removes that
	if [ -n "$(find "$t/cache4" -type f -name debuginfo 2>/dev/null)" ]; then
		live_fail "server silent: a negative-cache entry was left for $hex"
	fi
else
	live_say "no python3: the silent-server case is not run"
fi

live_finish
