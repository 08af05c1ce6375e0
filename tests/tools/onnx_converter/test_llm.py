"""A tiny Llama-style decode step exported by torch (llm_model.py: RMSNorm, rotate_half rotary, grouped-query
attention with repeat_interleave or expand+reshape KV repetition, SwiGLU, static KV cache inputs) converts
float and w8a16 and runs on libQnnCpu.so through qnn-net-run; outputs compared with torch's own.
The torch cases are skipped without python3-torch; the constant-folding cases need python3-onnx only."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
BUILD = os.environ["QNN_BUILD_DIR"]
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "python"))
from qnn.converters.onnx import fold  # noqa: E402
BIN = os.path.join(BUILD, "bin")
CPU = os.path.join(BUILD, "lib", "x86_64-linux-clang", "libQnnCpu.so")
HTP = os.path.join(BUILD, "lib", "x86_64-linux-clang", "libQnnHtp.so")


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=900)


def convert_build_run(llm_model, d, onnx_path, feeds, extra=(), backends=(CPU,)):
    """Convert (with --preserve_io), build the model library, run one step on the CPU backend; returns
    {output name: float32 array}."""
    out_dir = d / "conv"
    p = run(os.path.join(BIN, "qnn-onnx-converter"), "-i", onnx_path, "-o", out_dir / "llm.cpp", "--preserve_io",
            *extra)
    assert p.returncode == 0, p.stderr
    p = run(os.path.join(BIN, "qnn-model-lib-generator"), "-c", out_dir / "llm.cpp", "-b", out_dir / "llm.bin",
            "-o", d / "lib")
    assert p.returncode == 0, p.stderr
    net = json.loads((out_dir / "llm_net.json").read_text())["graph"]
    raws = []
    for name in net["inputs"]:
        feeds[name].astype(np.float32).tofile(d / f"{name}.raw")   # qnn-net-run's default: float32 files
        raws.append(f"{name}:={d / (name + '.raw')}")
    (d / "list.txt").write_text(" ".join(raws) + "\n")
    res = []
    for k, be in enumerate(backends):
        p = run(os.path.join(BIN, "qnn-net-run"), "--model", d / "lib" / "x86_64-linux-clang" / "libllm.so",
                "--backend", be, "--input_list", d / "list.txt", "--output_dir", d / f"out{k}")
        assert p.returncode == 0, p.stderr
        res.append({o: np.fromfile(d / f"out{k}" / "Result_0" / f"{o}.raw", np.float32) for o in llm_model.output_names()})
    return (res[0] if len(res) == 1 else res), net


@pytest.fixture
def llm_model():
    pytest.importorskip("torch")
    import llm_model as mod
    return mod


class _Model:
    def __init__(self, consts, shapes=None):
        self.consts, self.shapes, self.dtypes = dict(consts), dict(shapes or {}), {}


def _fold(nodes, consts, shapes=None):
    m = _Model(consts, shapes)
    left = fold.fold_constants(nodes, m)
    return m.consts, left


def test_fold_shape_chains():
    """The chains torch and Hugging Face exports build from static shapes fold to constants (values written
    out by hand here)."""
    n = helper.make_node
    consts, left = _fold([
        n("Shape", ["x"], ["s"]),                                  # a graph input's static shape
        n("Shape", ["c"], ["sc"]),                                 # the shape of a folded constant
        n("ConstantOfShape", ["two"], ["ones"], value=helper.make_tensor("v", 7, [1], [1])),
        n("Equal", ["ones", "minus1"], ["eq"]),
        n("Where", ["eq", "ones", "s2"], ["w"]),
        n("Expand", ["one", "w"], ["e"]),
        n("Split", ["e", "sp"], ["e0", "e1"], axis=0),
        n("Split", ["c"], ["c0", "c1"], axis=1),                   # opset 18: even split over the outputs
        n("Tile", ["c", "reps"], ["t"]),
        n("Trilu", ["sq"], ["tri"], upper=0),
        n("CumSum", ["mask", "zero"], ["pos"]),
        n("ReduceProd", ["s"], ["numel"], keepdims=0),
        n("Not", ["eq"], ["neq"]),
        n("Mod", ["s", "three"], ["m"]),
        n("Relu", ["x"], ["y"]),                                   # not constant: stays
    ], {"c": np.arange(6, dtype=np.float32).reshape(2, 3)[:, :2], "two": np.array([2], np.int64),
        "minus1": np.array([1, -1], np.int64), "s2": np.array([4, 5], np.int64), "one": np.array([[1]], np.int64),
        "sp": np.array([1, 1], np.int64), "reps": np.array([1, 2], np.int64), "sq": np.ones((3, 3), np.float32),
        "mask": np.array([1, 1, 0, 1], np.int64), "zero": np.array(0, np.int64), "three": np.array(3, np.int64)},
        {"x": [1, 4, 9]})
    assert [x.op_type for x in left] == ["Relu"]
    assert consts["s"].tolist() == [1, 4, 9] and consts["sc"].tolist() == [2, 2]
    assert consts["w"].tolist() == [1, 5] and consts["e"].tolist() == [[1] * 5]
    assert consts["e0"].shape == (1, 5) and consts["e1"].shape == (0, 5)
    assert consts["c0"].tolist() == [[0], [3]] and consts["c1"].tolist() == [[1], [4]]
    assert consts["t"].tolist() == [[0, 1, 0, 1], [3, 4, 3, 4]]
    assert consts["tri"].tolist() == [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    assert consts["pos"].tolist() == [1, 2, 2, 3] and int(consts["numel"]) == 36
    assert consts["neq"].tolist() == [False, True] and consts["m"].tolist() == [1, 1, 0]


@pytest.mark.parametrize("repeat", ["repeat_interleave", "expand"])
def test_llm_block_float_matches_torch(tmp_path, repeat, llm_model):
    path, feeds, ref = llm_model.export(str(tmp_path / "model"), repeat)
    got, net = convert_build_run(llm_model, tmp_path, path, feeds)
    for k, want in ref.items():
        np.testing.assert_allclose(got[k], want.reshape(-1), rtol=0, atol=1e-4, err_msg=k)
    # The repeat_interleave chains (Shape/ConstantOfShape/Equal/Where/Expand/Split on constants) fold away.
    types = {n["type"] for n in net["nodes"].values()}
    assert not types & {"ElementWiseSelect", "ElementWiseEqual", "Tile"}
    # RMSNorm and the rotate_half rotary embedding become the native ops (fusions/).
    assert {"RmsNorm", "RotaryEmbedding"} <= types, types


def test_llm_block_w8a16_calibrated(tmp_path, llm_model):
    """--input_list calibration runs through every op the converter emits (the embedding Gather included);
    w8a16 on the CPU backend stays within 0.03 of torch's logits (|logits| <= 1.2; measured 0.013) and within
    0.02 of its KV cache outputs (measured 0.011). The HTP simulator runs the same graph: the attention
    MatMuls' second input (K^T, V: activations) gets a Convert to 8 bits, as the HTP takes no UFIXED_16 there."""
    path, feeds, ref = llm_model.export(str(tmp_path / "model"), "repeat_interleave")
    lines = []
    for seed in range(1, 5):   # seed 1 is the evaluated step itself, as a calibration set would hold
        f = {k: v.numpy() for k, v in llm_model.inputs(seed, pos=llm_model.CTX - 1 + seed % 2).items()}
        parts = []
        for k, v in f.items():
            v.astype(np.float32).tofile(tmp_path / f"cal{seed}_{k}.raw")
            parts.append(f"{k}:={tmp_path / f'cal{seed}_{k}.raw'}")
        lines.append(" ".join(parts))
    (tmp_path / "calib.txt").write_text("\n".join(lines) + "\n")
    (got, htp), net = convert_build_run(llm_model, tmp_path, path, feeds,
                                        ("--input_list", tmp_path / "calib.txt", "--act_bw", "16", "--weight_bw", "8"),
                                        backends=(CPU, HTP))
    assert net["tensors"]["logits"]["data_type"] == "QNN_DATATYPE_UFIXED_POINT_16"
    mm = [op for op in net["nodes"].values() if op["type"] == "MatMul"]
    assert mm and all(net["tensors"][op["input_names"][1]]["data_type"] == "QNN_DATATYPE_UFIXED_POINT_8"
                      for op in mm), [(op["input_names"][1], net["tensors"][op["input_names"][1]]["data_type"]) for op in mm]
    for outs in (got, htp):
        errs = {k: float(np.abs(outs[k] - want.reshape(-1)).max()) for k, want in ref.items()}
        assert errs["logits"] < 0.03, errs
        assert max(v for k, v in errs.items() if k != "logits") < 0.02, errs


def test_accuracy_debugger_takes_inputs_from_the_list(tmp_path, llm_model):
    """qnn-accuracy-debugger with -l alone: the inputs (names, dims, int64 ids) come from the list and the model;
    the float CPU run matches the framework's every layer."""
    path, feeds, _ = llm_model.export(str(tmp_path / "model"), "repeat_interleave")
    parts = []
    for k, v in feeds.items():
        v.astype(np.float32).tofile(tmp_path / f"{k}.f32")
        parts.append(f"{k}:={k}.f32")   # relative to the list's folder
    (tmp_path / "list.txt").write_text(" ".join(parts) + "\n")
    p = subprocess.run([os.path.join(BIN, "qnn-accuracy-debugger"), "-f", "onnx", "-m", path, "-l", tmp_path / "list.txt",
                        "-r", "cpu", "-w", tmp_path / "wd", "--default_verifier", "sqnr,sqnrthreshold,60"],
                       capture_output=True, text=True, timeout=900, cwd=tmp_path / "model")
    assert p.returncode == 0, p.stderr
    s = json.loads((tmp_path / "wd" / "verification" / "latest" / "summary.json").read_text())
    assert s["failing"] == 0 and s["first_divergence"] is None and s["layers"] > 50, s
    ids = np.fromfile(tmp_path / "wd" / "inputs_from_list" / "input_ids.raw", np.int64)
    assert ids.tolist() == feeds["input_ids"].reshape(-1).tolist()
