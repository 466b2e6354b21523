# tests/tap.sh: what the shell tests of tests/cli and tests/limits start
# with, sourced after "set -u": the build's settings (setup.sh), a
# temporary directory $tmp removed at exit, and TAP-style ok/bad that set
# $fail.
. "$(dirname "$0")/../setup.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $1"; }
bad() { echo "not ok - $1"; fail=1; }
