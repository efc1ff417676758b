#!/usr/bin/env bash
# Builds and pushes one function's image with the one Maven command of knative/README.md ("Container images"), offline:
# no Docker daemon, no internet. A throw-away registry (Debian's docker-registry package: apt-get install
# docker-registry) listens on 127.0.0.1, and the base image is Jib's empty `scratch`, so nothing is pulled; the
# script then reads the pushed manifest back from the registry and checks its layers and entrypoint.
#
#   knative/test-image-build.sh [function] [extra maven args, e.g. -Dnative]     (default: always-pull-images)
set -euo pipefail

function=${1:-always-pull-images}; shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
port=${REGISTRY_PORT:-15055}
command -v docker-registry >/dev/null || { echo "docker-registry is not installed (apt-get install docker-registry)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'kill "$registry" 2>/dev/null || true; rm -rf "$dir"' EXIT
cat > "$dir/config.yml" <<EOF
version: 0.1
storage: {filesystem: {rootdirectory: $dir/data}}
http: {addr: 127.0.0.1:$port}
EOF
docker-registry serve "$dir/config.yml" > "$dir/registry.log" 2>&1 &
registry=$!
until curl -sf "http://127.0.0.1:$port/v2/" >/dev/null; do
  kill -0 "$registry" 2>/dev/null || { cat "$dir/registry.log" >&2; exit 1; }; sleep 0.2
done

(cd "$root" && ./mvnw -B -q package -DskipTests -pl "functions/$function" -am \
  -Dquarkus.container-image.build=true -Dquarkus.container-image.push=true \
  -Dquarkus.container-image.registry=127.0.0.1:$port -Dquarkus.container-image.insecure=true \
  -Dquarkus.jib.base-jvm-image=scratch -Dquarkus.jib.base-native-image=scratch "$@")

accept='application/vnd.docker.distribution.manifest.v2+json,application/vnd.oci.image.manifest.v1+json'
manifest=$(curl -sf -H "Accept: $accept" "http://127.0.0.1:$port/v2/tollgate/$function/manifests/0.1.0-SNAPSHOT")
config_digest=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["config"]["digest"])' "$manifest")
config=$(curl -sf "http://127.0.0.1:$port/v2/tollgate/$function/blobs/$config_digest")
python3 - "$manifest" "$config" "$function" <<'EOF'
import json, sys
manifest, config, function = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
layers = manifest["layers"]
entrypoint = config["config"].get("Entrypoint") or []
assert layers, "the image has no layers"
assert entrypoint, "the image has no entrypoint"
print(f"pushed tollgate/{function}:0.1.0-SNAPSHOT: {len(layers)} layers, "
      f"{sum(l['size'] for l in layers) / 1048576:.1f} MiB compressed, entrypoint {' '.join(entrypoint)}")
EOF
