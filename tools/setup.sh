#!/usr/bin/env bash
# Installs, with apt-get, whatever Pivot needs to build and test that is missing.
# Idempotent and quiet when everything is present. Debian 12; run as root.
set -euo pipefail

# librsvg2-bin (rsvg-convert) and python3-pil: the test that renders the regression report's
# figures to PNG (tests/regression/render_figures.py; skipped without them)
packages=(g++ cmake ninja-build pkg-config libeigen3-dev libbullet-dev libfmt-dev
          catch2 nlohmann-json3-dev libcli11-dev python3 python3-jsonschema
          pybind11-dev python3-dev python3-numpy librsvg2-bin python3-pil)
if [[ "${1:-}" == "--bench" ]]; then
  # Google Benchmark for bench_lcp; the peer engines of pivot-bench (all optional there)
  packages+=(libbenchmark-dev libode-dev libdart-dev libsiconos-numerics-dev)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: installing them needs root; run 'sudo tools/setup.sh' or install them yourself" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
