#!/usr/bin/env bash
# Acceptance test of issue 6: with the installed SDK only, generate each example
# package from its XML, overlay the author's kernels from oppackages/<Pkg>/src/ops,
# build lib<Pkg>.so with the generated CMakeLists.txt (find_package(QNN): public
# headers only), and run the example tests on the installed libQnnCpu.so with
# those libraries. A package generated and built without kernels must fail at
# execution.
set -euo pipefail
build_dir=$1; source_dir=$2; test_program=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
generator=$prefix/bin/qnn-op-package-generator
[ -x "$generator" ] || { echo "missing from the install: bin/qnn-op-package-generator"; exit 1; }

packages="ExampleElementwise ExampleNorm"
args=()
for pkg in $packages; do args+=(--config_path "$source_dir/oppackages/$pkg/config/$pkg.xml"); done
"$generator" "${args[@]}" --output_path "$tmp/gen" >"$tmp/gen.log"

build_package() {  # <package source dir> <build dir>
  cmake -S "$1" -B "$2" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >"$2.log" 2>&1 ||
    { cat "$2.log"; exit 1; }
  cmake --build "$2" >>"$2.log" 2>&1 || { cat "$2.log"; exit 1; }
}

# The skeleton as generated, kernels unwritten.
cp -r "$tmp/gen/ExampleElementwise" "$tmp/unfilled"
build_package "$tmp/unfilled" "$tmp/unfilled-build"

mkdir -p "$tmp/libs"
for pkg in $packages; do
  cp "$source_dir/oppackages/$pkg/src/ops/"*.cpp "$tmp/gen/$pkg/src/ops/"
  build_package "$tmp/gen/$pkg" "$tmp/build-$pkg"
  cp "$tmp/build-$pkg/lib$pkg.so" "$tmp/libs/"
  # Only the interface provider is exported, under its two names.
  exported=$(nm -D --defined-only "$tmp/libs/lib$pkg.so" | awk '$2 == "T" {print $3}' | sort | tr '\n' ' ')
  [ "$exported" = "${pkg}CpuInterfaceProvider ${pkg}InterfaceProvider " ] || { echo "lib$pkg.so exports: $exported"; exit 1; }
done

OPENQNN_TEST_CPU_BACKEND="$prefix/lib/libQnnCpu.so" OPENQNN_TEST_OPPACKAGE_DIR="$tmp/libs" \
  OPENQNN_TEST_UNFILLED_PACKAGE="$tmp/unfilled-build/libExampleElementwise.so" \
  "$test_program" >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
if grep -q "SKIPPED" "$tmp/run.log"; then cat "$tmp/run.log"; echo "a test was skipped"; exit 1; fi
grep -E "^\[  PASSED  \]" "$tmp/run.log"
echo "generated, built against the installed SDK and ran: $packages"
