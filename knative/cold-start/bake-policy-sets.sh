#!/usr/bin/env bash
# Builds a CEL function once per policy count with policy-set.py's set of that count baked in (shared/policy-bake:
# tollgate.cel-policy.baked-config), for policy-scaling.sh's `baked` and `baked-native` builds: the fast-jar to
# functions/<f>/target/baked/<n>/quarkus-app, the native executable (NATIVE=1) to functions/<f>/target/baked/<n>/<f>-runner
# (with the stand-in builder's jdklibs/ beside it when there is one). At the end the function is built again without
# anything baked in, so functions/<f>/target holds the plain build policy-scaling.sh's `jvm` build runs.
#
#   knative/cold-start/bake-policy-sets.sh
#   FUNCTIONS="cel-policy"  COUNTS="1 100"  NATIVE=1  NATIVE_FLAGS="<extra Maven flags of a native build>"
#
# NATIVE=1 needs GRAALVM_HOME (or a builder passed in NATIVE_FLAGS, e.g. -Dquarkus.native.graalvm-home=...).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
functions=${FUNCTIONS:-cel-policy}
counts=${COUNTS:-1 10 30 100}
native=${NATIVE:-0}
native_flags=${NATIVE_FLAGS:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"

build() {   # the function $1, with extra Maven flags
  local f=$1; shift
  ./mvnw -B -q package -DskipTests -pl "functions/$f" -am "$@"
}
for n in $counts; do "$here/policy-set.py" "$n" "$work/set-$n"; done
for f in $functions; do
  for n in $counts; do
    out=functions/$f/target/baked/$n
    echo "== $f with $n policies baked in"
    build "$f" -Dtollgate.cel-policy.baked-config="$work/set-$n"
    rm -rf "$out"; mkdir -p "$out"
    cp -r "functions/$f/target/quarkus-app" "$out/"
    if [ "$native" = 1 ]; then
      # shellcheck disable=SC2086  # NATIVE_FLAGS holds several flags
      build "$f" -Dnative -Dtollgate.cel-policy.baked-config="$work/set-$n" $native_flags
      cp "$(ls "functions/$f/target/$f"-*-runner | head -n 1)" "$out/$f-runner"
      if [ -d "functions/$f/target/jdklibs" ]; then cp -r "functions/$f/target/jdklibs" "$out/"; fi
    fi
  done
  echo "== $f with nothing baked in"
  build "$f"
  if [ "$native" = 1 ]; then
    # shellcheck disable=SC2086
    build "$f" -Dnative $native_flags
  fi
done
