#!/usr/bin/env bash
# Where a native executable's start goes: runs it under `perf record` (call graphs by frame pointer, 10 kHz) from
# exec to its first answered review (HTTP 200 for pod-review.v1.json on the policy path), then prints the share of
# the samples by binary (the executable, the kernel, libc) and the frames with the largest inclusive share.
#
#   knative/cold-start/profile-native-start.sh <executable> [policy path] [run-time options ...]
#   knative/cold-start/profile-native-start.sh functions/cel-policy/target/cel-policy-0.1.0-SNAPSHOT-runner /cel-policy \
#     -Dtollgate.cel-policy.config=functions/cel-policy/examples
#   TOP=60 (frames printed)  KEEP=file (keep perf's data there, for `perf report -i file`)
#
# The executable must keep its symbols and frame pointers, which a production build drops; build it with
#   -Dquarkus.native.additional-build-args-append=-H:-DeleteLocalSymbols,-H:+PreserveFramePointer
# (with the stand-in builder of functions/README.md, after its own flags). Needs perf (Debian: linux-perf).
set -euo pipefail

exe=${1:?usage: $0 <executable> [policy path] [run-time options ...]}
path=${2:-/cel-policy}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
review="$here/pod-review.v1.json"
port=${PORT:-18095}
top=${TOP:-40}
command -v perf >/dev/null || { echo "perf is not on the PATH (Debian: apt-get install linux-perf)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is not on the PATH" >&2; exit 2; }
[ -x "$exe" ] || { echo "$exe: not an executable" >&2; exit 2; }
if [ -z "$(nm "$exe" 2>/dev/null | head -n 1)" ]; then
  echo "$exe has no symbols: build it with -H:-DeleteLocalSymbols,-H:+PreserveFramePointer (see the top of $0)" >&2
  exit 2
fi
data=${KEEP:-$(mktemp)}
log=$(mktemp)
trap 'rm -f "$log"; [ -n "${KEEP:-}" ] || rm -f "$data"' EXIT

start=$(date +%s%N)
perf record -q -F 10000 -g -o "$data" -- "$exe" -Xmx192m -Dtollgate.auth.required=false \
  -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" -Dquarkus.management.enabled=false "$@" >"$log" 2>&1 &
recorder=$!
until [ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary @"$review" "http://127.0.0.1:$port$path" || true)" = 200 ]; do
  if ! kill -0 "$recorder" 2>/dev/null; then echo "the executable exited:" >&2; cat "$log" >&2; exit 1; fi
  sleep 0.002
done
end=$(date +%s%N)
# Stop the executable (perf's child), not perf: perf then writes its data and exits.
kill "$(ps --ppid "$recorder" -o pid= | tr -d ' ')"
wait "$recorder" || true

echo "first answer $(( (end - start) / 1000000 )) ms after exec (under perf, which slows the start)"
echo "== samples by binary"
perf report -i "$data" --no-children --sort dso -g none -q 2>/dev/null | head -n 5
echo "== frames by inclusive share of the samples (the executable's own; kernel frames left out)"
perf report -i "$data" --children --sort symbol -g none -q 2>/dev/null | grep -v '\[k\]' | sed 's/ *- *- *$//' | head -n "$top"
