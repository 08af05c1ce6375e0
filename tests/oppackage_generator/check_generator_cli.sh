#!/usr/bin/env bash
# qnn-op-package-generator on the command line: what it writes, what it keeps on
# a re-run, what -f does, and how it fails.
set -uo pipefail
generator=$1; source_dir=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
xml=$source_dir/oppackages/ExampleElementwise/config/ExampleElementwise.xml
pkg=$tmp/out/ExampleElementwise

"$generator" --config_path "$xml" --output_path "$tmp/out" >"$tmp/log1" 2>&1 || fail "first run: $(cat "$tmp/log1")"
for f in CMakeLists.txt config/ExampleElementwise.xml include/ExampleElementwiseOps.h src/ExampleElementwisePackage.h \
         src/ExampleElementwiseInterface.cpp src/ExampleElementwiseValidation.cpp src/ops/ScaledSoftplus.cpp \
         src/ops/Relu6Custom.cpp; do
  [ -f "$pkg/$f" ] || fail "not generated: $f"
done
grep -q "KERNEL BODY: TO BE WRITTEN BY THE PACKAGE AUTHOR" "$pkg/src/ops/Relu6Custom.cpp" || fail "kernel not marked"
grep -q "QNN_OP_PACKAGE_ERROR_GENERAL" "$pkg/src/ops/Relu6Custom.cpp" || fail "placeholder kernel does not fail"
grep -q "ExampleElementwiseCpuInterfaceProvider" "$pkg/src/ExampleElementwiseInterface.cpp" || fail "no interface provider"

# Generated code includes public QNN headers and its own files only.
includes=$(grep -rhoE '#include "[^"]+"' "$pkg" | sed 's/#include "//; s/"$//' | sort -u)
for inc in $includes; do
  case "$inc" in
    ExampleElementwise*) ;;
    *) [ -f "$source_dir/include/QNN/$inc" ] || fail "generated code includes a non-public header: $inc" ;;
  esac
done

# Re-run without -f: the edited kernel stays, generated files are rewritten.
echo "// edited by the author" >>"$pkg/src/ops/Relu6Custom.cpp"
echo "// stray edit" >>"$pkg/include/ExampleElementwiseOps.h"
"$generator" -p "$xml" -o "$tmp/out" >"$tmp/log2" 2>&1 || fail "second run: $(cat "$tmp/log2")"
grep -q "edited by the author" "$pkg/src/ops/Relu6Custom.cpp" || fail "re-run without -f overwrote an edited kernel"
grep -q "kept src/ops/Relu6Custom.cpp" "$tmp/log2" || fail "kept file not reported: $(cat "$tmp/log2")"
grep -q "stray edit" "$pkg/include/ExampleElementwiseOps.h" && fail "generated header not regenerated"

# -f deletes the package and generates it anew.
touch "$pkg/leftover.txt"
"$generator" -p "$xml" -o "$tmp/out" -f >"$tmp/log3" 2>&1 || fail "-f run: $(cat "$tmp/log3")"
grep -q "edited by the author" "$pkg/src/ops/Relu6Custom.cpp" && fail "-f kept the edited kernel"
[ -e "$pkg/leftover.txt" ] && fail "-f did not delete the existing package"
"$generator" -p "$xml" -o "$tmp/out" --force-generation >/dev/null 2>&1 || fail "--force-generation rejected"

# HTP is accepted in the XML and reported as not generated.
"$generator" -p "$source_dir/oppackages/ExampleNorm/config/ExampleNorm.xml" -o "$tmp/out" >"$tmp/log4" 2>&1 ||
  fail "ExampleNorm: $(cat "$tmp/log4")"
grep -q "backend HTP: not generated" "$tmp/log4" || fail "no HTP message: $(cat "$tmp/log4")"

# A bad config: file:line diagnostics, exit 1, nothing written (even for a good config given with it).
bad=$source_dir/tests/oppackage_generator/bad_xml/unknown_datatype.xml
if "$generator" -p "$xml" -p "$bad" -o "$tmp/bad" >"$tmp/log5" 2>&1; then fail "bad config accepted"; fi
grep -q "unknown_datatype.xml:9: error: <Datatype> 'QNN_DATATYPE_FLOAT_31'" "$tmp/log5" || fail "diagnostic: $(cat "$tmp/log5")"
[ -e "$tmp/bad" ] && fail "files written despite a bad config"

# Usage errors.
"$generator" -o "$tmp/x" >/dev/null 2>&1 && fail "missing --config_path accepted"
"$generator" -p "$xml" -cop >/dev/null 2>&1 && fail "--converter_op_package accepted"
"$generator" -p "$xml" --bogus >/dev/null 2>&1 && fail "unknown flag accepted"
"$generator" --help | grep -q -- "--config_path" || fail "--help"
echo "qnn-op-package-generator command line: ok"
