#!/usr/bin/env bash
# Installs, with apt-get, whatever Pivot needs to build and test that is missing, and the replay
# viewer's npm packages (npm ci in viewer/, from its package-lock.json). Idempotent and quiet
# when everything is present. Debian 12; run as root.
#   --bench         also the benchmarks' peers (docs/benchmarks.md)
#   --viewer-tests  also chromium, for the viewer's browser tests (tests/viewer; .ci/run uses it)
#   --fuzz          also clang-14 and libFuzzer, for the fuzz and release-clang presets
#                   (tests/fuzz, tools/fuzz/run.sh, tools/ci/cross_compiler_hashes.sh; .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

# librsvg2-bin (rsvg-convert) and python3-pil: the test that renders the regression report's
# figures to PNG (tests/regression/render_figures.py; skipped without them)
# python3-distributed and python3-pandas: pivot.sweep on Dask (docs/sweeps.md) and its tests;
# libboost-dev: Boost.Beast for pivot serve (docs/cli.md)
# python3-setuptools, -wheel, -venv and -pip: `pip install --no-build-isolation .` of the
# Python module into a virtual environment (docs/python.md) and its test
# libopenvdb-dev: sdf shapes and their mesh-to-SDF conversion (docs/distributed-contact.md);
# libassimp-dev: mesh files in STL, PLY, Collada and glTF (docs/meshes.md); libboost-iostreams-dev because Debian's FindOpenVDB
# module asks for Boost.Iostreams and libopenvdb-dev does not depend on its -dev package;
# libqhull-dev: convex hulls (collision/convex_hull.cpp); liburdfdom-dev: URDF models
# (scenes/format/urdf_model.cpp, docs/models.md)
packages=(g++ cmake ninja-build pkg-config libeigen3-dev libbullet-dev libfmt-dev
          catch2 nlohmann-json3-dev libcli11-dev python3 python3-jsonschema
          pybind11-dev python3-dev python3-numpy librsvg2-bin python3-pil
          python3-distributed python3-pandas libboost-dev libopenvdb-dev libboost-iostreams-dev
          libassimp-dev libqhull-dev liburdfdom-dev python3-setuptools python3-wheel python3-venv
          python3-pip)
for option in "$@"; do
  case "$option" in
    # Google Benchmark for bench_lcp; the peer engines of pivot-bench (all optional there)
    --bench) packages+=(libbenchmark-dev libode-dev libdart-dev libsiconos-numerics-dev) ;;
    --viewer-tests) packages+=(chromium) ;;
    --fuzz) packages+=(clang-14 libfuzzer-14-dev) ;;
    *) echo "setup: unknown option $option (--bench, --viewer-tests, --fuzz)" >&2; exit 2 ;;
  esac
done
# Node.js bundles the replay viewer (docs/viewer.md); a node that is already there (e.g. from
# NodeSource, with its own npm) is used as it is
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -gt 0 ]]; then
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
fi

# the viewer's packages, exactly as locked, when the lock file changed since the last install
if [[ ! viewer/node_modules/.package-lock.json -nt viewer/package-lock.json ]]; then
  echo "setup: npm ci in viewer/"
  (cd viewer && npm ci --no-audit --no-fund --loglevel=error)
fi
