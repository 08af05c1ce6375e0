#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need. Safe to re-run.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config
          zlib1g-dev nlohmann-json3-dev libtinyxml2-dev libffi-dev libyaml-dev
          libgtest-dev libgmock-dev libbenchmark-dev python3 python3-venv python3-pip python3-setuptools python3-wheel
          python3-onnx python3-numpy python3-yaml python3-clang python3-pytest python3-pil python3-flatbuffers libonnx-testdata)
# References the converter's accuracy tests compare with (tests skip without them; set
# QNN_SKIP_REFERENCE_DEPS=1 to leave them out): torchvision models and ONNX Runtime via node;
# and chromium, the headless browser the HTML profile report is checked in. libopenblas0-pthread
# takes over libblas.so.3 from the reference BLAS Debian's torch otherwise links (a 1024^3 product
# 41 ms instead of 540-750; examples/llm trains ~8x faster).
if [ "${QNN_SKIP_REFERENCE_DEPS:-0}" != 1 ]; then
  packages+=(python3-torch python3-torchvision libopenblas0-pthread nodejs chromium)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# onnxruntime-node (pinned by tests/tools/onnx_converter/ortnode/package-lock.json) into a project-local
# dir; the CPU provider ships in the package, so the optional CUDA download is skipped.
if [ "${QNN_SKIP_REFERENCE_DEPS:-0}" != 1 ]; then
  here=$(cd "$(dirname "$0")/.." && pwd)
  ortdir=${QNN_ORTNODE_DIR:-$here/build/ortnode}
  lock=$here/tests/tools/onnx_converter/ortnode/package-lock.json
  if ! cmp -s "$lock" "$ortdir/package-lock.json" || [ ! -d "$ortdir/node_modules/onnxruntime-node" ]; then
    mkdir -p "$ortdir"
    cp "$here/tests/tools/onnx_converter/ortnode/package.json" "$lock" "$ortdir/"
    (cd "$ortdir" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
