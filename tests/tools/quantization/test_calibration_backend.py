"""Calibration runs the float model on libQnnCpu.so through the qnn package (qnn/quantization/backend_eval.py):
the activation encodings of qnn-onnx-converter --input_list equal the tf formula on statistics computed here
independently in float64 (numpy, from the ONNX model), for the backend route and for the numpy evaluator
(QNN_CALIBRATION_BACKEND=numpy); the two routes' weights are byte-identical; a graph the backend cannot build
falls back to the numpy evaluator with one line saying so."""
import json
import os
import subprocess

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

BUILD = os.environ["QNN_BUILD_DIR"]
CONV = os.path.join(BUILD, "bin", "qnn-onnx-converter")
CPU = os.path.join(BUILD, "lib", "x86_64-linux-clang", "libQnnCpu.so")
PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python")


def _model(path, rng):
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    w2 = rng.standard_normal((8, 8, 3, 3)).astype(np.float32) * 0.3
    fc = rng.standard_normal((8 * 6 * 6, 10)).astype(np.float32) * 0.1
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"), numpy_helper.from_array(w2, "w2"),
             numpy_helper.from_array(fc, "fc"), numpy_helper.from_array(np.array([1, -1], np.int64), "shape")]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Conv", ["r", "w2"], ["c2"], pads=[1, 1, 1, 1]), helper.make_node("Sigmoid", ["c2"], ["s"]),
             helper.make_node("Add", ["s", "r"], ["a"]), helper.make_node("Reshape", ["a", "shape"], ["f"]),
             helper.make_node("MatMul", ["f", "fc"], ["m"]), helper.make_node("Softmax", ["m"], ["y"], axis=1)]
    g = helper.make_graph(nodes, "net", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
    return w, b, w2, fc


def _conv(x, w, b=None):   # NCHW, stride 1, pad 1, float64
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, w.shape[0], h, wd))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    return y + (b.reshape(1, -1, 1, 1) if b is not None else 0)


def _reference(x, w, b, w2, fc):
    t = {}
    t["c"] = _conv(x, w.astype(np.float64), b.astype(np.float64))
    t["r"] = np.maximum(t["c"], 0)
    t["c2"] = _conv(t["r"], w2.astype(np.float64))
    t["s"] = 1 / (1 + np.exp(-t["c2"]))
    t["a"] = t["s"] + t["r"]
    t["m"] = t["a"].reshape(1, -1) @ fc.astype(np.float64)
    e = np.exp(t["m"] - t["m"].max())
    t["y"] = e / e.sum()
    return t


def _convert(work, env_backend, extra=()):
    env = dict(os.environ)
    env.pop("QNN_CALIBRATION_BACKEND", None)
    if env_backend:
        env["QNN_CALIBRATION_BACKEND"] = env_backend
    out = os.path.join(work, "numpy" if env_backend == "numpy" else "cpu" if env_backend == CPU else "other")
    os.makedirs(out, exist_ok=True)
    p = subprocess.run([CONV, "-i", os.path.join(work, "m.onnx"), "-o", os.path.join(out, "model.cpp"),
                        "--input_list", os.path.join(work, "list.txt"), *extra], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return out, p.stderr, json.load(open(os.path.join(out, "model_encodings.json")))


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("cal"))
    rng = np.random.default_rng(7)
    weights = _model(os.path.join(d, "m.onnx"), rng)
    lo, hi = {}, {}
    with open(os.path.join(d, "list.txt"), "w") as f:
        for k in range(3):
            x = rng.standard_normal((1, 3, 6, 6)).astype(np.float32)
            x.transpose(0, 2, 3, 1).tofile(os.path.join(d, f"in{k}.raw"))   # the converted graph's NHWC input
            f.write(f"in{k}.raw\n")
            for name, v in _reference(x.astype(np.float64), *weights).items():
                lo[name] = min(lo.get(name, np.inf), float(v.min()))
                hi[name] = max(hi.get(name, -np.inf), float(v.max()))
    return d, lo, hi


def test_the_build_trees_converter_finds_its_libqnncpu():
    code = ("import sys; sys.argv = [sys.argv[1]]; from qnn.quantization.backend_eval import find_backend; "
            "print(find_backend())")
    env = {k: v for k, v in os.environ.items() if k not in ("QNN_CALIBRATION_BACKEND", "QNN_SDK_ROOT")}
    env["PYTHONPATH"] = PYTHON
    p = subprocess.run(["/usr/bin/python3", "-c", code, CONV], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert os.path.realpath(p.stdout.strip()) == os.path.realpath(CPU)


@pytest.mark.parametrize("backend", [CPU, "numpy"])
def test_activation_encodings_match_float64_statistics(work, backend):
    d, lo, hi = work
    _, err, enc = _convert(d, backend)
    assert "numpy evaluator" not in err
    for name in ("c", "r", "c2", "s", "a", "m", "y"):
        e = enc["activation_encodings"][name][0]
        mn, mx = min(lo[name], 0.0), max(hi[name], 0.0)
        want = (mx - mn) / 255
        assert abs(e["scale"] - want) <= 1e-5 * want, (name, e["scale"], want)


def test_routes_store_the_same_weights(work):
    d, _, _ = work
    cpu, _, _ = _convert(d, CPU)
    ref, _, _ = _convert(d, "numpy")
    assert open(os.path.join(cpu, "model.bin"), "rb").read() == open(os.path.join(ref, "model.bin"), "rb").read()


def test_backend_that_cannot_load_falls_back_to_numpy(work):
    d, lo, hi = work
    _, err, enc = _convert(d, os.path.join(d, "no-such-libQnnCpu.so"))
    assert "calibrating with the numpy evaluator" in err and err.count("\n") == 1, err
    assert "m" in enc["activation_encodings"]
