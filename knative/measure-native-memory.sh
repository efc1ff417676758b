#!/usr/bin/env bash
# Resident memory (RSS) of a function's native executable, the figures the native manifests' heap bound and memory
# request/limit are sized from (knative/cold-start/README.md, "Native executable: memory"):
#
#   idle         started, listening, no review yet (1 s after the management port answered)
#   first        after its first answered review (the 4.8 KB pod review)
#   burst-4.8k   after 10 s of 16 clients sending the 4.8 KB review back to back (wrk -t1 -c16), and the peak
#   burst-7m     after 10 s of 16 clients sending ~7 MiB reviews back to back (half three 2.4M-character
#                annotations, half about 8,700 containers, as shared/load-test MemoryBudgetIT), and the peak; the
#                answers counted by status (503: the in-flight body budget refused it)
#
#   knative/measure-native-memory.sh EXECUTABLE [HEAP ...]
#     EXECUTABLE  a native -runner serving /always-pull-images (FUNCTION_PATH for another function's path)
#     HEAP        -Xmx values to run with, in turn (e.g. 96m 128m); "none" runs without a bound (default: none)
#   ARGS="-Xmn8m ..."   more run-time options for the executable (e.g. the collector's), after -Xmx
#   BIG=0               skip the ~7 MiB burst (its columns read "-")
#   REGIONS=1           also print, idle and after the 4.8 KB burst, where the RSS is (smaps: code area, image heap,
#                       collected heap, thread stacks, malloc arenas, other anonymous memory, shared libraries) and
#                       the heap in use (jvm_memory_used_bytes, area="heap", from the management port's /q/metrics)
#
# Needs wrk (Debian: apt-get install wrk), curl and python3. The executable runs with auth off on 127.0.0.1. An
# executable built with the stand-in native-image needs its jdklibs/ beside it (functions/README.md).
set -euo pipefail

exe=${1:?usage: measure-native-memory.sh EXECUTABLE [HEAP ...]}
shift
heaps=("$@")
[ ${#heaps[@]} -gt 0 ] || heaps=(none)
root=$(cd "$(dirname "$0")/.." && pwd)
path=${FUNCTION_PATH:-/always-pull-images}
port=${PORT:-18095}
mport=${MANAGEMENT_PORT:-19095}
review="$root/knative/cold-start/pod-review.v1.json"
[ -x "$exe" ] || { echo "no executable at $exe" >&2; exit 1; }
for tool in wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: apt-get install $tool)" >&2; exit 1; }
done
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
{
  echo 'wrk.method = "POST"'
  echo 'wrk.headers["Content-Type"] = "application/json"'
  printf 'wrk.body = [==[%s]==]\n' "$(cat "$review")"
} >"$work/post.lua"

# The two ~7 MiB reviews of MemoryBudgetIT (shared/load-test), built from the 4.8 KB one.
python3 - "$review" "$work" <<'PY'
import copy, json, sys
review = json.load(open(sys.argv[1]))
pod = review["request"]["object"]
a = copy.deepcopy(review)
a["request"]["object"]["metadata"]["annotations"] = {f"example.com/{k}": k * 2_400_000 for k in "abc"}
open(f"{sys.argv[2]}/annotations.json", "w").write(json.dumps(a))
c = copy.deepcopy(review)
containers = c["request"]["object"]["spec"]["containers"] = [pod["spec"]["containers"][0]]
size, i = len(json.dumps(c)), 0
while size < 7_200_000:  # under the 7 MiB body limit (7,340,032 bytes), as MemoryBudgetIT's
    i += 1
    x = dict(name=f"c{i}", image=f"registry.example.com/team/app-{i}:1.0.{i}",
             resources={"requests": {"cpu": "10m", "memory": "16Mi"}}, env=[{"name": "INDEX", "value": str(i)}],
             ports=[{"containerPort": 8080, "protocol": "TCP"}],
             terminationMessagePath="/dev/termination-log/" + "x" * 560)
    containers.append(x)
    size += len(json.dumps(x)) + 2
open(f"{sys.argv[2]}/containers.json", "w").write(json.dumps(c))
PY

rss() { awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
hwm() { awk '/^VmHWM:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

# RSS by region, from /proc/PID/smaps. A native executable maps its code area (r-xp) and its image heap from its own
# file; the collected heap's chunks are anonymous mappings inside the heap's address-space reservation, which starts
# at the image heap (32 GiB with compressed references); glibc's secondary malloc arenas are 64 MiB-aligned
# reservations (HEAP_MAX_SIZE, malloc/arena.c); a thread stack sits above a guard page (---p).
regions() {
  python3 - "$1" "$(readlink -f "$exe")" "$2" "http://127.0.0.1:$mport/q/metrics" <<'PY'
import collections, re, sys, urllib.request
pid, exe, when, metrics = sys.argv[1:5]
maps = []
for line in open(f"/proc/{pid}/smaps"):
    m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
    if m:
        maps.append({"lo": int(m[1], 16), "hi": int(m[2], 16), "perm": m[3], "name": m[4], "Rss": 0})
    elif line.startswith("Rss:"):
        maps[-1]["Rss"] = int(line.split()[1])
own = [r for r in maps if r["name"] == exe]
heap_lo = min((r["lo"] for r in own if r["lo"] > 0x10000000), default=0)
heap_hi = heap_lo + (32 << 30)
kib = collections.Counter()
for i, r in enumerate(maps):
    prev = maps[i - 1] if i else None
    if r["name"] == exe:
        kind = "code area" if "x" in r["perm"] else "image heap" if r["lo"] >= heap_lo else "executable, other"
    elif r["name"] in ("[heap]",):
        kind = "malloc arenas"
    elif r["name"] == "[stack]":
        kind = "thread stacks"
    elif r["name"] and not r["name"].startswith("["):
        kind = "shared libraries"
    elif heap_lo <= r["lo"] < heap_hi:
        kind = "collected heap"
    elif r["lo"] % (64 << 20) == 0 and "rw" in r["perm"]:
        kind = "malloc arenas"
    elif prev and prev["perm"] == "---p" and prev["hi"] == r["lo"] and prev["hi"] - prev["lo"] <= 65536:
        kind = "thread stacks"
    else:
        kind = "other anonymous"
    kib[kind] += r["Rss"]
try:
    text = urllib.request.urlopen(metrics, timeout=5).read().decode()
    used = sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines()
               if l.startswith("jvm_memory_used_bytes{") and 'area="heap"' in l) / 2**20
    used = f"{used:.0f} MiB"
except Exception as e:
    used = f"unknown ({type(e).__name__})"
order = ["code area", "image heap", "collected heap", "thread stacks", "malloc arenas", "other anonymous",
         "shared libraries", "executable, other"]
print(f"  RSS by region, {when}: " + ", ".join(f"{k} {kib[k] / 1024:.1f}" for k in order)
      + f" MiB (total {sum(kib.values()) / 1024:.1f}); heap in use {used}; threads "
      + next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith("Threads:")), file=sys.stderr)
PY
}

burst7m() {
  python3 - "$port" "$path" "$work" <<'PY'
import collections, http.client, sys, threading, time
port, path, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
bodies = [open(f"{work}/annotations.json", "rb").read(), open(f"{work}/containers.json", "rb").read()]
counts = collections.Counter()
end = time.time() + 10
def client(i):
    body = bodies[i % 2]
    while time.time() < end:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("POST", path, body, {"Content-Type": "application/json"})
            r = c.getresponse(); r.read(); c.close()
            counts[r.status] += 1
            if r.status == 503:
                time.sleep(0.05)
        except Exception as e:
            counts[type(e).__name__] += 1
threads = [threading.Thread(target=client, args=(i,)) for i in range(16)]
for t in threads: t.start()
for t in threads: t.join()
print(" ".join(f"{k}:{v}" for k, v in sorted(counts.items(), key=str)))
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $exe ${ARGS:-}"
echo "| heap bound | idle | after the first review | after the 4.8 KB burst (peak) | 4.8 KB requests in 10 s | after the 7 MiB burst (peak) | 7 MiB answers | OutOfMemoryError |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for heap in "${heaps[@]}"; do
  opts=(-Dtollgate.auth.required=false -Dtollgate.decision-log.enabled=false
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port"
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$mport")
  [ "$heap" = none ] || opts=("-Xmx$heap" "${opts[@]}")
  # shellcheck disable=SC2206 # ARGS: run-time options separated by spaces
  opts=(${ARGS:-} "${opts[@]}")
  "$exe" "${opts[@]}" >"$work/log" 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$mport/q/health/ready"; do
    kill -0 "$pid" 2>/dev/null || { echo "the executable exited:" >&2; cat "$work/log" >&2; exit 1; }
    sleep 0.05
  done
  sleep 1
  idle=$(rss "$pid")
  [ "${REGIONS:-0}" = 1 ] && regions "$pid" idle
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$review" \
    "http://127.0.0.1:$port$path")
  [ "$code" = 200 ] || { echo "the first review got $code" >&2; cat "$work/log" >&2; exit 1; }
  first=$(rss "$pid")
  requests=$(wrk -t1 -c16 -d10s -s "$work/post.lua" "http://127.0.0.1:$port$path" \
    | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
  small="$(rss "$pid") ($(hwm "$pid"))"
  [ "${REGIONS:-0}" = 1 ] && regions "$pid" "after the 4.8 KB burst"
  answers=- big=-
  if [ "${BIG:-1}" = 1 ]; then
    answers=$(burst7m)
    big="$(rss "$pid") ($(hwm "$pid"))"
  fi
  ooms=$(grep -c OutOfMemoryError "$work/log" || true)
  kill -0 "$pid" 2>/dev/null || big="exited"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
  echo "| ${heap/none/no -Xmx} | $idle MiB | $first MiB | $small MiB | $requests | $big MiB | $answers | $ooms |"
done

