#!/usr/bin/env bash
# Installs everything tessera needs from Debian's packages (run as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
  cmake make g++ git ca-certificates \
  libboost-dev nlohmann-json3-dev doctest-dev libcli11-dev \
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd clinfo oclgrind \
  libclblast-dev gnuplot-nox clang-format \
  clang libclang-rt-14-dev \
  libopenmpi-dev openmpi-bin
