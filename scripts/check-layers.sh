#!/bin/sh
# The stages of src/ as a check (ARCHITECTURE.md, "The tree"): a file of a
# stage's folder includes headers of its own stage and of the stages below
# it, never above; and the writers (src/output/) include only the sample and
# frame types, source lines by frame, the aggregators and common code, never
# the session or what the resolver resolves from.
#
#   scripts/check-layers.sh [SRCDIR]     (SRCDIR defaults to this tree's src)
#
# Prints one line per offending include, "file:line: includes H (stage S
# above stage T)", and exits 1 when there is any; 0 and a count otherwise.
set -u
src=${1:-$(dirname "$0")/../src}

# lowest first; a stage may include the ones before it
stages="common reader timeline resolve unwind session aggregate output command"
# what src/output/ may include besides common/, aggregate/ and output/
output_allows="resolve/sample.h resolve/srcline.h"

level() {
	n=0
	for s in $stages; do
		[ "$s" = "$1" ] && { echo "$n"; return; }
		n=$((n + 1))
	done
	echo -1
}

bad=0
files=0
for dir in "$src"/*/; do
	stage=$(basename "$dir")
	own=$(level "$stage")
	if [ "$own" -lt 0 ]; then
		echo "$dir: a folder that is no stage (known: $stages)"
		bad=$((bad + 1))
		continue
	fi
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] || continue
		files=$((files + 1))
		rel=${f#"$src"/}
		out=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z]*/' "$f" |
			sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/')
		[ -n "$out" ] || continue
		while read -r line hdr; do
			to=${hdr%%/*}
			lv=$(level "$to")
			if [ "$lv" -lt 0 ]; then
				echo "src/$rel:$line: includes $hdr, of no stage"
				bad=$((bad + 1))
			elif [ "$lv" -gt "$own" ]; then
				echo "src/$rel:$line: includes $hdr (stage $to above stage $stage)"
				bad=$((bad + 1))
			elif [ "$stage" = output ]; then
				case " common aggregate output " in *" $to "*) continue ;; esac
				case " $output_allows " in *" $hdr "*) continue ;; esac
				echo "src/$rel:$line: includes $hdr (a writer reads the sample, its frames and the aggregators only)"
				bad=$((bad + 1))
			fi
		done <<EOT
$out
EOT
	done
done
# a header included by a bare name would escape the check
loose=$(grep -rn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^/"]*\.h"' "$src" |
	grep -v '"config\.h"\|"profile\.pb-c\.h"')
if [ -n "$loose" ]; then
	echo "$loose" | sed 's/$/   (name the stage: "stage\/file.h")/'
	bad=$((bad + $(echo "$loose" | wc -l)))
fi
if [ "$bad" -gt 0 ]; then
	echo "layers: $bad includes break the stage order ($files files)"
	exit 1
fi
echo "layers: $files files follow the stage order"
