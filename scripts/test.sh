#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build everything, run every test.
#   scripts/test.sh              Release build in build/, every test (what CI runs)
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
#                                (LeakSanitizer included), the same tests; any report fails the test
#                                that caused it. Slower: about 3x the build time, 2-5x the run time.
#   scripts/test.sh --tsan       ThreadSanitizer build in build-tsan/ of the calibration library,
#                                gapsim-cli and test_calib, and the tests of the backends that run
#                                concurrently: the fork pool, MPI ranks (Open MPI's own threads) and
#                                checkpoint/resume with worker processes. Any report fails its test.
# Further arguments go to ctest (e.g. -R Resume, -E gui).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = "--tsan" ]; then
  shift
  export GAPSIM_BUILD_DIR="${GAPSIM_BUILD_DIR:-build-tsan}"
  san="-fsanitize=thread"
  # -O1 -g: line numbers in the reports and a run time TSan's 5-15x slowdown keeps bearable.
  # Only what the tests below need is built (GAPSIM_BUILD_TARGETS, scripts/setup.sh).
  GAPSIM_BUILD_TARGETS="gapsim-cli test_calib" bash scripts/setup.sh -DGAPSIM_BUILD_TESTS=ON -DGAPSIM_BUILD_BENCH=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="$san" \
      -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san"
  # halt_on_error: a report ends the process with exit code 66, so the test (or the gapsim-cli run
  # it checks) fails. Reports inside third-party libraries are suppressed by library name in
  # tsan.supp, never gapsim's code.
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/sanitizers/tsan.supp"
  cd "$GAPSIM_BUILD_DIR"
  ctest --output-on-failure -j"${GAPSIM_JOBS:-$(nproc)}" --timeout 900 \
      -R '^(Evaluators|Resume|Validation)\.' "$@"
  exit
fi
if [ "${1:-}" = "--sanitize" ]; then
  shift
  export GAPSIM_BUILD_DIR="${GAPSIM_BUILD_DIR:-build-asan}"
  san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  # RelWithDebInfo: -O2 as Release (the same code paths) with line numbers in the reports. The
  # fuzzer runs gapsim-cli without its memory limit: ASan reserves terabytes of address space.
  bash scripts/setup.sh -DGAPSIM_BUILD_TESTS=ON -DGAPSIM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
      -DCMAKE_SHARED_LINKER_FLAGS="$san" "-DGAPSIM_FUZZ_MEMORY_LIMIT=--memory-limit;0"
  supp="$PWD/tests/sanitizers"
  # halt_on_error: a report ends the process with a non-zero code, so the test fails. Leaks in the
  # system's libraries (Qt, Mesa, fontconfig) are suppressed by name in lsan.supp, never gapsim's.
  export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:check_initialization_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
  export OMPI_MCA_mca_base_component_disable_dlclose=1  # Open MPI's plugins keep their names for lsan.supp
else
  bash scripts/setup.sh -DGAPSIM_BUILD_TESTS=ON -DGAPSIM_BUILD_BENCH=ON
fi
cd "${GAPSIM_BUILD_DIR:-build}"
ctest --output-on-failure -j"${GAPSIM_JOBS:-$(nproc)}" --timeout 900 "$@"
