"""qnn-pytorch-converter: torchvision's MobileNetV2 as a TorchScript trace converts to the same model as the ONNX
route (torch.onnx.export -> qnn-onnx-converter): bit-identical outputs on the CPU backend, and within tolerance of
PyTorch's own; a pickled eager module, a two-output module (--out_node names, --dump_out_names) and quantization
flags pass through; bad input is one error line. Skipped without python3-torch."""
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch")

BUILD = os.environ["QNN_BUILD_DIR"]
BIN = os.path.join(BUILD, "bin")
CPU = os.path.join(BUILD, "lib", "x86_64-linux-clang", "libQnnCpu.so")


def run(*cmd, cwd=None, pythonpath=None):
    env = dict(os.environ, PYTHONPATH=str(pythonpath)) if pythonpath else None
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=900, env=env)


def build_and_run(d, cpp, inputs):
    stem = os.path.splitext(os.path.basename(cpp))[0]
    lib = d / f"lib_{stem}_{os.path.basename(os.path.dirname(cpp))}"
    p = run(os.path.join(BIN, "qnn-model-lib-generator"), "-c", cpp, "-b", os.path.splitext(cpp)[0] + ".bin", "-o", lib)
    assert p.returncode == 0, p.stderr
    lst = d / f"{lib.name}_list.txt"
    lst.write_text(" ".join(f"{k}:={v}" for k, v in inputs.items()) + "\n")
    out = d / f"out_{lib.name}"
    p = run(os.path.join(BIN, "qnn-net-run"), "--model", lib / "x86_64-linux-clang" / f"lib{stem}.so", "--backend", CPU,
            "--input_list", lst, "--output_dir", out, "--quiet")
    assert p.returncode == 0, p.stderr
    return out / "Result_0"


TWO_HEADS = """import torch


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        return y, self.fc(y.mean(dim=(2, 3)))
"""


def two_heads(d):
    """A two-output module whose class lives in d/two_heads.py (importable with PYTHONPATH=d)."""
    import importlib.util
    (d / "two_heads.py").write_text(TWO_HEADS)
    spec = importlib.util.spec_from_file_location("two_heads", d / "two_heads.py")
    mod = importlib.util.module_from_spec(spec)
    import sys
    sys.modules["two_heads"] = mod
    spec.loader.exec_module(mod)
    torch.manual_seed(1)
    return mod.TwoHeads().eval()


@pytest.mark.long
def test_mobilenet_v2_trace_equals_the_onnx_route(tmp_path):
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    net = torchvision.models.mobilenet_v2(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    torch.jit.trace(net, x).save(str(tmp_path / "mb.pt"))
    torch.onnx.export(net, x, str(tmp_path / "mb.onnx"), opset_version=13, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    x.numpy().tofile(tmp_path / "in.raw")
    for tool, src, out in (("qnn-pytorch-converter", "mb.pt", "pt"), ("qnn-onnx-converter", "mb.onnx", "onnx")):
        args = ["-d", "input", "1,3,224,224"] if tool == "qnn-pytorch-converter" else []
        p = run(os.path.join(BIN, tool), "-i", tmp_path / src, *args, "-o", tmp_path / out / "mb.cpp",
                "--preserve_io", "layout")
        assert p.returncode == 0, p.stderr
        assert "Warning" not in p.stderr, p.stderr
    a = np.fromfile(build_and_run(tmp_path, str(tmp_path / "pt" / "mb.cpp"), {"input": tmp_path / "in.raw"}) /
                    "output.raw", np.float32)
    b = np.fromfile(build_and_run(tmp_path, str(tmp_path / "onnx" / "mb.cpp"), {"input": tmp_path / "in.raw"}) /
                    "output.raw", np.float32)
    assert np.array_equal(a, b)
    with torch.no_grad():
        ref = net(x).numpy().reshape(-1)
    np.testing.assert_allclose(a, ref, rtol=1e-3, atol=1e-4)


def test_eager_module_two_outputs_and_names(tmp_path):
    m = two_heads(tmp_path)
    torch.save(m, tmp_path / "two.pt")
    x = torch.randn(1, 3, 8, 8)
    x.numpy().tofile(tmp_path / "x.raw")
    p = run(os.path.join(BIN, "qnn-pytorch-converter"), "-i", tmp_path / "two.pt", "-d", "image", "1,3,8,8",
            "--out_node", "features", "--out_node", "logits", "--preserve_io", "layout", "--dump_out_names",
            "-o", tmp_path / "two" / "two.cpp", pythonpath=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads((tmp_path / "two" / "model_output_names.json").read_text()) == {"features": "features",
                                                                                      "logits": "logits"}
    res = build_and_run(tmp_path, str(tmp_path / "two" / "two.cpp"), {"image": tmp_path / "x.raw"})
    with torch.no_grad():
        f, lg = m(x)
    np.testing.assert_allclose(np.fromfile(res / "features.raw", np.float32), f.numpy().reshape(-1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.fromfile(res / "logits.raw", np.float32), lg.numpy().reshape(-1), rtol=1e-4, atol=1e-5)
    # Without names: output_0, output_1. With an input list: quantized like the ONNX route.
    (tmp_path / "list.txt").write_text(f"{tmp_path / 'x.raw'}\n")
    p = run(os.path.join(BIN, "qnn-pytorch-converter"), "-i", tmp_path / "two.pt", "-d", "image", "1,3,8,8",
            "--preserve_io", "layout", "--input_list", tmp_path / "list.txt", "-o", tmp_path / "q" / "two.cpp",
            pythonpath=tmp_path)
    assert p.returncode == 0, p.stderr
    net = json.loads((tmp_path / "q" / "two_net.json").read_text())["graph"]
    assert net["outputs"] == ["output_0", "output_1"]
    assert net["tensors"]["output_1"]["data_type"].startswith("QNN_DATATYPE_UFIXED_POINT")


@pytest.mark.parametrize("case, message", [
    ("no_dims", "--input_dim NAME DIMS is required"),
    ("missing", "does not exist"),
    ("garbage", "neither a TorchScript file nor a pickled torch.nn.Module"),
    ("state_dict", "holds a"),
    ("wrong_dims", "does not run on inputs of the --input_dim shapes"),
    ("custom_ops", "custom PyTorch ops are not supported yet"),
    ("relay", "no Relay to dump"),
    ("out_count", "--out_node names 1 outputs, the model returns 2"),
    ("not_importable", "whose class is not importable"),
])
def test_bad_input_is_one_error_line(tmp_path, case, message):
    m = two_heads(tmp_path)
    torch.jit.trace(m, torch.zeros(1, 3, 8, 8)).save(str(tmp_path / "two.pt"))
    torch.save(m, tmp_path / "eager.pt")   # loadable only with two_heads.py on PYTHONPATH
    torch.save(m.state_dict(), tmp_path / "sd.pt")
    (tmp_path / "junk.pt").write_bytes(b"PK\x03\x04 not a zip at all")
    model, dims = tmp_path / "two.pt", ["-d", "x", "1,3,8,8"]
    extra = {"no_dims": [], "custom_ops": ["-pcl", "/tmp/libx.so"], "relay": ["--dump_relay", "r.txt"],
             "out_count": ["--out_node", "only"]}.get(case, [])
    if case == "no_dims":
        dims = []
    model = {"missing": tmp_path / "nosuch.pt", "garbage": tmp_path / "junk.pt", "state_dict": tmp_path / "sd.pt",
             "not_importable": tmp_path / "eager.pt"}.get(
        case, model)
    if case == "wrong_dims":
        dims = ["-d", "x", "1,5,8,8"]
    p = run(os.path.join(BIN, "qnn-pytorch-converter"), "-i", model, *dims, *extra, "-o", tmp_path / "o" / "m.cpp")
    assert p.returncode == 1 and f"qnn-pytorch-converter: error: {message}" in p.stderr.replace("\n", " ") or \
        message in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
