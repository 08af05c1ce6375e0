#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need. Safe to re-run.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config
          zlib1g-dev nlohmann-json3-dev libtinyxml2-dev libffi-dev
          libgtest-dev libgmock-dev libbenchmark-dev python3
          python3-onnx python3-numpy)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
