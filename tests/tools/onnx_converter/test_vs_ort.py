#!/usr/bin/python3
"""Converted models vs ONNX Runtime: convert with qnn-onnx-converter (default vendor layout: rank-4
inputs NHWC), build with qnn-model-lib-generator, run with qnn-net-run on libQnnCpu.so, run the ONNX
model on ONNX Runtime's CPU provider (onnxruntime-node, ort_run.js) with the same inputs, and require
max |qnn - ort| / max |ort| <= 1e-4 for every output.

usage: test_vs_ort.py BUILD_DIR NODE_MODULES_DIR torchvision|bench GEN_MODELS_PY
       test_vs_ort.py BUILD_DIR NODE_MODULES_DIR files MODEL.onnx...     (manual check of any model)
  torchvision: mobilenet_v2, resnet18 (torchvision exports of make_models.py; needs python3-torchvision)
  bench:       transformer_l4_h256_s128 (+ the LayerNormalization-17 variant), matmul_1024 and the
               helper-built MobileNetV2 / ResNet-18 (BatchNorm pre-folded, Clip with min/max inputs)
exit 77 (skipped) when python3-onnx, node + onnxruntime-node, make_models.py or torchvision are missing.

Tolerance: both sides compute in fp32 with different summation orders; the deepest sums here (ResNet's
3x3x512 = 4608-term convolutions, 1024-term MatMul rows) give relative errors around 1e-6, so 1e-4
catches any layout, padding or parameter mistake (those give errors of order 1) with a wide margin."""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import onnx
except ImportError as e:
    print(f"SKIP: {e} (install python3-onnx python3-numpy)")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-4
SETS = {"torchvision": ["mobilenet_v2", "resnet18"],
        "bench": ["transformer_l4_h256_s128", "transformer_l4_h256_s128_ln17", "matmul_1024",
                  "mobilenet_v2_helper", "resnet18_helper"]}


def skip(msg):
    print(f"SKIP: {msg}")
    sys.exit(testlib.SKIP)


def ort_env(node_modules):
    env = dict(os.environ, NODE_PATH=os.pathsep.join(p for p in (node_modules, os.environ.get("NODE_PATH")) if p))
    try:
        p = subprocess.run(["node", "-e", "require('onnxruntime-node')"], env=env, capture_output=True, text=True)
    except OSError:
        skip("node is not installed (scripts/install-deps.sh installs nodejs and onnxruntime-node)")
    if p.returncode != 0:
        skip(f"onnxruntime-node not found in '{node_modules}' or NODE_PATH "
             "(scripts/install-deps.sh installs it into build/ortnode)")
    return env


def model_inputs(path):
    m = onnx.load(path, load_external_data=False)
    inits = {i.name for i in m.graph.initializer}
    return [(vi.name, [d.dim_value for d in vi.type.tensor_type.shape.dim]) for vi in m.graph.input if vi.name not in inits]


def compare(tools, env, model, work):
    name = os.path.splitext(os.path.basename(model))[0]
    rs = np.random.RandomState(1)
    feeds = [(n, rs.randn(*dims).astype(np.float32)) for n, dims in model_inputs(model)]
    got = testlib.convert_and_run(tools, model, feeds, f"{work}/qnn")
    specs = []
    for n, arr in feeds:
        arr.tofile(f"{work}/{n}.onnx_layout.raw")
        specs.append(f"{n}={work}/{n}.onnx_layout.raw:{','.join(map(str, arr.shape))}")
    testlib.run(["node", os.path.join(HERE, "ort_run.js"), model, f"{work}/ort", *specs])
    worst = 0.0
    for out, arr in got.items():
        ref = np.fromfile(f"{work}/ort/{out}.raw", np.float32)
        if ref.size != arr.size:
            sys.exit(f"FAIL: {name}: output {out}: {arr.size} values, ONNX Runtime gave {ref.size}")
        err = testlib.rel_err(arr, ref)
        worst = max(worst, err)
        print(f"{name}: output {out} {list(arr.shape)}: max |qnn-ort| / max |ort| = {err:.3e} "
              f"(max |ort| = {np.abs(ref).max():.3e}, argmax agree: {int(np.argmax(arr)) == int(np.argmax(ref))})")
    return worst


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    build, node_modules, what = sys.argv[1:4]
    tools = testlib.Tools(build)
    env = ort_env(node_modules)
    os.environ.update(env)
    with tempfile.TemporaryDirectory() as tmp:
        if what == "files":
            models = sys.argv[4:]
        else:
            gen = sys.argv[4]
            if not os.path.exists(gen):
                skip(f"make_models.py not found at '{gen}'")
            p = testlib.run(["/usr/bin/python3", gen, f"{tmp}/models"], ok=False)
            if what == "torchvision" and "torch/torchvision unavailable" in p.stdout:
                skip("python3-torch / python3-torchvision are not installed (the torchvision exports need them)")
            models = [f"{tmp}/models/{m}.onnx" for m in SETS[what]]
            missing = [m for m in models if not os.path.exists(m)]
            if missing:
                sys.exit(f"FAIL: make_models.py did not produce {missing}\n{p.stdout}{p.stderr}")
        failed = []
        for m in models:
            work = f"{tmp}/{os.path.splitext(os.path.basename(m))[0]}"
            err = compare(tools, env, m, work)
            if not err <= TOL:
                failed.append(f"{os.path.basename(m)} ({err:.3e})")
        if failed:
            sys.exit(f"FAIL: relative error above {TOL}: {', '.join(failed)}")
    print("PASS")


if __name__ == "__main__":
    main()
