#!/usr/bin/env bash
# vector-layout-bench.sh [ROWS] [RUNS]: the engine's column vectors (plain Java arrays) against
# Apache Arrow's, on what a scan does most (decode a chunk, filter, sum); prints one JSON line with
# Arrow's default bounds checks and one with arrow.enable_unsafe_memory_access=true.
# Fetches Arrow (the version pinned as arrow.version in the parent pom) from Maven Central into
# ~/.cache/ooo-bench/arrow-<version> on first use.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
if [ $# -gt 2 ]; then usage >&2; exit 2; fi
for n in "$@"; do
    case "$n" in
        ''|*[!0-9]*|0) echo "vector-layout-bench: ROWS and RUNS are positive whole numbers, got '$n'" >&2; usage >&2; exit 2 ;;
    esac
done
version="$(sed -n 's:.*<arrow.version>\(.*\)</arrow.version>.*:\1:p' "$root/pom.xml")"
lib="$HOME/.cache/ooo-bench/arrow-$version"
if [ ! -f "$lib/.done" ]; then
    mkdir -p "$lib"
    work="$(mktemp -d)"
    cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>ooo</groupId><artifactId>arrow-bench</artifactId><version>1</version><dependencies>
<dependency><groupId>org.apache.arrow</groupId><artifactId>arrow-vector</artifactId><version>$version</version></dependency>
<dependency><groupId>org.apache.arrow</groupId><artifactId>arrow-memory-unsafe</artifactId><version>$version</version></dependency>
</dependencies></project>
POM
    mvn -q -B -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$lib" >&2
    rm -rf "$work"
    touch "$lib/.done"
fi
cp="$(ls "$lib"/*.jar | tr '\n' ':')"
for unsafe in false true; do
    java -Darrow.enable_unsafe_memory_access=$unsafe --add-opens=java.base/java.nio=ALL-UNNAMED -cp "$cp" \
        "$here/VectorLayoutBench.java" "$@" 2>/dev/null
done
