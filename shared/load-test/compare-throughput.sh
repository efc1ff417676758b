#!/usr/bin/env bash
# Two packaged builds of a function, measured in one sitting with measure-throughput.sh: interleaved pairs (the order
# alternates, so a drift of the machine's speed during the run falls on both), then the median of each build and of
# the per-pair ratios B/A. On a shared machine single runs vary by 1.5x; the paired ratio is the figure to read.
#
#   shared/load-test/compare-throughput.sh A_QUARKUS_APP_DIR B_QUARKUS_APP_DIR [pairs]      (default: 6 pairs)
#
# e.g. A = a build of an earlier commit (git worktree add /tmp/before <commit>; package it there), B = this one.
set -euo pipefail

a=${1:?usage: compare-throughput.sh A_QUARKUS_APP_DIR B_QUARKUS_APP_DIR [pairs]}
b=${2:?usage: compare-throughput.sh A_QUARKUS_APP_DIR B_QUARKUS_APP_DIR [pairs]}
pairs=${3:-6}
here=$(cd "$(dirname "$0")" && pwd)
for app in "$a" "$b"; do
  [ -f "$app/quarkus-run.jar" ] || { echo "no $app/quarkus-run.jar: package that build first" >&2; exit 2; }
done

# One run of one build: "first steady cpu_us waits start_ms alloc_kb", from measure-throughput.sh's result line.
one() {
  "$here/measure-throughput.sh" "$1" 1 | sed -n \
    's/^run 1: first answer after \([0-9]*\) ms; first 10 s: \([0-9]*\) requests.*steady 10 s after 10 s of warm-up: \([0-9]*\) requests (.*, \([0-9]*\) us of server CPU per request, \([0-9.]*\) thread waits per request, \([0-9.]*\) KB allocated.*/\2 \3 \4 \5 \1 \6/p'
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN {printf "%.2f", y / x}'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "A: $a"
echo "B: $b"
row='%-5s %9s %9s %6s   %9s %9s %6s   %8s %8s   %7s %7s   %7s %7s   %7s %7s\n'
printf "$row" pair "A first" "B first" ratio "A steady" "B steady" ratio "A us/req" "B us/req" "A waits" "B waits" \
  "A start" "B start" "A KB" "B KB"
firsts_a=(); firsts_b=(); steadies_a=(); steadies_b=(); cpus_a=(); cpus_b=(); waits_a=(); waits_b=(); first_ratios=(); steady_ratios=()
starts_a=(); starts_b=(); allocs_a=(); allocs_b=()
for i in $(seq 1 "$pairs"); do
  if (( i % 2 )); then ra=($(one "$a")); rb=($(one "$b")); else rb=($(one "$b")); ra=($(one "$a")); fi
  [ ${#ra[@]} = 6 ] && [ ${#rb[@]} = 6 ] || { echo "pair $i: a run gave no result" >&2; exit 1; }
  firsts_a+=("${ra[0]}"); firsts_b+=("${rb[0]}"); steadies_a+=("${ra[1]}"); steadies_b+=("${rb[1]}")
  cpus_a+=("${ra[2]}"); cpus_b+=("${rb[2]}"); waits_a+=("${ra[3]}"); waits_b+=("${rb[3]}")
  starts_a+=("${ra[4]}"); starts_b+=("${rb[4]}"); allocs_a+=("${ra[5]}"); allocs_b+=("${rb[5]}")
  first_ratios+=("$(ratio "${ra[0]}" "${rb[0]}")"); steady_ratios+=("$(ratio "${ra[1]}" "${rb[1]}")")
  printf "$row" "$i" "${ra[0]}" "${rb[0]}" "${first_ratios[-1]}" "${ra[1]}" "${rb[1]}" "${steady_ratios[-1]}" \
    "${ra[2]}" "${rb[2]}" "${ra[3]}" "${rb[3]}" "${ra[4]}" "${rb[4]}" "${ra[5]}" "${rb[5]}"
done
printf "$row" median "$(median "${firsts_a[@]}")" "$(median "${firsts_b[@]}")" "$(median "${first_ratios[@]}")" \
  "$(median "${steadies_a[@]}")" "$(median "${steadies_b[@]}")" "$(median "${steady_ratios[@]}")" \
  "$(median "${cpus_a[@]}")" "$(median "${cpus_b[@]}")" "$(median "${waits_a[@]}")" "$(median "${waits_b[@]}")" \
  "$(median "${starts_a[@]}")" "$(median "${starts_b[@]}")" "$(median "${allocs_a[@]}")" "$(median "${allocs_b[@]}")"
echo "(requests in 10 s; ratio = B / A, median of the per-pair ratios; waits = thread waits per request; start = ms"
echo " from starting the process to its first answered review; KB = heap allocated per request in the steady 10 s)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
