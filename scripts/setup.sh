#!/bin/sh
# Install what jitsym needs to build and test on Debian 12 / Ubuntu.
#
# Idempotent: each step checks first and does nothing when its result is
# already there, so a second run on a set-up machine takes seconds.
#
# libperf (the kernel's tools/lib/perf) is not packaged by Debian, so it is
# built from Debian's linux-source-6.1 package: the .deb is fetched with
# "apt-get download", only tools/ and the uapi headers it needs are
# extracted, and the library, headers and pkg-config file are installed
# under $JITSYM_PREFIX (default /usr/local), where pkg-config and the
# dynamic linker find them without environment variables.
set -eu

PREFIX=${JITSYM_PREFIX:-/usr/local}
CACHE=${JITSYM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/jitsym}
KSRC_PKG=linux-source-6.1

PACKAGES="build-essential autoconf automake libtool pkg-config make gcc clang
 flex bison xz-utils
 libtraceevent-dev libzstd-dev uthash-dev libelf-dev libdw-dev libiberty-dev
 libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libdeflate-dev libdebuginfod-dev
 linux-perf elfutils binutils perl python3 golang-go
 libclang-rt-14-dev"

# Only tests use these, and they skip without them: chromium for the flame
# graph and tiers browser tests, libxml2-utils (xmllint) for the SVG golden checks,
# erlang-base (erl, erlc: ~10 MB) for the Erlang JIT live test, man-db (man -l)
# for the man page test, php8.2-cli and php8.2-opcache (its JIT: tracing,
# with a perf map) for the PHP tiers live test (t-tiers-php.sh), debuginfod
# (the server) for the --debuginfod live test (t-debuginfod.sh).
OPTIONAL_PACKAGES="chromium libxml2-utils erlang-base man-db php8.2-cli php8.2-opcache debuginfod"

say() { printf 'setup: %s\n' "$*" >&2; }

if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi

missing_packages() { # package...
	for p in "$@"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || printf '%s ' "$p"
	done
}

install_packages() {
	# shellcheck disable=SC2086
	missing=$(missing_packages $PACKAGES)
	[ -n "$missing" ] || return 0
	say "installing: $missing"
	$SUDO apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
}

# A package that cannot be installed (Ubuntu has no chromium deb) is noted
# in $CACHE and not tried again, so that a second run stays fast.
install_optional_packages() {
	unavailable=$CACHE/optional-packages-unavailable
	updated=false
	# shellcheck disable=SC2086
	for p in $(missing_packages $OPTIONAL_PACKAGES); do
		grep -qx "$p" "$unavailable" 2>/dev/null && continue
		$updated || { $SUDO apt-get update -q >/dev/null 2>&1 || true; updated=true; }
		say "installing $p (optional: for tests)"
		if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
			--no-install-recommends "$p" >/dev/null 2>&1; then
			say "cannot install '$p': the tests that need it skip (remove $unavailable to try again)"
			mkdir -p "$CACHE"
			echo "$p" >>"$unavailable"
		fi
	done
}

install_libperf() {
	if pkg-config --exists libperf && [ -f "$(pkg-config --variable=includedir libperf)/perf/event.h" ]; then
		return 0
	fi
	say "building libperf from $KSRC_PKG"
	mkdir -p "$CACHE"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	deb=$(ls "$CACHE"/${KSRC_PKG}_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		(cd "$CACHE" && apt-get download -q "$KSRC_PKG" >/dev/null 2>&1) ||
			{ $SUDO apt-get update -q >/dev/null && (cd "$CACHE" && apt-get download -q "$KSRC_PKG" >/dev/null 2>&1); }
		deb=$(ls "$CACHE"/${KSRC_PKG}_*.deb | head -n 1)
	fi
	top=$KSRC_PKG
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$KSRC_PKG.tar.xz" | xz -dc |
		tar -x -C "$work" --wildcards "$top/tools/*" "$top/include/uapi/*" \
			"$top/arch/x86/include/uapi/*" "$top/scripts/*" "$top/Makefile"
	make -s -C "$work/$top/tools/lib/perf" prefix="$PREFIX" libdir_relative=lib \
		install_lib install_headers install_pkgconfig >/dev/null
	$SUDO ldconfig
	rm -rf "$work"
	trap - EXIT
}

install_packages
install_optional_packages
install_libperf
say "ok"
