#!/usr/bin/env bash
# `pip install ./python` offline with Debian's pip and setuptools, into a fresh venv: every console script of
# pyproject.toml is installed under its vendor name and answers --help, the package data is there, and the
# venv's qnn-onnx-converter and qairt-converter write the same files, byte for byte, as the build tree's.
set -euo pipefail
build_dir=$(cd "$1" && pwd); source_dir=$(cd "$2" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset PYTHONPATH
# pip builds in the source directory (build/, *.egg-info): build from a copy.
mkdir "$tmp/src" && (cd "$source_dir/python" && tar --exclude=__pycache__ --exclude=build --exclude='*.egg-info' -cf - .) \
  | tar -xf - -C "$tmp/src"
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --no-index --no-build-isolation --no-deps "$tmp/src" \
  || { echo "pip install of python/ failed"; exit 1; }
cd "$tmp"
"$tmp/venv/bin/python" - "$tmp/venv" <<'PY'
import os, sys
import qnn, qnn._build, qnn.tools.accuracy_debugger.framework_runner as fr
venv = os.path.realpath(sys.argv[1])
assert os.path.realpath(qnn.__file__).startswith(venv), f"qnn imported from {qnn.__file__}, not the venv"
assert os.path.isfile(os.path.join(os.path.dirname(fr.__file__), "ort_intermediates.js")), "package data missing"
assert qnn._build._OPDEFS, "opdefs.json not loaded"
PY
tools=$(sed -n '/^\[project.scripts\]/,/^\[/s/^\([a-z0-9-]*\) = ".*/\1/p' "$source_dir/python/pyproject.toml")
[ -n "$tools" ] || { echo "no [project.scripts] in pyproject.toml"; exit 1; }
for t in $tools; do
  [ -x "$tmp/venv/bin/$t" ] || { echo "console script $t not installed"; exit 1; }
  "$tmp/venv/bin/$t" --help > "$tmp/help.txt" 2>&1 || { echo "$t --help failed:"; cat "$tmp/help.txt"; exit 1; }
  grep -q "usage: $t" "$tmp/help.txt" || { echo "$t --help does not name itself:"; head -3 "$tmp/help.txt"; exit 1; }
  [ -x "$build_dir/bin/$t" ] || { echo "build tree launcher bin/$t missing"; exit 1; }
done
# One conversion each way: the venv's tools and the build tree's write identical files.
"$tmp/venv/bin/python" - "$tmp/m.onnx" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
w = numpy_helper.from_array(np.random.default_rng(3).standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["c"], ["y"])],
                      "net", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])], [w])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
PY
for route in venv build; do
  bin=$tmp/venv/bin; [ $route = build ] && bin=$build_dir/bin
  mkdir -p "$tmp/$route" && cd "$tmp/$route"
  "$bin/qnn-onnx-converter" -i ../m.onnx -o model.cpp > log.txt 2>&1 \
    || { echo "$route qnn-onnx-converter failed:"; cat log.txt; exit 1; }
  "$bin/qairt-converter" -i ../m.onnx -o model.dlc >> log.txt 2>&1 || { echo "$route qairt-converter failed:"; cat log.txt; exit 1; }
done
# (model_net.json records the command line, whose program path differs)
sed -i '/"converter_command":/d' "$tmp/venv/model_net.json" "$tmp/build/model_net.json"
for f in model.cpp model.bin model_net.json model.dlc; do
  [ -s "$tmp/venv/$f" ] || { echo "the venv's converter wrote no $f"; exit 1; }
  cmp -s "$tmp/venv/$f" "$tmp/build/$f" || { echo "$f differs between the venv's and the build tree's converter"; exit 1; }
done
echo "pip install ./python: $(echo $tools | wc -w) console scripts, package data, conversions identical to the build tree's: ok"
