#!/usr/bin/env bash
# Installs what the benchmarks (not the build or the tests) need beyond scripts/install-deps.sh:
# Halide 14 for bench/cpu_peers (run as root; about 300 MB with LLVM 14). Kept apart so that
# CI's installation does not grow.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends libhalide14-0-dev
