#!/usr/bin/env bash
# Cost over time: a bounded run of mixed reviews at about half of a function's measured capacity, minute by minute:
# requests answered, answers other than 200, transport errors, resident memory (RSS) and CPU per review. It ends
# with RSS at the end against minute 5 and CPU per review in the last minute against the first.
#
#   shared/load-test/soak.sh <native executable | quarkus-app folder> <mix> [minutes] [run-time options ...]
#   shared/load-test/soak.sh functions/cel-policy/target/baked/100/cel-policy-runner cel-policy 30 \
#     -Dtollgate.cel-policy.config=/tmp/empty
#
# Mixes (every review 200 by design; a denial is a 200 too):
#   cel-policy   a 4.8 KB Pod CREATE in namespace shop (matched by every policy of knative/cold-start/policy-set.py's
#                sets), the same Pod in sandbox (matched by policy 0 only), a ~60 KB Pod of 40 containers in shop
#   all-in-one   those on /cel-policy, and the 4.8 KB Pod on /always-pull-images and /require-labels, and a
#                ConversionReview (functions/crd-conversion/samples) on /crd-conversion
# CONNECTIONS (8), CAPACITY (reviews/s; measured first with 10 s at full speed when unset), PORT (18097),
# MANAGEMENT_PORT (19097).
# A native executable runs with -Xmx192m (the manifests' bound); a fast-jar with the JDK on the PATH and -Xmx256m.
# Needs wrk (Debian: apt-get install wrk), curl and python3.
set -euo pipefail

target=${1:?usage: $0 <executable | quarkus-app folder> <mix> [minutes] [run-time options ...]}
mix=${2:?usage: $0 <executable | quarkus-app folder> <mix: cel-policy | all-in-one> [minutes] [options ...]}
minutes=${3:-30}
shift $(( $# >= 3 ? 3 : 2 ))
root=$(cd "$(dirname "$0")/../.." && pwd)
port=${PORT:-18097}
# The management interface is fixed at build time (on, port 9000): moved off the default so a run never meets another
# function's.
management_port=${MANAGEMENT_PORT:-19097}
connections=${CONNECTIONS:-8}
for tool in wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not on the PATH (Debian: apt-get install $tool)" >&2; exit 2; }
done
case "$mix" in cel-policy|all-in-one) ;; *) echo "unknown mix '$mix': cel-policy or all-in-one" >&2; exit 2 ;; esac
[[ "$minutes" =~ ^[1-9][0-9]*$ ]] || { echo "minutes must be a positive whole number, got '$minutes'" >&2; exit 2; }
if [ -d "$target" ]; then
  [ -f "$target/quarkus-run.jar" ] || { echo "$target has no quarkus-run.jar: package the function first" >&2; exit 2; }
  launch=(java -Xmx256m); jar=(-jar "$target/quarkus-run.jar")
else
  [ -x "$target" ] || { echo "$target: neither a quarkus-app folder nor an executable" >&2; exit 2; }
  launch=("$target" -Xmx192m); jar=()
fi

work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

# The requests: one file per review, and a wrk script that sends them in turn on every connection.
python3 - "$root" "$mix" "$work" <<'EOF'
import copy, json, sys
root, mix, work = sys.argv[1:4]
pod = json.load(open(f"{root}/knative/cold-start/pod-review.v1.json"))
def review(namespace, containers=None):
    r = copy.deepcopy(pod)
    r["request"]["namespace"] = namespace
    r["request"]["object"]["metadata"]["namespace"] = namespace
    if containers:
        c = r["request"]["object"]["spec"]["containers"][0]
        r["request"]["object"]["spec"]["containers"] = [dict(c, name=f"c{i}") for i in range(containers)]
    return r
requests = [("/cel-policy", review("shop")), ("/cel-policy", review("sandbox")), ("/cel-policy", review("shop", 40))]
if mix == "all-in-one":
    requests += [("/always-pull-images", review("shop")), ("/require-labels", review("shop")),
                 ("/crd-conversion", json.load(open(f"{root}/functions/crd-conversion/samples/to-v1.v1.json")))]
lua = ['wrk.method = "POST"', 'wrk.headers["Content-Type"] = "application/json"', "local sources, requests = {}, {}"]
for i, (path, body) in enumerate(requests):
    name = f"{work}/review-{i}.json"
    json.dump(body, open(name, "w"))
    lua.append(f'sources[{i + 1}] = {{"{path}", "{name}"}}')
# Formatted in init, once wrk knows the host (wrk.format sets the Host header from it).
lua += ["function init(args)", "  for i, s in ipairs(sources) do",
        '    local f = io.open(s[2], "rb"); requests[i] = wrk.format(nil, s[1], nil, f:read("*a")); f:close()',
        "  end", "end",
        "local n = 0", "request = function() n = n % #requests + 1; return requests[n] end",
        "local pause = tonumber(os.getenv('SOAK_DELAY_MS') or '0')",
        "if pause > 0 then delay = function() return pause end end"]
open(f"{work}/mix.lua", "w").write("\n".join(lua) + "\n")
print(f"{len(requests)} reviews in turn: " + ", ".join(f"{p} ({len(json.dumps(b))} B)" for p, b in requests))
EOF

"${launch[@]}" -Dtollgate.auth.required=false -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
  -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$management_port" "$@" "${jar[@]}" \
  >"$work/app.log" 2>&1 &
pid=$!
# Every mix starts with the 4.8 KB Pod on /cel-policy: ready when that is answered.
until [ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary @"$work/review-0.json" "http://127.0.0.1:$port/cel-policy" || true)" = 200 ]; do
  kill -0 "$pid" 2>/dev/null || { echo "the function exited:" >&2; cat "$work/app.log" >&2; exit 1; }
  sleep 0.2
done

rss_mib() { awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# wrk's figures: requests, non-2xx/3xx answers, transport errors (connect, read, write, timeout).
run_wrk() {
  SOAK_DELAY_MS=$1 wrk -t1 -c"$connections" -d"$2" -s "$work/mix.lua" "http://127.0.0.1:$port/" | awk '
    /requests in/ {r = $1}
    /Non-2xx or 3xx responses/ {bad = $NF}
    /Socket errors/ {gsub(/,/, ""); e = $4 + $6 + $8 + $10}
    END {printf "%d %d %d\n", r, bad, e}'
}

capacity=${CAPACITY:-}
if [ -z "$capacity" ]; then
  read -r n _ _ < <(run_wrk 0 10s)
  capacity=$(( n / 10 ))
  echo "capacity: $capacity reviews/s (10 s at full speed, $connections connections)"
fi
# Each connection waits this long before each request: about half the capacity, less the answers' own latency.
delay=$(( connections * 1000 * 2 / (capacity > 0 ? capacity : 1) ))
(( delay >= 1 )) || delay=1
echo "load: $connections connections, ${delay} ms between a connection's requests (about $(( connections * 1000 / delay )) reviews/s at most)"
echo "| minute | reviews | answers other than 200 | transport errors | RSS MiB | CPU per review, us |"
echo "| --- | --- | --- | --- | --- | --- |"
hz=$(getconf CLK_TCK)
total_bad=0; rss5=; cpu_first=; cpu_last=; rss_end=
for minute in $(seq 1 "$minutes"); do
  before=$(cpu_ticks)
  read -r n bad errors < <(run_wrk "$delay" 60s)
  kill -0 "$pid" 2>/dev/null || { echo "the function exited in minute $minute:" >&2; tail -20 "$work/app.log" >&2; exit 1; }
  cpu_us=$(( n > 0 ? ($(cpu_ticks) - before) * 1000000 / hz / n : 0 ))
  rss=$(rss_mib)
  echo "| $minute | $n | $bad | $errors | $rss | $cpu_us |"
  total_bad=$(( total_bad + bad + errors ))
  [ "$minute" = 5 ] && rss5=$rss
  [ -z "$cpu_first" ] && cpu_first=$cpu_us
  cpu_last=$cpu_us; rss_end=$rss
done
echo
echo "answers other than 200 and transport errors: $total_bad"
[ -n "$rss5" ] && echo "RSS at the end / at minute 5: $rss_end / $rss5 MiB = $(awk -v a="$rss_end" -v b="$rss5" 'BEGIN {printf "%.2f", a / b}')"
echo "CPU per review, last minute / first: $cpu_last / $cpu_first us = $(awk -v a="$cpu_last" -v b="$cpu_first" 'BEGIN {printf "%.2f", a / (b > 0 ? b : 1)}')"
