#!/usr/bin/env bash
# HTTP throughput of a packaged function under wrk: the time from starting the process to its first answered review,
# the requests answered in the first 10 s after that (what a function scaled from zero sees), then the steady state
# after a warm-up. One 4.8 KB pod review, 16
# connections, one wrk thread. Run two builds back to back (or interleaved) to compare them in one sitting.
#
#   ./mvnw -B -q package -DskipTests -pl functions/always-pull-images -am
#   shared/load-test/measure-throughput.sh functions/always-pull-images/target/quarkus-app [runs]
#
# Needs wrk (Debian: apt-get install wrk). The function runs with auth off on 127.0.0.1 and a 256 MiB heap.
set -euo pipefail

app=${1:?usage: measure-throughput.sh QUARKUS_APP_DIR [runs]}
runs=${2:-3}
function=${FUNCTION:-always-pull-images}
port=${PORT:-18090}
root=$(cd "$(dirname "$0")/../.." && pwd)
review="$root/shared/load-test/reviews/pod-4.8kb.v1.json"
[ -f "$app/quarkus-run.jar" ] || { echo "no $app/quarkus-run.jar: package the function first" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
lua=$(mktemp --suffix=.lua)
log=$(mktemp)
trap 'rm -f "$lua" "$log"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null || true' EXIT
{
  echo 'wrk.method = "POST"'
  echo 'wrk.headers["Content-Type"] = "application/json"'
  printf 'wrk.body = [==[%s]==]\n' "$(cat "$review")"
} >"$lua"

requests() { sed -n 's/^ *\([0-9]*\) requests in.*/\1/p'; }
# CPU time (user + system, in clock ticks) the function's process has used so far.
cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Times the process's threads have waited (voluntary context switches, summed over its threads): hand-offs between
# threads show up here, and unlike time this count does not depend on how busy the machine is.
waits() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n}'; }
# Bytes the JVM has allocated so far (Micrometer's jvm_gc_memory_allocated_bytes_total on the management interface,
# advanced at each young collection: over 10 s of traffic, hundreds of them).
allocated() {
  curl -s "http://127.0.0.1:$management_port/q/metrics" | awk '/^jvm_gc_memory_allocated_bytes_total/ {printf "%.0f", $2}'
}
management_port=${MANAGEMENT_PORT:-19090}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $app"
for i in $(seq 1 "$runs"); do
  # No caller check, so loopback only (the function and its management interface).
  java -Xmx256m -XX:+ExitOnOutOfMemoryError -Dtollgate.auth.required=false \
      -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
      -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$management_port" \
      -jar "$app/quarkus-run.jar" >"$log" 2>&1 &
  pid=$!
  started_ns=$(date +%s%N)
  waited=$SECONDS
  # 000 while the port is not open yet; any other answer but 200 means the review is not this build's to answer.
  until code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
      --data-binary @"$review" "http://127.0.0.1:$port/$function" || true); [ "$code" = 200 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "the function exited:" >&2; cat "$log" >&2; exit 1; }
    if [ "$code" != 000 ] || (( SECONDS - waited > 120 )); then
      echo "POST /$function answered $code, not 200 (FUNCTION names the function $app serves)" >&2; exit 1
    fi
    sleep 0.01
  done
  start_ms=$(( ($(date +%s%N) - started_ns) / 1000000 ))
  first=$(wrk -t1 -c16 -d10s -s "$lua" "http://127.0.0.1:$port/$function" | requests)
  wrk -t1 -c16 -d10s -s "$lua" "http://127.0.0.1:$port/$function" >/dev/null
  ticks=$(cputicks "$pid")
  switches=$(waits "$pid")
  bytes=$(allocated)
  steady=$(wrk -t1 -c16 -d10s -s "$lua" "http://127.0.0.1:$port/$function" | requests)
  # CPU per request is steadier than requests per second on a shared machine.
  cpu_us=$(( ($(cputicks "$pid") - ticks) * 1000000 / $(getconf CLK_TCK) / steady ))
  alloc_kb=$(awk -v n="$(( $(allocated) - bytes ))" -v r="$steady" 'BEGIN {printf "%.1f", n / 1024 / r}')
  waits_per=$(awk -v n="$(( $(waits "$pid") - switches ))" -v r="$steady" 'BEGIN {printf "%.2f", n / r}')
  grep -q '"status":[45]' "$log" && echo "warning: error answers in the log" >&2
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  echo "run $i: first answer after ${start_ms} ms; first 10 s: $first requests ($((first / 10))/s); steady 10 s after 10 s of warm-up: $steady requests ($((steady / 10))/s, ${cpu_us} us of server CPU per request, ${waits_per} thread waits per request, ${alloc_kb} KB allocated per request)"
done
