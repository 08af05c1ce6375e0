#!/usr/bin/env bash
# Runs qnn-model-lib-generator on one bad input and checks that it fails the way
# the tool promises: non-zero exit, and a first stderr line
# "qnn-model-lib-generator: error: ..." containing the expected words.
#   check_generator_error.sh GENERATOR SOURCE_DIR CASE
set -uo pipefail
gen=$1; src=$2; case_name=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
model=$src/small_cnn/model.cpp

case $case_name in
  missing_cpp)
    args=(-c "$work/nope.cpp"); expect="does not exist" ;;
  corrupt_bin)
    head -c 3000 /dev/urandom > "$work/model.bin"
    args=(-c "$model" -b "$work/model.bin"); expect="is not a readable tar archive" ;;
  empty_bin)
    : > "$work/model.bin"
    args=(-c "$model" -b "$work/model.bin"); expect="is not a readable tar archive" ;;
  unsupported_target)
    args=(-c "$model" -t aarch64-android); expect="unsupported target 'aarch64-android'" ;;
  cpp_does_not_compile)
    args=(-c "$src/broken/model.cpp"); expect="compiling" ;;
  weights_missing)
    # A valid tar without fc1_bias.raw.
    python3 - "$work/model.bin" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    for n, size in (("conv1_weight", 432), ("conv1_bias", 16), ("fc1_weight", 2560)):
        info = tarfile.TarInfo(n + ".raw"); info.size = size
        t.addfile(info, io.BytesIO(bytes(size)))
PY
    args=(-c "$model" -b "$work/model.bin"); expect="missing from model.bin: fc1_bias" ;;
  no_bin)
    args=(-c "$model"); expect="no -b given" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac

"$gen" "${args[@]}" -o "$work/out" >"$work/stdout" 2>"$work/stderr"
rc=$?
first=$(head -n 1 "$work/stderr")
if [ "$rc" -eq 0 ]; then echo "FAIL: exit 0 for $case_name"; cat "$work/stderr"; exit 1; fi
case $first in
  "qnn-model-lib-generator: error: "*"$expect"*) ;;
  *) echo "FAIL: first stderr line for $case_name is: $first"; echo "expected it to contain: $expect"; exit 1 ;;
esac
if [ -e "$work/out/x86_64-linux-clang" ] && ls "$work/out/x86_64-linux-clang"/*.so >/dev/null 2>&1; then
  echo "FAIL: a library was written despite the error"; exit 1
fi
echo "ok ($case_name, exit $rc): $first"
