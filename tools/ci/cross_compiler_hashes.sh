#!/usr/bin/env bash
# Determinism across compilers (docs/reliability.md): builds the `pivot` CLI with g++ (the
# release preset) and with clang++-14 (the release-clang preset, the same Release flags, among
# them -ffp-contract=off), runs a handful of contact, joint and hybrid scenes with each, and
# compares the final-state hashes of summary.json. Exits 1 when any differs, naming the scene.
# Builds only the pivot CLI target in each tree (the library and the CLI).
#
#   tools/ci/cross_compiler_hashes.sh                    # g++ release against clang++ release-clang
#   tools/ci/cross_compiler_hashes.sh --clang-build DIR  # against the clang++ tree DIR instead
#
# .ci/run passes --clang-build build/asan: the sanitizer tree it has just built is a clang++-14
# build with the same floating-point flags (no fast-math, -ffp-contract=off; x86-64's SSE2
# arithmetic is IEEE at -O1 as at -O3), so it checks the same thing without building the library
# a third time (docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

clang_build=build/release-clang
if [[ ${1:-} == --clang-build ]]; then
  [[ -n ${2:-} ]] || { echo "usage: $0 [--clang-build DIR]" >&2; exit 2; }
  clang_build=$2
fi
if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}; fi
jobs=${PIVOT_JOBS:-2}
[[ -f build/release/build.ninja ]] || cmake --preset release >/dev/null
cmake --build build/release -j "$jobs" --target pivot_cli
if [[ $clang_build == build/release-clang && ! -f $clang_build/build.ninja ]]; then
  cmake --preset release-clang >/dev/null
fi
[[ -f $clang_build/build.ninja ]] || { echo "$0: $clang_build is not a configured build tree" >&2; exit 2; }
grep -q 'CMAKE_CXX_COMPILER:.*clang' "$clang_build/CMakeCache.txt" ||
  { echo "$0: $clang_build is not a clang++ build" >&2; exit 2; }
cmake --build "$clang_build" -j "$jobs" --target pivot_cli
trees=(build/release "$clang_build")

# scene, simulated seconds: contacts (stacks, pyramid, impact, friction), joints (chain with
# the post-step, Baumgarte, limits, motor), hybrid (sphere, ellipsoid, rattleback, bowl mesh),
# planar (an incline, the elastic table)
cases=(
  "box_stack_10 2" "box_pyramid 1" "ball_hits_stack 1" "incline_stick 1" "capsule_chain 1"
  "chain_6_links 0.8" "chain_6_links_baumgarte 0.8" "hinge_limit 1" "slider_motor 1"
  "rolling_sphere_hybrid 1" "ellipsoid_drop_hybrid 2" "rattleback_spin 2" "marble_in_bowl 1"
  "planar_incline 1" "planar_air_hockey 2"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
differ=0
printf '%-26s %-18s %-18s\n' scene g++ clang++
for case in "${cases[@]}"; do
  read -r scene seconds <<<"$case"
  hashes=()
  for tree in "${trees[@]}"; do
    out=$work/$(basename "$tree")/$scene
    "$tree/bin/pivot" run "scenes/$scene.json" --out "$out" --duration "$seconds" \
      --threads 1 --quiet
    hashes+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["final_state_hash"])' "$out/summary.json")")
  done
  mark=""
  if [[ "${hashes[0]}" != "${hashes[1]}" ]]; then mark="  DIFFERS"; differ=1; fi
  printf '%-26s %-18s %-18s%s\n' "$scene" "${hashes[0]}" "${hashes[1]}" "$mark"
done
if [[ $differ -ne 0 ]]; then
  echo "cross-compiler hashes: the g++ and clang++ builds differ (docs/reliability.md)" >&2
  exit 1
fi
echo "cross-compiler hashes: ${#cases[@]} scenes, g++ and clang++ agree"
