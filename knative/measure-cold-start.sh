#!/usr/bin/env bash
# Cold start of a function in JVM mode: the time from starting the process to the first answered AdmissionReview
# (HTTP 200 from the policy path, not just a health check). Prints every run, then median, min and max.
#
#   ./mvnw -B -pl functions/require-labels package -DskipTests
#   knative/measure-cold-start.sh [function] [runs]        (defaults: require-labels 9)
#
# The function runs as in the Knative manifests: path-token caller check on, everything else default.
set -euo pipefail

function=${1:-require-labels}
runs=${2:-9}
port=${PORT:-18080}
root=$(cd "$(dirname "$0")/.." && pwd)
jar="$root/functions/$function/target/quarkus-app/quarkus-run.jar"
review=$(ls "$root/functions/$function"/samples/*.json 2>/dev/null | head -n 1 || true)
path=$(sed -n 's/^path: *//p' "$root/functions/$function/webhook.yaml" | head -n 1)
token=cold-start-measurement

[ -f "$jar" ] || { echo "no $jar: run ./mvnw -B -pl functions/$function package -DskipTests" >&2; exit 1; }
[ -n "$review" ] || { echo "no sample review in functions/$function/samples" >&2; exit 1; }
[ -n "$path" ] || { echo "no path in functions/$function/webhook.yaml" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "function=$function runs=$runs review=$(basename "$review") java=$(java -version 2>&1 | head -n 1)"
times=()
cpus=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  TOLLGATE_AUTH_PATH_TOKEN_VALUES=$token QUARKUS_HTTP_PORT=$port java -jar "$jar" >"$log" 2>&1 &
  pid=$!
  # Tight loop: a refused connection returns at once, so the resolution is one curl start (a few ms).
  until [ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
      --data-binary @"$review" "http://127.0.0.1:$port/$token$path" || true)" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "the function exited:" >&2; cat "$log" >&2; exit 1; fi
  done
  end=$(date +%s%N)
  rss=$(ps -o rss= -p "$pid" | tr -d ' ')
  # CPU time the JVM used until then (user + system): what the start costs, whatever else runs on the machine.
  read -r -a stat < "/proc/$pid/stat"
  cpu_ms=$(( (stat[13] + stat[14]) * 1000 / $(getconf CLK_TCK) ))
  quarkus=$(grep -o 'started in [0-9.]*s' "$log" | head -n 1 || true)
  kill "$pid"; wait "$pid" 2>/dev/null || true
  ms=$(( (end - start) / 1000000 ))
  times+=("$ms")
  cpus+=("$cpu_ms")
  echo "run $i: ${ms} ms to the first answered review, ${cpu_ms} ms CPU (Quarkus: ${quarkus:-?}; RSS: $((rss / 1024)) MiB)"
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
if (( n % 2 )); then median=${sorted[$((n / 2))]}; else median=$(( (sorted[n / 2 - 1] + sorted[n / 2]) / 2 )); fi
echo "wall: median ${median} ms, min ${sorted[0]} ms, max ${sorted[$((n - 1))]} ms over $n runs"
csorted=($(printf '%s\n' "${cpus[@]}" | sort -n))
if (( n % 2 )); then cmedian=${csorted[$((n / 2))]}; else cmedian=$(( (csorted[n / 2 - 1] + csorted[n / 2]) / 2 )); fi
echo "CPU:  median ${cmedian} ms, min ${csorted[0]} ms, max ${csorted[$((n - 1))]} ms"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
