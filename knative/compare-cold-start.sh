#!/usr/bin/env bash
# Cold start and warm-up of one function, in every way it can ship, against a trivial Funqy function packaged the
# default way, on the same machine in one run:
#
#   baseline   knative/cold-start/baseline: a fresh Quarkus Funqy project, fast-jar, `java -jar` (JDK on the PATH)
#   jvm        the function's fast-jar, `java -jar` with no flags (JDK on the PATH), as before issue 13
#   jvm-aot    the function's aot-jar on JDK 25 with its AOT cache (trained by the function's *IT), JVM_AOT_FLAGS
#   native     the native executable (functions/<f>/target/<f>-*-runner), when it has been built
#   baseline-native  the baseline built native the same way (only when VARIANTS names it: it needs a native builder)
#
# For each: `runs` cold starts, process start to the first answered AdmissionReview (HTTP 200 from the policy path,
# a 4.8 KB pod review), median/min/max, RSS after that first review; then `runs` more starts, each followed at once
# by `wrk -t1 -c16 -d10s` with the same review: requests answered in the first 10 s of traffic (median, and each
# run's figure). The variants take turns within each round (interleaved), not one after the other.
#
# It also prints the median CPU time (user + system, every thread) the process used by its first answered review.
#
#   knative/compare-cold-start.sh [function] [runs]          (defaults: require-labels 5)
#   BUILD=0 ...     reuse the builds in target/cold-start/ and functions/<f>/target/quarkus-app (default: build
#                   every variant first; the AOT jar is built last and stays in the function's target)
#   NATIVE=path     the native executable to measure (default: the one in functions/<f>/target)
#   NATIVE2=path    a second native executable (variant native2, e.g. one built with another setting), measured in
#                   turns with the first, so that a loaded machine touches both alike
#   NATIVE_ARGS="-Xmx192m ..."   run-time options for the native variants (default: none; the manifests pass -Xmx192m)
#   VARIANTS="baseline jvm jvm-aot native"   a subset, in this order; add baseline-native to measure the baseline's
#                   native executable: BASELINE_NATIVE=path, else (BUILD=1) built with NATIVE_FLAGS (the flags of the
#                   function's native build, e.g. -Dquarkus.native.graalvm-home=...), and JDKLIBS=dir copied beside it
#                   (what an executable of the stand-in builder in functions/README.md needs)
#   POLICY_PATH=/p  post the review to this policy path instead of the first in functions/<f>/webhook.yaml
#   PER_SECOND=1    the 10 s of traffic as ten back-to-back `wrk -d1s` runs, to show the warm-up: each variant also
#                   gets its median requests in each second (the sum is its 10 s figure; the clients reconnect every
#                   second, which changes the traffic: compare the shapes, and the goals with the default)
set -euo pipefail

function=${1:-require-labels}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
java25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64}
# Small-container JVM flags (knative/README.md explains each); the JVM launch paths add them through JAVA_TOOL_OPTIONS.
jvm_aot_flags=${JVM_AOT_FLAGS:--XX:+UseSerialGC -Xss512k -XX:+ExitOnOutOfMemoryError -XX:MaxRAMPercentage=50 -XX:TieredStopAtLevel=1}
variants=${VARIANTS:-baseline jvm jvm-aot native}
port=${PORT:-18090}
token=cold-start-measurement-token
review="$root/knative/cold-start/pod-review.v1.json"
work="$root/target/cold-start/$function"
# The AOT cache holds the application's absolute paths: it is used where it was trained (in an image: /deployments).
aot="$root/functions/$function/target/quarkus-app"
# The policy path the review is posted to: the first in the function's webhook.yaml, or POLICY_PATH (all-in-one,
# which serves every function and has no webhook.yaml of its own, e.g. POLICY_PATH=/always-pull-images).
path=${POLICY_PATH:-$(sed -n 's/^path: *//p' "$root/functions/$function/webhook.yaml" 2>/dev/null | head -n 1)}
[ -n "$path" ] || { echo "no path in functions/$function/webhook.yaml: set POLICY_PATH" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not on the PATH" >&2; exit 2; }
config=()
case "$function" in
  cel-policy) config=("-Dtollgate.cel-policy.config=$root/functions/cel-policy/examples") ;;
  cel-mutate) config=("-Dtollgate.cel-mutate.config=$root/functions/cel-mutate/examples") ;;
  all-in-one) config=("-Dtollgate.cel-policy.config=$root/functions/cel-policy/examples"
                      "-Dtollgate.cel-mutate.config=$root/functions/cel-mutate/examples") ;;
esac

mvn() { (cd "$root" && ./mvnw -B -q "$@"); }
if [ "${BUILD:-1}" = 1 ]; then
  rm -rf "$work"; mkdir -p "$work"
  echo "building the baseline, the function's fast-jar and its AOT jar (JDK 25, trained by its *IT) ..."
  mvn -f knative/cold-start/baseline/pom.xml package -DskipTests
  cp -a "$root/knative/cold-start/baseline/target/quarkus-app" "$work/baseline"
  mvn -pl "functions/$function" -am package -DskipTests
  cp -a "$root/functions/$function/target/quarkus-app" "$work/jvm"
  JAVA_HOME=$java25 mvn -pl "functions/$function" -am verify -Dquarkus.package.jar.aot.enabled=true \
    -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
  [ -f "$aot/app.aot" ] || { echo "no app.aot was written: is $java25 a JDK 25?" >&2; exit 1; }
  if [[ " $variants " = *" baseline-native "* ]] && [ -z "${BASELINE_NATIVE:-}" ]; then
    echo "building the baseline's native executable ..."
    # shellcheck disable=SC2086  # NATIVE_FLAGS holds several flags
    mvn -f knative/cold-start/baseline/pom.xml package -DskipTests -Dnative ${NATIVE_FLAGS:-}
    mkdir -p "$work/baseline-native"
    cp "$root"/knative/cold-start/baseline/target/cold-start-baseline-*-runner "$work/baseline-native/baseline-runner"
    if [ -n "${JDKLIBS:-}" ]; then cp -r "$JDKLIBS" "$work/baseline-native/jdklibs"; fi
  fi
fi
baseline_native=${BASELINE_NATIVE:-$work/baseline-native/baseline-runner}
native=${NATIVE:-$(ls "$root/functions/$function/target/$function"-*-runner 2>/dev/null | head -n 1 || true)}
native2=${NATIVE2:-}
native_args=${NATIVE_ARGS:-}
[ -z "$native2" ] || variants="$variants native2"

# The command line of a variant (the function's own settings as in the Knative manifests: a path token).
launch() {
  case "$1" in
    baseline) echo "java -jar $work/baseline/quarkus-run.jar" ;;
    jvm)      echo "java ${config[*]} -jar $work/jvm/quarkus-run.jar" ;;
    jvm-aot)  echo "$java25/bin/java -XX:AOTCache=$aot/app.aot $jvm_aot_flags ${config[*]} -jar $aot/quarkus-run.jar" ;;
    native)   echo "$native $native_args ${config[*]}" ;;
    baseline-native) echo "$baseline_native $native_args" ;;
    native2)  echo "$native2 $native_args ${config[*]}" ;;
  esac
}
url() {
  if [[ "$1" = baseline* ]]; then echo "http://127.0.0.1:$port/allow-all"; else echo "http://127.0.0.1:$port/$token$path"; fi
}

log=$(mktemp); lua=$(mktemp --suffix=.lua)
trap 'rm -f "$log" "$lua"' EXIT
cat > "$lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$review", "rb"); wrk.body = f:read("*a"); f:close()
EOF

pid=
start_one() {   # starts a variant, waits for its first answered review; sets pid, ms, rss_mib, cpu_ms
  local variant=$1 start end
  start=$(date +%s%N)
  TOLLGATE_AUTH_PATH_TOKEN_VALUES=$token QUARKUS_HTTP_PORT=$port $(launch "$variant") >"$log" 2>&1 &
  pid=$!
  until [ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
      --data-binary @"$review" "$(url "$variant")" || true)" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "$variant exited:" >&2; cat "$log" >&2; exit 1; fi
  done
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  rss_mib=$(( $(ps -o rss= -p "$pid" | tr -d ' ') / 1024 ))
  # CPU time the process used until then, all its threads (schedstat's first field, in ns): what the start costs
  # whatever else runs on the machine, where the wall time depends on the load.
  cpu_ms=$(cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ns += $1} END {printf "%d", ns / 1000000}')
}
stop_one() { kill "$pid"; wait "$pid" 2>/dev/null || true; }
median() { local s; s=($(printf '%s\n' "$@" | sort -n)); local n=${#s[@]}
  if (( n % 2 )); then echo "${s[$((n / 2))]}"; else echo $(( (s[n / 2 - 1] + s[n / 2]) / 2 )); fi; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; function=$function runs=$runs"
echo "review: $(wc -c < "$review") bytes; java on the PATH: $(java -version 2>&1 | head -n 1)"
printf '%-15s %10s %10s %10s %9s %9s %14s\n' variant "start ms" min max "CPU ms" "RSS MiB" "10 s requests"
# Interleaved: each round starts every variant once, in turn, so that a drift of the machine (another tenant, the
# CPU's clock) touches all variants alike; the figures are per-variant medians over the rounds.
selected=()
for variant in $variants; do
  if [ "$variant" = native ] && [ -z "$native" ]; then echo "native: no executable in functions/$function/target"; continue; fi
  if [ "$variant" = baseline-native ] && [ ! -x "$baseline_native" ]; then
    echo "baseline-native: no executable at $baseline_native (BASELINE_NATIVE, or BUILD=1 with NATIVE_FLAGS)"; continue
  fi
  selected+=("$variant")
done
declare -A starts rsss cpus counts seconds
# Sets total: the requests answered in 10 s of traffic on a started variant, from one wrk run, or from ten of one
# second (PER_SECOND=1, which also appends each second's count to seconds[variant,second]).
traffic() {
  local variant=$1 n s
  if [ "${PER_SECOND:-0}" != 1 ]; then
    total=$(wrk -t1 -c16 -d10s -s "$lua" "$(url "$variant")" | awk '/requests in/ {print $1}')
    return
  fi
  total=0
  for s in $(seq 1 10); do
    n=$(wrk -t1 -c16 -d1s -s "$lua" "$(url "$variant")" | awk '/requests in/ {print $1}')
    seconds[$variant,$s]+="$n "
    total=$((total + n))
  done
}
for _ in $(seq 1 "$runs"); do
  for variant in "${selected[@]}"; do
    start_one "$variant"; starts[$variant]+="$ms "; rsss[$variant]+="$rss_mib "; cpus[$variant]+="$cpu_ms "; stop_one
  done
done
for _ in $(seq 1 "$runs"); do
  for variant in "${selected[@]}"; do
    start_one "$variant"
    traffic "$variant"
    counts[$variant]+="$total "
    stop_one
  done
done
for variant in "${selected[@]}"; do
  sorted=($(printf '%s\n' ${starts[$variant]} | sort -n))
  printf '%-15s %10s %10s %10s %9s %9s %14s\n' "$variant" "$(median ${starts[$variant]})" "${sorted[0]}" \
    "${sorted[$((runs - 1))]}" "$(median ${cpus[$variant]})" "$(median ${rsss[$variant]})" "$(median ${counts[$variant]})"
  echo "  $(launch "$variant")" | sed "s#$root/##g"
  echo "  each run's first 10 s: ${counts[$variant]}"
  if [ "${PER_SECOND:-0}" = 1 ]; then
    curve=""; for s in $(seq 1 10); do curve+="$(median ${seconds[$variant,$s]}) "; done
    echo "  median requests in each second: $curve"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
