#!/usr/bin/env bash
# Runs a libFuzzer target of tests/fuzz for a while (docs/reliability.md).
#
#   tools/fuzz/run.sh TARGET SECONDS [libFuzzer options...]
#   tools/fuzz/run.sh all SECONDS [...]        every target in turn, SECONDS each
#   tools/fuzz/run.sh --fast TARGET|all SECONDS [...]
#                                               the same with the `fuzz-fast` preset (no
#                                               sanitizers, -O2, assertions on; 5-20x the
#                                               executions per second, for the long runs)
#
# TARGET is scene_loader, lcp_files, lemke, step, live_messages (pivot serve's message handling)
# or python_args (the Python bindings' argument paths). Configures the `asan` preset (clang++-14,
# ASan + UBSan; the same build as the sanitizer tests) when needed and builds only the fuzz
# targets in it, then runs build/asan/tests/fuzz/fuzz_TARGET from the
# committed corpus (tests/fuzz/corpus/TARGET and tests/fuzz/regressions/TARGET; the scene
# loader also from the shipped scenes and with the schema's dictionary). New inputs go to
# build/asan/corpus/TARGET (never into the source tree), a crash input to
# build/asan/artifacts/TARGET/. Exits non-zero on a finding (crash, sanitizer report, leak,
# timeout of one input or out of memory). Set PIVOT_FUZZ_JOBS to change the build's -j (2).
set -euo pipefail
cd "$(dirname "$0")/../.."

targets=(scene_loader lcp_files lemke step live_messages python_args)
preset=asan
if [[ ${1:-} == --fast ]]; then
  preset=fuzz-fast
  shift
fi
if [[ $# -lt 2 ]]; then
  echo "usage: tools/fuzz/run.sh [--fast] TARGET|all SECONDS [libFuzzer options...]" >&2
  echo "targets: ${targets[*]}" >&2
  exit 2
fi
which_target=$1
seconds=$2
shift 2
if [[ "$which_target" == all ]]; then
  selected=("${targets[@]}")
else
  [[ " ${targets[*]} " == *" $which_target "* ]] || {
    echo "run.sh: unknown target '$which_target' (${targets[*]})" >&2
    exit 2
  }
  selected=("$which_target")
fi
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || {
  echo "run.sh: SECONDS must be a positive integer, got '$seconds'" >&2
  exit 2
}

build=build/$preset
if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}; fi
[[ -f $build/build.ninja ]] || cmake --preset $preset >/dev/null
build_targets=()
for t in "${selected[@]}"; do build_targets+=(--target "fuzz_$t"); done
cmake --build $build -j "${PIVOT_FUZZ_JOBS:-2}" "${build_targets[@]}"

status=0
for t in "${selected[@]}"; do
  work=$build/corpus/$t
  artifacts=$build/artifacts/$t/
  mkdir -p "$work" "$artifacts"
  inputs=("$work")
  for dir in tests/fuzz/corpus/$t tests/fuzz/regressions/$t; do
    [[ -d $dir ]] && inputs+=("$dir")
  done
  options=(-max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=30
           -artifact_prefix="$artifacts")
  case $t in
    scene_loader) inputs+=("$build/tests/fuzz/seeds/scene_loader")
                  options+=(-dict="$build/tests/fuzz/scene.dict" -max_len=32768) ;;  # the largest shipped scene is 23 kB
    lcp_files) options+=(-max_len=2048) ;;
    lemke) options+=(-max_len=256) ;;
    step) options+=(-max_len=512) ;;
    live_messages) options+=(-max_len=4096) ;;
    python_args) options+=(-max_len=1024) ;;
  esac
  echo "== fuzz_$t for ${seconds} s (corpus $work, crashes in $artifacts)"
  if ! "$build/tests/fuzz/fuzz_$t" "${options[@]}" "$@" "${inputs[@]}"; then
    echo "== fuzz_$t: FINDING (see the input in $artifacts; commit it to tests/fuzz/regressions/$t/)" >&2
    status=1
  fi
done
exit $status
