"""The decoder fusions (python/qnn/converters/onnx/fusions): hand-built ONNX graphs in the
forms torch and Hugging Face export convert to one QNN RmsNorm / RotaryEmbedding op, run on libQnnCpu.so
(qnn-net-run) and match a float64 numpy evaluation of the unfused ONNX graph; near misses stay unfused (and
still match)."""
import json
import os
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import testlib  # noqa: E402

TOOLS = testlib.Tools(os.environ["QNN_BUILD_DIR"])
n = helper.make_node
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def convert_run(tmp_path, nodes, ins, outs, inits, feeds):
    """-> (outputs {name: array}, QNN op types of the converted graph)."""
    path = str(tmp_path / "m.onnx")
    testlib.save(nodes, [helper.make_tensor_value_info(k, t, s) for k, t, s in ins],
                 [helper.make_tensor_value_info(k, F, s) for k, s in outs], inits, path)
    got = testlib.convert_and_run(TOOLS, path, list(feeds.items()), str(tmp_path / "w"), ("--preserve_io",))
    net = json.load(open(tmp_path / "w" / "m_net.json"))["graph"]
    return got, sorted(op["type"] for op in net["nodes"].values())


def rms_ref(x, gamma, eps):
    x = x.astype(np.float64)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * gamma


RNG = np.random.RandomState(7)
X = (RNG.randn(2, 5, 24) * 3).astype(np.float32)
GAMMA = (1 + 0.1 * RNG.randn(24)).astype(np.float32)


@pytest.mark.parametrize("form", ["torch_rsqrt", "hf_reciprocal_cast", "div_no_gamma", "gamma_first_positive_axis"])
def test_rmsnorm_forms_fuse(tmp_path, form):
    inits = {"two": np.array(2.0, np.float32), "eps": np.array(1e-5, np.float32), "one": np.array(1.0, np.float32),
             "g": GAMMA}
    sq = n("Pow", ["x", "two"], ["sq"]) if form != "hf_reciprocal_cast" else n("Mul", ["x", "x"], ["sq"])
    rm = n("ReduceMean", ["sq"], ["ms"], axes=[2] if form == "gamma_first_positive_axis" else [-1], keepdims=1)
    nodes = [sq, rm, n("Add", ["eps", "ms"], ["v"]), n("Sqrt", ["v"], ["s"])]
    if form == "torch_rsqrt":
        nodes += [n("Div", ["one", "s"], ["r"]), n("Mul", ["x", "r"], ["y"]), n("Mul", ["y", "g"], ["out"])]
    elif form == "hf_reciprocal_cast":
        nodes += [n("Reciprocal", ["s"], ["r"]), n("Mul", ["r", "x"], ["y"]), n("Cast", ["y"], ["yc"], to=F),
                  n("Mul", ["g", "yc"], ["out"])]
    elif form == "div_no_gamma":
        nodes += [n("Div", ["x", "s"], ["out"])]
    else:
        nodes += [n("Div", ["one", "s"], ["r"]), n("Mul", ["r", "x"], ["y"]), n("Mul", ["g", "y"], ["out"])]
    got, ops = convert_run(tmp_path, nodes, [("x", F, X.shape)], [("out", X.shape)], inits, {"x": X})
    assert ops == ["RmsNorm"], ops
    want = rms_ref(X, 1.0 if form == "div_no_gamma" else GAMMA, 1e-5)
    assert np.abs(got["out"] - want).max() < 2e-6 * np.abs(want).max()


def test_rmsnorm_near_misses_stay_unfused(tmp_path):
    """A mean over another axis, and x^3 instead of x^2: not RMSNorm, not fused (the results still match)."""
    inits = {"two": np.array(2.0, np.float32), "three": np.array(3.0, np.float32), "eps": np.array(1e-5, np.float32),
             "one": np.array(1.0, np.float32)}
    nodes = [n("Pow", ["x", "two"], ["sq"]), n("ReduceMean", ["sq"], ["ms"], axes=[1], keepdims=1),
             n("Add", ["ms", "eps"], ["v"]), n("Sqrt", ["v"], ["s"]), n("Div", ["x", "s"], ["a"]),
             n("Pow", ["x", "three"], ["cu"]), n("ReduceMean", ["cu"], ["ms2"], axes=[-1], keepdims=1),
             n("Add", ["ms2", "eps"], ["v2"]), n("Sqrt", ["v2"], ["s2"]), n("Div", ["x", "s2"], ["b"])]
    x = np.abs(X) + 0.5
    got, ops = convert_run(tmp_path, nodes, [("x", F, X.shape)], [("a", X.shape), ("b", X.shape)], inits, {"x": x})
    assert "RmsNorm" not in ops, ops
    xd = x.astype(np.float64)
    np.testing.assert_allclose(got["a"], xd / np.sqrt((xd ** 2).mean(1, keepdims=True) + 1e-5), rtol=1e-5)
    np.testing.assert_allclose(got["b"], xd / np.sqrt((xd ** 3).mean(-1, keepdims=True) + 1e-5), rtol=1e-5)


B, H, S, D, P = 1, 3, 4, 8, 16


def rope_tables(equal_halves=True):
    inv = 1.0 / (10000 ** (np.arange(0, D, 2) / D))
    ang = np.outer(np.arange(P), inv)
    ang = np.concatenate([ang, ang if equal_halves else ang * 1.5], -1)
    return np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)


def rope_ref(x, cos, sin):
    """x * cos + rotate_half(x) * sin in float64 (cos, sin broadcast against [B, H, S, D])."""
    x = x.astype(np.float64)
    rot = np.concatenate([-x[..., D // 2:], x[..., :D // 2]], -1)
    return x * cos + rot * sin


def rope_nodes(cos, sin, swap=False):
    """The torch export of q * cos + rotate_half(q) * sin (Slice with constant starts/ends/axes)."""
    mul_c = n("Mul", [cos, "q"] if swap else ["q", cos], ["qc"])
    return [mul_c,
            n("Slice", ["q", "h", "big", "ax"], ["q2"]), n("Neg", ["q2"], ["nq2"]),
            n("Slice", ["q", "zero", "h", "ax"], ["q1"]), n("Concat", ["nq2", "q1"], ["rot"], axis=-1),
            n("Mul", [sin, "rot"] if swap else ["rot", sin], ["qs"]),
            n("Add", ["qs", "qc"] if swap else ["qc", "qs"], ["out"])]


def rope_consts():
    return {"h": np.array([D // 2], np.int64), "big": np.array([2 ** 62], np.int64), "ax": np.array([-1], np.int64),
            "zero": np.array([0], np.int64), "one_ax": np.array([1], np.int64)}


@pytest.mark.parametrize("swap", [False, True])
def test_rotary_gathered_tables_fuse(tmp_path, swap):
    """cos/sin = table[position_ids][:, None] (the Llama example's form) -> RotaryEmbedding with position_ids."""
    ct, st = rope_tables()
    inits = dict(rope_consts(), ct=ct, st=st)
    nodes = [n("Gather", ["ct", "pos"], ["cg"], axis=0), n("Unsqueeze", ["cg", "one_ax"], ["cos"]),
             n("Gather", ["st", "pos"], ["sg"], axis=0), n("Unsqueeze", ["sg", "one_ax"], ["sin"])] \
        + rope_nodes("cos", "sin", swap)
    q = RNG.randn(B, H, S, D).astype(np.float32)
    pos = np.array([[9, 3, 15, 0]], np.int64)
    got, ops = convert_run(tmp_path, nodes, [("q", F, q.shape), ("pos", I64, pos.shape)], [("out", q.shape)],
                           inits, {"q": q, "pos": pos})
    assert ops == ["RotaryEmbedding"], ops
    want = rope_ref(q, ct[pos][:, None], st[pos][:, None])
    assert np.abs(got["out"] - want).max() < 1e-5


def test_rotary_constant_tables_fuse(tmp_path):
    """cos/sin constants [S, D] (positions 0..S-1 folded at export) -> RotaryEmbedding with [1, S, D/2] caches."""
    ct, st = rope_tables()
    inits = dict(rope_consts(), cos=ct[2:2 + S], sin=st[2:2 + S])
    q = RNG.randn(B, H, S, D).astype(np.float32)
    got, ops = convert_run(tmp_path, rope_nodes("cos", "sin"), [("q", F, q.shape)], [("out", q.shape)], inits, {"q": q})
    assert ops == ["RotaryEmbedding"], ops
    assert np.abs(got["out"] - rope_ref(q, ct[2:2 + S], st[2:2 + S])).max() < 1e-5


def test_rotary_unequal_halves_stay_unfused(tmp_path):
    """Tables whose halves differ have no exact QNN RotaryEmbedding form: left as Mul/Concat/... (still right)."""
    ct, st = rope_tables(equal_halves=False)
    inits = dict(rope_consts(), cos=ct[:S], sin=st[:S])
    q = RNG.randn(B, H, S, D).astype(np.float32)
    got, ops = convert_run(tmp_path, rope_nodes("cos", "sin"), [("q", F, q.shape)], [("out", q.shape)], inits, {"q": q})
    assert "RotaryEmbedding" not in ops, ops
    assert np.abs(got["out"] - rope_ref(q, ct[:S], st[:S])).max() < 1e-5


def test_rotary_quantized_tables_take_the_activation_bitwidth(tmp_path):
    """Quantized (w8a16), the fused op's cos/sin caches get 16-bit encodings as the gathered activations of
    the unfused graph had, not the weights' 8 (or 4) bits; the result stays within 16-bit error of float64."""
    ct, st = rope_tables()
    inits = dict(rope_consts(), ct=ct, st=st)
    nodes = [n("Gather", ["ct", "pos"], ["cg"], axis=0), n("Unsqueeze", ["cg", "one_ax"], ["cos"]),
             n("Gather", ["st", "pos"], ["sg"], axis=0), n("Unsqueeze", ["sg", "one_ax"], ["sin"])] \
        + rope_nodes("cos", "sin")
    q = RNG.randn(B, H, S, D).astype(np.float32)
    pos = np.array([[9, 3, 15, 0]], np.int64)
    q.tofile(tmp_path / "q.raw")
    pos.astype(np.float32).tofile(tmp_path / "pos.raw")
    (tmp_path / "cal.txt").write_text(f"q:={tmp_path / 'q.raw'} pos:={tmp_path / 'pos.raw'}\n")
    path = str(tmp_path / "m.onnx")
    testlib.save(nodes, [helper.make_tensor_value_info("q", F, q.shape), helper.make_tensor_value_info("pos", I64, pos.shape)],
                 [helper.make_tensor_value_info("out", F, q.shape)], inits, path)
    got = testlib.convert_and_run(TOOLS, path, [("q", q), ("pos", pos)], str(tmp_path / "w"),
                                  ("--preserve_io", "--input_list", str(tmp_path / "cal.txt"), "--act_bw", "16",
                                   "--weight_bw", "8"))
    net = json.load(open(tmp_path / "w" / "m_net.json"))["graph"]
    rope = [op for op in net["nodes"].values() if op["type"] == "RotaryEmbedding"]
    assert len(rope) == 1
    for t in rope[0]["input_names"][1:3]:
        assert net["tensors"][t]["data_type"] == "QNN_DATATYPE_UFIXED_POINT_16", (t, net["tensors"][t]["data_type"])
    want = rope_ref(q, ct[pos][:, None], st[pos][:, None])
    assert np.abs(got["out"] - want).max() < 3e-3 * np.abs(want).max()
