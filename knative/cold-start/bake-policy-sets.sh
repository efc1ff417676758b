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
# NATIVE=1 installs the function's modules into the local Maven repository (a native build of the function alone
# takes them from there) and needs GRAALVM_HOME (or a builder passed in NATIVE_FLAGS, e.g.
# -Dquarkus.native.graalvm-home=...).
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

build() {   # the function $1 and what it depends on, with extra Maven flags
  local f=$1; shift
  ./mvnw -B -q package -DskipTests -pl "functions/$f" -am "$@"
}
# The native executable of the function $1 alone, its dependencies taken from the local repository (installed below):
# with -am a native build would make every function all-in-one bundles an executable of its own.
build_native() {
  local f=$1; shift
  # shellcheck disable=SC2086  # NATIVE_FLAGS holds several flags
  ./mvnw -B -q package -DskipTests -Dnative -pl "functions/$f" "$@" $native_flags
}
for n in $counts; do "$here/policy-set.py" "$n" "$work/set-$n"; done
for f in $functions; do
  # the modules the function depends on, in the local repository for build_native
  if [ "$native" = 1 ]; then ./mvnw -B -q install -DskipTests -pl "functions/$f" -am; fi
  for n in $counts; do
    out=functions/$f/target/baked/$n
    echo "== $f with $n policies baked in"
    build "$f" -Dtollgate.cel-policy.baked-config="$work/set-$n"
    rm -rf "$out"; mkdir -p "$out"
    cp -r "functions/$f/target/quarkus-app" "$out/"
    if [ "$native" = 1 ]; then
      build_native "$f" -Dtollgate.cel-policy.baked-config="$work/set-$n"
      cp "$(ls "functions/$f/target/$f"-*-runner | head -n 1)" "$out/$f-runner"
      if [ -d "functions/$f/target/jdklibs" ]; then cp -r "functions/$f/target/jdklibs" "$out/"; fi
    fi
  done
  echo "== $f with nothing baked in"
  build "$f"
  if [ "$native" = 1 ]; then build_native "$f"; fi
done
