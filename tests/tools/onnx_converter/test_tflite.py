"""qnn-tflite-converter on TFLite models built here with the flatbuffers builder (tflite_writer.py): a float CNN
(Conv2D SAME + ReLU6, depthwise stride 2 + ReLU, average pool, reshape, fully connected, softmax) against a numpy
reference of the same layers in NHWC, and its int8 version (per-channel weights, int32 biases, int8 activations)
against a numpy simulation of the quantized layers, with the TFLite encodings found unchanged in model_net.json;
damaged files, unsupported ops and bad flags are one error line."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from tflite_writer import ModelWriter  # noqa: E402

BUILD = os.environ["QNN_BUILD_DIR"]
BIN = os.path.join(BUILD, "bin")
CPU = os.path.join(BUILD, "lib", "x86_64-linux-clang", "libQnnCpu.so")
R = np.random.RandomState(5)
W_CONV = (R.randn(4, 3, 3, 3) * 0.4).astype(np.float32)     # O H W I
B_CONV = (R.randn(4) * 0.1).astype(np.float32)
W_DW = (R.randn(1, 3, 3, 4) * 0.5).astype(np.float32)       # 1 H W C
B_DW = (R.randn(4) * 0.1).astype(np.float32)
W_FC = (R.randn(5, 16) * 0.5).astype(np.float32)
B_FC = (R.randn(5) * 0.1).astype(np.float32)
X = R.uniform(-1, 1, (1, 8, 8, 3)).astype(np.float32)


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600)


# ---- numpy reference (NHWC) ----
def conv_nhwc(x, w, b, stride, depthwise=False):
    n, h, wd, c = x.shape
    kh, kw = w.shape[1], w.shape[2]
    oh, ow = -(-h // stride), -(-wd // stride)
    ph = max((oh - 1) * stride + kh - h, 0)
    pw = max((ow - 1) * stride + kw - wd, 0)
    xp = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    cout = w.shape[3] if depthwise else w.shape[0]
    y = np.zeros((n, oh, ow, cout), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            if depthwise:
                y[:, i, j, :] = np.einsum("nhwc,hwc->nc", patch, w[0])
            else:
                y[:, i, j, :] = np.einsum("nhwc,ohwc->no", patch, w)
    return y + b


def forward(x, fq=lambda v, name: v):
    """The CNN; fq(value, tensor name) fake-quantizes an activation (identity for float)."""
    y = fq(np.clip(conv_nhwc(x, W_CONV, B_CONV, 1), 0, 6), "conv")
    y = fq(np.maximum(conv_nhwc(y, W_DW, B_DW, 2, depthwise=True), 0), "dw")
    y = fq(y.reshape(1, 2, 2, 2, 2, 4).mean(axis=(2, 4)), "pool")
    y = fq(y.reshape(1, 16) @ W_FC.T + B_FC, "fc")
    e = np.exp(y - y.max())
    return fq(e / e.sum(), "prob")


# ---- model builders ----
ACT = {"x": (2.0 / 255, -1), "conv": (6.0 / 255, -128), "dw": (8.0 / 255, -128), "pool": (6.0 / 255, -128),
       "fc": (12.0 / 255, 0), "prob": (1.0 / 256, -128)}


def per_channel(w, axis):
    m = np.abs(w).max(axis=tuple(i for i in range(w.ndim) if i != axis))
    s = np.maximum(m, 1e-6) / 127.0
    shape = [1] * w.ndim
    shape[axis] = -1
    return np.clip(np.round(w / s.reshape(shape)), -127, 127).astype(np.int8), s


def build(path, quantized):
    mw = ModelWriter()

    def act(name, shape):
        if quantized:
            s, z = ACT[name]
            return mw.tensor(name, shape, np.int8, scale=s, zero_point=z)
        return mw.tensor(name, shape)

    def weights(name, w, b, axis, in_scale):
        if not quantized:
            return mw.tensor(name + "_w", w.shape, data=w), mw.tensor(name + "_b", b.shape, data=b)
        q, s = per_channel(w, axis)
        bq = np.round(b / (in_scale * s)).astype(np.int32)
        return (mw.tensor(name + "_w", w.shape, np.int8, data=q, scale=s, zero_point=np.zeros(s.size), axis=axis),
                mw.tensor(name + "_b", b.shape, np.int32, data=bq, scale=in_scale * s, zero_point=np.zeros(s.size)))
    x = act("x", [1, 8, 8, 3])
    cw, cb = weights("conv", W_CONV, B_CONV, 0, ACT["x"][0])
    conv = act("conv", [1, 8, 8, 4])
    mw.op("CONV_2D", [x, cw, cb], [conv], padding=0, stride=1, act=3)
    dw_w, dw_b = weights("dw", W_DW, B_DW, 3, ACT["conv"][0])
    dw = act("dw", [1, 4, 4, 4])
    mw.op("DEPTHWISE_CONV_2D", [conv, dw_w, dw_b], [dw], padding=0, stride=2, act=1)
    pool = act("pool", [1, 2, 2, 4])
    mw.op("AVERAGE_POOL_2D", [dw], [pool], padding=1, stride=2, filter=2)
    flat = act("pool", [1, 16]) if not quantized else mw.tensor("flat", [1, 16], np.int8, scale=ACT["pool"][0],
                                                                 zero_point=ACT["pool"][1])
    mw.op("RESHAPE", [pool], [flat], new_shape=[1, 16])
    fw, fb = weights("fc", W_FC, B_FC, 0, ACT["pool"][0])
    fc = act("fc", [1, 5])
    mw.op("FULLY_CONNECTED", [flat, fw, fb], [fc])
    prob = act("prob", [1, 5])
    mw.op("SOFTMAX", [fc], [prob], beta=1.0)
    mw.inputs, mw.outputs = [x], [prob]
    mw.write(path)


def convert_and_run(tmp_path, name, *flags):
    model = tmp_path / f"{name}.tflite"
    p = run(os.path.join(BIN, "qnn-tflite-converter"), "-i", model, "-o", tmp_path / name / "m.cpp", *flags)
    assert p.returncode == 0, p.stderr
    p = run(os.path.join(BIN, "qnn-model-lib-generator"), "-c", tmp_path / name / "m.cpp", "-b",
            tmp_path / name / "m.bin", "-o", tmp_path / name / "lib")
    assert p.returncode == 0, p.stderr
    X.tofile(tmp_path / "x.raw")
    (tmp_path / "list.txt").write_text(f"{tmp_path / 'x.raw'}\n")
    p = run(os.path.join(BIN, "qnn-net-run"), "--model", tmp_path / name / "lib" / "x86_64-linux-clang" / "libm.so",
            "--backend", CPU, "--input_list", tmp_path / "list.txt", "--output_dir", tmp_path / name / "out", "--quiet")
    assert p.returncode == 0, p.stderr
    net = json.loads((tmp_path / name / "m_net.json").read_text())["graph"]
    return np.fromfile(tmp_path / name / "out" / "Result_0" / "prob.raw", np.float32), net


def test_float_cnn_matches_numpy(tmp_path):
    build(tmp_path / "float.tflite", quantized=False)
    got, net = convert_and_run(tmp_path, "float")
    assert net["tensors"]["x"]["dims"] == [1, 8, 8, 3]   # TFLite's NHWC at the graph's input
    assert not any(n["type"] == "Transpose" for n in net["nodes"].values())   # the layout wrappers cancel
    np.testing.assert_allclose(got, forward(X.astype(np.float64)).reshape(-1), rtol=1e-4, atol=1e-6)


def test_int8_cnn_keeps_its_encodings_and_matches_the_quantized_layers(tmp_path):
    build(tmp_path / "int8.tflite", quantized=True)
    got, net = convert_and_run(tmp_path, "int8")
    for name in ("conv", "dw", "fc", "prob"):
        q = net["tensors"][name]["quant_params"]
        s, z = ACT[name]
        assert q["scale"][0] == pytest.approx(s, rel=1e-6) and q["offset"][0] == -z, (name, q)
    wq = net["tensors"][next(t for t in net["tensors"] if t.startswith("conv_w"))]["quant_params"]
    assert wq["encoding"] == "AXIS_SCALE_OFFSET" and len(wq["scale"]) == 4

    def fq(v, name):
        s, z = ACT[name]
        return (np.clip(np.round(v / s) + z, -128, 127) - z) * s
    # Dequantized weights, every activation fake-quantized: the int8 model's own arithmetic in float.
    global W_CONV, W_DW, W_FC
    saved = W_CONV, W_DW, W_FC
    try:
        W_CONV = (lambda q, s: q * s.reshape(-1, 1, 1, 1))(*per_channel(saved[0], 0))
        W_DW = (lambda q, s: q * s.reshape(1, 1, 1, -1))(*per_channel(saved[1], 3))
        W_FC = (lambda q, s: q * s.reshape(-1, 1))(*per_channel(saved[2], 0))
        ref = forward(fq(X.astype(np.float64), "x"), fq).reshape(-1)
    finally:
        W_CONV, W_DW, W_FC = saved
    assert np.abs(got - ref).max() <= 3 / 256, (got, ref)   # within three output steps


@pytest.mark.parametrize("case, message", [
    ("not_tflite", "is not a TFLite model"),
    ("truncated", "damaged TFLite model"),
    ("unsupported", "unsupported TFLite op MEAN"),
    ("bad_dim_name", "not an input of the model"),
    ("relay", "no Relay to dump"),
])
def test_bad_input_is_one_error_line(tmp_path, case, message):
    build(tmp_path / "m.tflite", quantized=False)
    path, extra = tmp_path / "m.tflite", []
    if case == "not_tflite":
        path.write_bytes(b"\x00" * 64)
    elif case == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 3])
    elif case == "unsupported":
        mw = ModelWriter()
        x = mw.tensor("x", [1, 4, 4, 2])
        axes = mw.tensor("axes", [2], np.int32, data=np.array([1, 2], np.int32))
        y = mw.tensor("y", [1, 2])
        mw.op("MEAN", [x, axes], [y])
        mw.inputs, mw.outputs = [x], [y]
        mw.write(path)
        # MEAN is supported; make it unsupported by a dynamic axes tensor
        mw.tensors[1].data = None
        mw.write(path)
        message = "MEAN axes 'axes' must be a constant"
    elif case == "bad_dim_name":
        extra = ["-d", "nosuch", "1,8,8,3"]
    elif case == "relay":
        extra = ["--dump_relay", "r.txt"]
    p = run(os.path.join(BIN, "qnn-tflite-converter"), "-i", path, "-o", tmp_path / "o" / "m.cpp", *extra)
    assert p.returncode == 1 and message in p.stderr and "Traceback" not in p.stderr, p.stderr
