#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer and UndefinedBehaviorSanitizer (docs/reliability.md),
# but the Oclgrind tests (they check the generated kernels, which the sanitizers do not see), the
# extended tier (more kernels through the same host code; the benchmarks) and MPI (not built
# here: LeakSanitizer reports Open MPI's own allocations at exit). Its tests alone
# took 12.5 of CI's 42 minutes on 2 cores (2026-11-28), after a build of every layer a second
# time, so it runs by hand (before a release, after a change to memory handling); CI runs the
# device-free layers' tests under the sanitizers only.
#
#   scripts/sanitize.sh [BUILD]          default build-asan
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
cmake -S . -B "$build" -DTESSERA_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1"
cmake --build "$build" -j2 --target tessera_tests
ctest --test-dir "$build" --output-on-failure -j2 -E oclgrind -LE extended
