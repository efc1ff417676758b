#!/usr/bin/env bash
# How a CEL function's cost grows with its policy count: cel-policy and all-in-one serving 1, 10, 30 and 100
# ValidatingAdmissionPolicies written by policy-set.py (beside this script), JVM fast-jar and native executable.
#
# Per variant (function x policy count x build), each start:
#   start        exec to the first answered review (HTTP 200 on /cel-policy, the Pod review that matches every
#                policy), wall ms, and the CPU time the process used by then (all threads, schedstat)
#   RSS idle     1 s after that first answer, nothing else sent
#   RSS burst    after 10 s of 16 clients (wrk -t1 -c16) sending the review that matches every policy
#   CPU/review   server CPU time (utime + stime) per answered review over 10 s of 16 clients, first the Pod that
#                matches 1 policy (the same review in namespace sandbox), then the one that matches all N
# The variants take turns within each round, so a drift of the machine touches them alike; the table gives medians
# over the rounds, and each ratio against the same function and build at the first of COUNTS (1 policy; same run).
#
#   knative/cold-start/policy-scaling.sh [runs]                 (default 3)
#   FUNCTIONS="cel-policy all-in-one"   which functions (all-in-one: the policies at /cel-policy, and cel-mutate's
#                                       examples loaded as when it is deployed)
#   COUNTS="1 10 30 100"                policy counts
#   BUILDS="jvm native"                 jvm: functions/<f>/target/quarkus-app (or JVM_<F>=dir, F upper case with _);
#                                       native: functions/<f>/target/<f>-*-runner (or NATIVE_<F>=path; one built with
#                                       the stand-in native-image needs its jdklibs/ beside it); a build that
#                                       is not there is skipped with a line saying so
#                                       before: a second JVM build to compare with, BEFORE_<F>=quarkus-app dir (e.g.
#                                       a build of an earlier commit), measured in turns with the others
#                                       baked, baked-native: each count's set baked in when the function was built
#                                       (shared/policy-bake), from bake-policy-sets.sh beside this script:
#                                       functions/<f>/target/baked/<n>/ (or BAKED_DIR_<F>); the configuration files
#                                       then hold nothing
#   JVM_FLAGS   (default: the JVM manifests' JAVA_TOOL_OPTIONS)   NATIVE_ARGS (default -Xmx192m, as the manifests)
#   SECONDS_PER_LOAD=10                 length of each wrk run
#
# Needs wrk, curl, python3. The functions run with auth off on 127.0.0.1.
set -euo pipefail

runs=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
functions=${FUNCTIONS:-cel-policy all-in-one}
counts=${COUNTS:-1 10 30 100}
builds=${BUILDS:-jvm native}
jvm_flags=${JVM_FLAGS:--XX:+ExitOnOutOfMemoryError -XX:MaxRAMPercentage=50 -XX:TieredStopAtLevel=1}
native_args=${NATIVE_ARGS:--Xmx192m}
load_s=${SECONDS_PER_LOAD:-10}
port=${PORT:-18097}
mport=${MANAGEMENT_PORT:-19097}
for tool in wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 2; }
done
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# The two reviews: the 4.8 KB Pod CREATE in shop (matches every policy) and the same in sandbox (matches policy 0).
python3 - "$here/pod-review.v1.json" "$work" <<'PY'
import json, sys
review = json.load(open(sys.argv[1]))
open(f"{sys.argv[2]}/all.json", "w").write(json.dumps(review))
review["request"]["namespace"] = review["request"]["object"]["metadata"]["namespace"] = "sandbox"
open(f"{sys.argv[2]}/one.json", "w").write(json.dumps(review))
PY
for r in all one; do
  { echo 'wrk.method = "POST"'; echo 'wrk.headers["Content-Type"] = "application/json"'
    printf 'wrk.body = [==[%s]==]\n' "$(cat "$work/$r.json")"; } >"$work/$r.lua"
done
for n in $counts; do "$here/policy-set.py" "$n" "$work/set-$n"; done
mkdir -p "$work/empty"

upper() { echo "$1" | tr 'a-z-' 'A-Z_'; }
# The command line of a build of a function, with its configuration; empty when that build is not there.
launch() {
  local f=$1 build=$2 n=$3 config app exe var baked
  config="-Dtollgate.cel-policy.config=$work/set-$n"
  [[ "$build" = baked* ]] && config="-Dtollgate.cel-policy.config=$work/empty"
  [ "$f" = all-in-one ] && config+=" -Dtollgate.cel-mutate.config=$root/functions/cel-mutate/examples"
  config+=" -Dtollgate.auth.required=false -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port=$port"
  config+=" -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port=$mport"
  var="BAKED_DIR_$(upper "$f")"; baked=${!var:-$root/functions/$f/target/baked}/$n
  if [ "$build" = baked ]; then
    [ -f "$baked/quarkus-app/quarkus-run.jar" ] && echo "java $jvm_flags $config -jar $baked/quarkus-app/quarkus-run.jar"
  elif [ "$build" = baked-native ]; then
    [ -x "$baked/$f-runner" ] && echo "$baked/$f-runner $native_args $config"
  elif [ "$build" = jvm ] || [ "$build" = before ]; then
    var="$(upper "$build")_$(upper "$f")"; app=${!var:-}
    [ "$build" = before ] || app=${app:-$root/functions/$f/target/quarkus-app}
    [ -n "$app" ] && [ -f "$app/quarkus-run.jar" ] && echo "java $jvm_flags $config -jar $app/quarkus-run.jar"
  else
    var="NATIVE_$(upper "$f")"; exe=${!var:-$(ls "$root/functions/$f/target/$f"-*-runner 2>/dev/null | head -n 1 || true)}
    [ -n "$exe" ] && [ -x "$exe" ] && echo "$exe $native_args $config"
  fi
  return 0
}

post() { curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$1" \
  "http://127.0.0.1:$port/cel-policy" || true; }
rss() { awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Requests answered by one wrk run; any non-2xx answer stops the script (every review here must be answered 200).
load() {
  local out; out=$(wrk -t1 -c16 -d"${load_s}s" -s "$work/$1.lua" "http://127.0.0.1:$port/cel-policy")
  if grep -q 'Non-2xx' <<<"$out"; then echo "non-200 answers under load ($1):" >&2; echo "$out" >&2; exit 1; fi
  awk '/requests in/ {print $1}' <<<"$out"
}
cpu_per_review() {   # us of server CPU per review over one wrk run of review $1
  local t0 n; t0=$(ticks "$pid"); n=$(load "$1")
  echo $(( ($(ticks "$pid") - t0) * 1000000 / $(getconf CLK_TCK) / n ))
}

declare -A starts cpus idles bursts ones alls
one_run() {   # one start of variant $1 (f:build:n)
  local v=$1 f build n cmd t0 code
  IFS=: read -r f build n <<<"$v"
  cmd=$(launch "$f" "$build" "$n")
  t0=$(date +%s%N)
  $cmd >"$work/log" 2>&1 &
  pid=$!
  until code=$(post "$work/all.json"); [ "$code" = 200 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "$v exited:" >&2; tail -n 30 "$work/log" >&2; exit 1; }
    [ "$code" = 000 ] || { echo "$v answered $code" >&2; exit 1; }
  done
  starts[$v]+="$(( ($(date +%s%N) - t0) / 1000000 )) "
  cpus[$v]+="$(cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ns += $1} END {printf "%d", ns / 1000000}') "
  [ "$(post "$work/one.json")" = 200 ] || { echo "$v: the sandbox review was not answered 200" >&2; exit 1; }
  sleep 1
  idles[$v]+="$(rss "$pid") "
  load all >/dev/null
  bursts[$v]+="$(rss "$pid") "
  ones[$v]+="$(cpu_per_review one) "
  alls[$v]+="$(cpu_per_review all) "
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a > 0) printf "%.2f", b / a; else print "-"}'; }

variants=()
for f in $functions; do
  for build in $builds; do
    if [ -z "$(launch "$f" "$build" 1)" ]; then echo "$f $build: no build found, skipped"; continue; fi
    for n in $counts; do variants+=("$f:$build:$n"); done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; runs=$runs; $(java -version 2>&1 | head -n 1)"
for _ in $(seq 1 "$runs"); do
  for v in "${variants[@]}"; do one_run "$v"; done
done
echo
echo "| function | build | policies | start ms, median (min-max) | CPU ms by first answer | RSS idle MiB | RSS after burst MiB | CPU per review, Pod matching 1, us | Pod matching all, us | ratios to 1 policy: start, CPU to start, RSS idle, CPU per review matching 1 |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for v in "${variants[@]}"; do
  IFS=: read -r f build n <<<"$v"
  base="$f:$build:${counts%% *}"
  s=($(printf '%s\n' ${starts[$v]} | sort -n))
  echo "| $f | $build | $n | $(median ${starts[$v]}) (${s[0]}-${s[-1]}) | $(median ${cpus[$v]}) | $(median ${idles[$v]}) |" \
    "$(median ${bursts[$v]}) | $(median ${ones[$v]}) | $(median ${alls[$v]}) |" \
    "$(ratio "$(median ${starts[$base]})" "$(median ${starts[$v]})"), $(ratio "$(median ${cpus[$base]})" "$(median ${cpus[$v]})")," \
    "$(ratio "$(median ${idles[$base]})" "$(median ${idles[$v]})"), $(ratio "$(median ${ones[$base]})" "$(median ${ones[$v]})") |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
