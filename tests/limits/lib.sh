# tests/limits/lib.sh: what every tests/limits script starts with, sourced
# after "set -u": tests/tap.sh ($tmp, ok, bad, $fail and the build's
# settings).
. "$(dirname "$0")/../tap.sh"
