#!/usr/bin/env bash
# Determinism across compilers (docs/reliability.md): builds the `pivot` CLI with g++ (the
# release preset) and with clang++-14 (the release-clang preset, the same Release flags, among
# them -ffp-contract=off), runs a handful of contact, joint and hybrid scenes with each, and
# compares the final-state hashes of summary.json. Exits 1 when any differs, naming the scene.
# Builds only the pivot CLI target in each tree (the library and the CLI); .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/../.."

if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}; fi
jobs=${PIVOT_JOBS:-2}
for preset in release release-clang; do
  [[ -f build/$preset/build.ninja ]] || cmake --preset $preset >/dev/null
  cmake --build build/$preset -j "$jobs" --target pivot_cli
done

# scene, simulated seconds: contacts (stacks, pyramid, impact, friction), joints (chain with
# the post-step, Baumgarte, limits, motor), hybrid (sphere, ellipsoid, rattleback, bowl mesh)
cases=(
  "box_stack_10 2" "box_pyramid 1" "ball_hits_stack 1" "incline_stick 1" "capsule_chain 1"
  "chain_6_links 0.8" "chain_6_links_baumgarte 0.8" "hinge_limit 1" "slider_motor 1"
  "rolling_sphere_hybrid 1" "ellipsoid_drop_hybrid 2" "rattleback_spin 2" "marble_in_bowl 1"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
differ=0
printf '%-26s %-18s %-18s\n' scene g++ clang++
for case in "${cases[@]}"; do
  read -r scene seconds <<<"$case"
  hashes=()
  for preset in release release-clang; do
    out=$work/$preset/$scene
    build/$preset/bin/pivot run "scenes/$scene.json" --out "$out" --duration "$seconds" \
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
