"""qnn-architecture-checker: the rules fire on the nodes they describe (CSV columns as documented), and
apply=elwisediv rewrites x / c into x * (1 / c): on the HTP simulator the rewritten model's outputs stay within
two quantization steps of the original's and the simulator's accelerator-time estimate drops. Bad input is one
error line."""
import csv
import os
import re
import subprocess

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper, save

BUILD = os.environ["QNN_BUILD_DIR"]
BIN = os.path.join(BUILD, "bin")
HTP = os.path.join(BUILD, "lib", "x86_64-linux-clang", "libQnnHtp.so")
CHECKER = os.path.join(BIN, "qnn-architecture-checker")


def run(*cmd, cwd=None):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=600)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """x[1,8,128,128] -> Conv 8->256 (1x1) -> Div by a per-channel constant -> PRelu -> y (4 MB of 8-bit
    activations per tensor: the divide does not fit the simulated VTCM with its output, so its compute shows)."""
    d = tmp_path_factory.mktemp("arch")
    r = np.random.RandomState(0)
    inits = [numpy_helper.from_array((r.randn(256, 8, 1, 1) * 0.3).astype(np.float32), "w"),
             numpy_helper.from_array(r.uniform(1.5, 4.0, (1, 256, 1, 1)).astype(np.float32), "divisor"),
             numpy_helper.from_array(r.uniform(0.05, 0.2, (256, 1, 1)).astype(np.float32), "slope")]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="Conv"),
             helper.make_node("Div", ["c", "divisor"], ["d"], name="Div"),
             helper.make_node("PRelu", ["d", "slope"], ["y"], name="PRelu")]
    g = helper.make_graph(nodes, "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 128, 128])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 256, 128, 128])], inits)
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(d / "div.onnx"))
    r.uniform(-1, 1, (1, 8, 128, 128)).astype(np.float32).tofile(d / "x.raw")
    (d / "list.txt").write_text(f"{d / 'x.raw'}\n")
    p = run(os.path.join(BIN, "qnn-onnx-converter"), "-i", d / "div.onnx", "-o", d / "m" / "div.cpp", "--input_list",
            d / "list.txt", "--preserve_io", "layout")
    assert p.returncode == 0, p.stderr
    return d


def build_and_run(d, stem):
    p = run(os.path.join(BIN, "qnn-model-lib-generator"), "-c", d / "m" / f"{stem}.cpp", "-b", d / "m" / f"{stem}.bin",
            "-o", d / f"lib_{stem}")
    assert p.returncode == 0, p.stderr
    out = d / f"out_{stem}"
    p = run(os.path.join(BIN, "qnn-net-run"), "--model", d / f"lib_{stem}" / "x86_64-linux-clang" / f"lib{stem}.so",
            "--backend", HTP, "--input_list", d / "list.txt", "--output_dir", out, "--profiling_level", "basic", "--quiet")
    assert p.returncode == 0, p.stderr
    view = run(os.path.join(BIN, "qnn-profile-viewer"), "--input_log", out / "qnn-profiling-data_0.log")
    us = float(re.search(r"execute +Accelerator \(execute\) time: ([0-9.]+) us", view.stdout).group(1))
    return np.fromfile(out / "Result_0" / "y.raw", np.float32), us


def test_rules_and_csv(model):
    p = run(CHECKER, "-i", model / "m" / "div_net.json", "-o", model / "report", "-m", "show")
    assert p.returncode == 0, p.stderr
    r = rows(model / "report" / "div_architecture_checker.csv")
    assert list(r[0]) == ["Graph/Node_name", "Issue", "Recommendation", "Type", "Input_tensor_name:[dims]",
                          "Output_tensor_name:[dims]", "Previous_node", "Next_nodes", "Parameters", "Modification",
                          "Modification_info"]
    by_issue = {x["Issue"]: x for x in r}
    conv = by_issue["Conv2d with 8 input / 256 output channels"]
    assert conv["Graph/Node_name"].endswith("/Conv") and "[1, 128, 128, 8]" in conv["Input_tensor_name:[dims]"]
    div = by_issue["ElementWiseDivide"]
    assert div["Modification"] == "available: apply=elwisediv" and div["Previous_node"] == "Conv"
    assert by_issue["Prelu"]["Modification"] == "available: apply=prelu"
    assert "apply=elwisediv" in p.stdout and not (model / "report" / "div_modified.cpp").exists()


def test_elwisediv_keeps_outputs_and_lowers_the_cycle_estimate(model):
    p = run(CHECKER, "-i", model / "m" / "div_net.json", "-b", model / "m" / "div.bin", "-m", "apply=elwisediv")
    assert p.returncode == 0, p.stderr
    r = {x["Issue"]: x for x in rows(model / "m" / "div_architecture_checker.csv")}
    assert r["ElementWiseDivide"]["Modification"].startswith("applied: ElementWiseMultiply")
    assert r["Prelu"]["Modification"] == "available: apply=prelu"   # not asked for
    before, t0 = build_and_run(model, "div")
    after, t1 = build_and_run(model, "div_modified")
    step = np.abs(before).max() / 255
    assert np.abs(before - after).max() <= 2.5 * step
    assert t1 < t0, (t0, t1)
    # The rewritten model has no divide left; a second check finds nothing to apply.
    p = run(CHECKER, "-i", model / "m" / "div_modified_net.json", "-b", model / "m" / "div_modified.bin", "-m",
            "apply=elwisediv")
    assert p.returncode == 0 and "no node the requested modifications apply to" in p.stdout


def test_sixteen_bit_activations_and_float_nodes(model):
    p = run(os.path.join(BIN, "qnn-onnx-converter"), "-i", model / "div.onnx", "-o", model / "m16" / "div.cpp",
            "--input_list", model / "list.txt", "--act_bw", "16", "--preserve_io", "layout")
    assert p.returncode == 0, p.stderr
    assert run(CHECKER, "-i", model / "m16" / "div_net.json").returncode == 0
    issues = [x["Issue"] for x in rows(model / "m16" / "div_architecture_checker.csv")]
    assert issues.count("16-bit activation output") >= 3
    p = run(os.path.join(BIN, "qnn-onnx-converter"), "-i", model / "div.onnx", "-o", model / "mf" / "div.cpp")
    assert run(CHECKER, "-i", model / "mf" / "div_net.json").returncode == 0
    issues = [x["Issue"] for x in rows(model / "mf" / "div_architecture_checker.csv")]
    assert "16-bit activation output" not in issues and "floating-point output in a quantized graph" not in issues


@pytest.mark.parametrize("args, message", [
    (["-i", "nosuch_net.json"], "No such file"),
    (["-i", "{bad}"], "not a converter's model_net.json"),
    (["-i", "{net}", "-m", "apply=nosuch"], "no modification named nosuch"),
    (["-i", "{net}", "-m", "apply=elwisediv"], "needs -b model.bin"),
    (["-i", "{net}", "-m", "sometimes"], "must be show, all or apply="),
    (["-i", "{net}", "-b", "{bad}", "-m", "all"], "not a model.bin tar"),
    ([], "required"),
])
def test_bad_input_is_one_error_line(model, args, message):
    (model / "bad_net.json").write_text('{"graph": {"tensors": [1, 2]')
    args = [a.format(net=model / "m" / "div_net.json", bad=model / "bad_net.json") for a in args]
    p = run(CHECKER, *args, cwd=model)
    assert p.returncode != 0 and message in p.stderr and "Traceback" not in p.stderr, p.stderr
