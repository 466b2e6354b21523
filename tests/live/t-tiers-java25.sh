#!/bin/sh
# t-tiers-java25.sh: t-tiers-java.sh again on JDK 25, whose HotSpot names
# its code and writes its perf map as JDK 17's does today; this keeps
# that so. The JDK is $JDK25_HOME, else the first /usr/lib/jvm/*25* that
# has java and javac. Skips (77) without one.
set -eu
home=${JDK25_HOME:-}
if [ -z "$home" ]; then
	for d in /usr/lib/jvm/*25*; do
		if [ -x "$d/bin/java" ] && [ -x "$d/bin/javac" ]; then
			home=$d
			break
		fi
	done
fi
if [ -z "$home" ]; then
	echo "SKIP: tiers-java25: no JDK 25 (set JDK25_HOME, or install one under /usr/lib/jvm)"
	exit 77
fi
JAVA=$home/bin/java JAVAC=$home/bin/javac TIERS_JAVA_NAME=tiers-java25 \
	exec sh "$(dirname "$0")/t-tiers-java.sh"
