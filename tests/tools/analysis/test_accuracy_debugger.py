"""qnn-accuracy-debugger: the verifiers against hand-computed values; the wrapper (framework diagnosis ->
inference engine -> verification) on a small CNN, float on the CPU (every layer matches) and 8-bit on the
HTP with an overrides file that squeezes one mid-network activation (that layer is named as the first
divergence); the modes one at a time; and bad input as one error line. The same
narrow-encoding check on MobileNetV2 (torchvision's, untrained) where torch is installed."""
import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper, save

BUILD = os.environ["QNN_BUILD_DIR"]
TOOL = os.path.join(BUILD, "bin", "qnn-accuracy-debugger")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python"))
from qnn.tools.accuracy_debugger import verifiers  # noqa: E402


def run(cwd, *args):
    return subprocess.run([TOOL, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def summary(work):
    with open(os.path.join(work, "verification", "latest", "summary.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def cnn(tmp_path_factory):
    """x[1,3,16,16] -> Conv 3->8 -> Relu -> Conv 8->8 -> Relu ("mid") -> Conv 8->4 -> GlobalAveragePool -> Flatten."""
    d = tmp_path_factory.mktemp("cnn")
    r = np.random.RandomState(7)
    inits, nodes, prev = [], [], "x"
    for i, (cin, cout) in enumerate([(3, 8), (8, 8), (8, 4)]):
        inits += [numpy_helper.from_array((r.randn(cout, cin, 3, 3) * 0.3).astype(np.float32), f"w{i}"),
                  numpy_helper.from_array((r.randn(cout) * 0.1).astype(np.float32), f"b{i}")]
        nodes.append(helper.make_node("Conv", [prev, f"w{i}", f"b{i}"], [f"conv{i}"], pads=[1, 1, 1, 1], name=f"Conv{i}"))
        prev = f"conv{i}"
        if i < 2:
            out = "mid" if i == 1 else f"relu{i}"
            nodes.append(helper.make_node("Relu", [prev], [out], name=f"Relu{i}"))
            prev = out
    nodes += [helper.make_node("GlobalAveragePool", [prev], ["gap"], name="Gap"),
              helper.make_node("Flatten", ["gap"], ["y"], name="Flat")]
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    save(m, str(d / "cnn.onnx"))
    r.uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32).tofile(d / "x.raw")
    return d


def test_verifiers_against_hand_computed_values():
    g = np.array([1.0, 2.0, 3.0, 4.0])
    t = np.array([1.0, 2.0, 3.0, 5.0])
    ok, v = verifiers.parse_verifier("sqnr").verify(g, t)
    assert v == pytest.approx(10 * np.log10(30.0 / 1.0)) and not ok   # 14.77 dB, below the default 20
    assert verifiers.parse_verifier("sqnr,sqnrthreshold,15").verify(g, t) == (False, pytest.approx(14.771, abs=1e-3))
    ok, v = verifiers.parse_verifier("CosineSimilarity").verify(g, t)
    assert v == pytest.approx(np.dot(g, t) / np.linalg.norm(g) / np.linalg.norm(t)) and ok
    assert verifiers.parse_verifier("mse").verify(g, t)[1] == pytest.approx(0.25)
    assert verifiers.parse_verifier("mae").verify(g, t)[1] == pytest.approx(0.25)
    assert verifiers.parse_verifier("rtolatol,rtolmargin,0.1,atolmargin,0.1").verify(g, t) == (False, 25.0)
    assert verifiers.parse_verifier("topk,k,1").verify(g, t) == (True, 100.0)
    assert verifiers.parse_verifier("topk,k,2").verify(g, np.array([4.0, 2, 3, 1]))[1] == 50.0
    assert verifiers.parse_verifier("l1error").verify(g, t)[1] == pytest.approx(0.25 / 2.5)
    assert verifiers.parse_verifier("scaleddiff").verify(g, t)[1] == pytest.approx(1.0 / 3.0)
    seg = np.array([[0.9, 0.1], [0.2, 0.8], [0.7, 0.3], [0.4, 0.6]])
    assert verifiers.parse_verifier("meaniou").verify(seg, seg)[1] == 1.0
    for bad in ("nosuch", "sqnr,sqnrthreshold", "sqnr,nosuch,1", "sqnr,sqnrthreshold,abc"):
        with pytest.raises(verifiers.DebuggerError):
            verifiers.parse_verifier(bad)


def test_float_on_cpu_every_layer_matches(cnn):
    p = run(cnn, "-f", "onnx", "-m", "cnn.onnx", "-i", "x", "1,3,16,16", "x.raw", "-r", "cpu", "-w", "wf",
            "--default_verifier", "sqnr,sqnrthreshold,60", "--default_verifier", "CosineSimilarity")
    assert p.returncode == 0, p.stderr
    s = summary(cnn / "wf")
    assert s["failing"] == 0 and s["first_divergence"] is None
    names = [r["Name"] for r in s["rows"]]
    assert names[0] == "x" and {"conv0", "relu0", "mid", "conv2", "y"} <= set(names)
    assert all(r["CosineSimilarity"] > 0.99999 for r in s["rows"])
    for f in ("summary.csv", "summary.html", "summary.json"):
        assert os.path.isfile(cnn / "wf" / "wrapper" / "latest" / f)
    ie = cnn / "wf" / "inference_engine" / "latest"
    for f in ("model.cpp", "model.bin", "model_net.json", "tensor_mapping.json", "output/Result_0"):
        assert os.path.exists(ie / f), f
    html = (cnn / "wf" / "verification" / "latest" / "summary.html").read_text()
    assert "<svg" in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")


def test_narrow_encoding_on_the_htp_is_the_first_divergence(cnn):
    # 'mid' (a Relu output reaching ~2) squeezed into [0, 0.05]: everything after it is wrong.
    (cnn / "narrow.json").write_text(json.dumps(
        {"activation_encodings": {"mid": [{"bitwidth": 8, "min": 0.0, "max": 0.05}]}, "param_encodings": {}}))
    p = run(cnn, "-f", "onnx", "-m", "cnn.onnx", "-i", "x", "1,3,16,16", "x.raw", "-r", "htp", "-w", "wq",
            "-qo", "narrow.json")
    assert p.returncode == 0, p.stderr
    s = summary(cnn / "wq")
    assert s["first_divergence"]["name"] == "mid", s["first_divergence"]
    assert s["largest_error_introduced"]["name"] == "mid"
    assert "first divergence: mid" in p.stdout
    rows = {r["Name"]: r for r in s["rows"]}
    assert rows["conv0"]["SQNR_pass"] and rows["conv0"]["SQNR"] > 25   # 8-bit, correct encodings
    # Without the override the same quantized model passes everywhere.
    p = run(cnn, "-f", "onnx", "-m", "cnn.onnx", "-i", "x", "1,3,16,16", "x.raw", "-r", "htp", "-w", "wq2")
    assert p.returncode == 0 and summary(cnn / "wq2")["failing"] == 0, p.stdout


def test_modes_one_at_a_time(cnn):
    common = ["-w", "wm", "--output_dirname", "run1"]
    p = run(cnn, "--framework_diagnosis", "-f", "onnx", "-m", "cnn.onnx", "-i", "x", "1,3,16,16", "x.raw",
            "--framework_engine", "qnn_cpu", *common)
    assert p.returncode == 0, p.stderr
    golden = cnn / "wm" / "framework_diagnosis" / "run1"
    idx = json.loads((golden / "tensors.json").read_text())
    assert {"conv0", "mid", "y"} <= set(idx["tensors"])
    (cnn / "list.txt").write_text(f"x:={cnn / 'x.raw'}\n")
    p = run(cnn, "--inference_engine", "-m", "cnn.onnx", "-l", "list.txt", "-r", "cpu", *common)
    assert p.returncode == 0, p.stderr
    inf = cnn / "wm" / "inference_engine" / "run1"
    p = run(cnn, "--verification", "--golden_output_reference_directory", str(golden), "--inference_results",
            str(inf), "--default_verifier", "rtolatol,rtolmargin,0.001,atolmargin,0.0001", *common)
    assert p.returncode == 0, p.stderr
    with open(cnn / "wm" / "verification" / "run1" / "RtolAtol" / "RtolAtol.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["RtolAtol_pass"] == "True" for r in rows)
    # stage "converted": the inference engine's own model.cpp/model.bin/model_net.json
    p = run(cnn, "--inference_engine", "--stage", "converted", "-qmcpp", str(inf / "model.cpp"), "-qmbin",
            str(inf / "model.bin"), "--qnn_model_net_json", str(inf / "model_net.json"), "-l", "list.txt",
            "-w", "wm", "--output_dirname", "run2")
    assert p.returncode == 0, p.stderr
    a = np.fromfile(inf / "mapped_outputs" / "y.raw", np.float32)
    b = np.fromfile(cnn / "wm" / "inference_engine" / "run2" / "mapped_outputs" / "y.raw", np.float32)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("args, message", [
    (["-m", "nosuch.onnx", "-i", "x", "1,3,16,16", "x.raw"], "does not exist"),
    (["-m", "cnn.onnx", "-i", "x", "1,3,16", "x.raw"], "has 3072 bytes"),
    (["-m", "cnn.onnx", "-i", "x", "1,3,a,16", "x.raw"], "comma-separated integers"),
    (["-m", "cnn.onnx", "-i", "x", "1,3,16,16", "x.raw", "--default_verifier", "nosuch"], "unknown verifier"),
    (["-m", "cnn.onnx", "-i", "x", "1,3,16,16", "x.raw", "-r", "gpu"], "--runtime gpu"),
    (["-f", "tensorflow", "-m", "cnn.onnx"], "only onnx"),
    (["--verification", "--inference_engine"], "choose one mode"),
    (["--verification", "--golden_output_reference_directory", ".", "--inference_results", "."], "no tensors.json"),
    (["--debugging_algorithm", "layerwise", "-m", "cnn.onnx"], "not supported yet"),
    (["--no_such_flag"], "unrecognized arguments"),
])
def test_bad_input_is_one_error_line(cnn, args, message):
    p = run(cnn, *args, "-w", "we")
    assert p.returncode != 0
    assert message in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_damaged_model_file(cnn):
    (cnn / "bad.onnx").write_bytes(b"\x08\x01garbage" * 10)
    p = run(cnn, "-m", "bad.onnx", "-i", "x", "1,3,16,16", "x.raw", "-w", "wd")
    assert p.returncode == 1 and "error:" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.long
def test_mobilenet_v2_narrow_layer_is_named(tmp_path, mobilenet_v2_onnx):
    model = mobilenet_v2_onnx
    r = np.random.RandomState(3)
    ((r.uniform(0, 1, (1, 3, 224, 224)) - 0.45) / 0.225).astype(np.float32).tofile(tmp_path / "in.raw")
    layer = "/features/features.7/conv/conv.1/conv.1.2/Clip_output_0"   # a depthwise block's ReLU6 (max ~0.26)
    (tmp_path / "narrow.json").write_text(json.dumps(
        {"activation_encodings": {layer: [{"bitwidth": 8, "min": 0.0, "max": 0.02}]}, "param_encodings": {}}))
    p = run(tmp_path, "-f", "onnx", "-m", str(model), "-i", "input", "1,3,224,224", "in.raw", "-r", "htp",
            "-w", "w", "-qo", "narrow.json")
    assert p.returncode == 0, p.stderr
    s = summary(tmp_path / "w")
    assert s["first_divergence"]["name"] == layer, s["first_divergence"]
    assert s["largest_error_introduced"]["name"] == layer


def test_compare_encodings_and_tensor_inspection(cnn):
    """The narrow run's model_net.json against the overrides it was made with (same) and against a
    different range (reported), then tensor inspection of golden vs inference."""
    wq = cnn / "wq" / "inference_engine" / "latest"
    if not wq.exists():
        pytest.skip("needs test_narrow_encoding_on_the_htp_is_the_first_divergence's run")
    p = run(cnn, "--compare_encodings", "--input", str(wq / "model_net.json"), "--aimet_encodings_json", "narrow.json",
            "-w", "wc", "--output_dirname", "same")
    assert p.returncode == 0, p.stderr
    with open(cnn / "wc" / "compare_encodings" / "same" / "encodings_diff.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["Tensor"], r["Status"]) for r in rows] == [("mid", "same")]
    (cnn / "other.json").write_text(json.dumps(
        {"activation_encodings": {"mid": [{"bitwidth": 8, "min": 0.0, "max": 1.0}], "nosuch": [{"min": 0, "max": 1}]},
         "param_encodings": {"w1": [{"bitwidth": 8, "min": -1.0, "max": 1.0}]}}))
    p = run(cnn, "--compare_encodings", "--input", str(wq / "model_net.json"), "--aimet_encodings_json", "other.json",
            "-w", "wc", "--output_dirname", "other")
    assert p.returncode == 0, p.stderr
    with open(cnn / "wc" / "compare_encodings" / "other" / "encodings_diff.csv") as f:
        rows = {r["Tensor"]: r for r in csv.DictReader(f)}
    assert "scale differs" in rows["mid"]["Status"] and rows["nosuch"]["Status"] == "not in QNN model"
    assert rows["w1"]["Type"] == "param" and rows["w1"]["QnnTensor"].startswith("w1")
    golden = cnn / "wq" / "framework_diagnosis" / "latest"
    p = run(cnn, "--tensor_inspection", "--golden_data", str(golden / "mid.raw"), "--target_data",
            str(wq / "mapped_outputs" / "mid.raw"), "-w", "wt", "--output_dirname", "one")
    assert p.returncode == 0, p.stderr
    d = cnn / "wt" / "tensor_inspection" / "one"
    for f in ("CDF_plots.png", "Diff_plots.png", "Distribution_min-max.png", "Histograms.png", "golden_data.csv"):
        data = (d / "mid" / f).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" if f.endswith(".png") else data, f
    with open(d / "summary.csv") as f:
        row = next(csv.DictReader(f))
    assert row["SQNR_pass"] == "False"   # the squeezed layer
    g = np.fromfile(golden / "mid.raw", np.float32)
    assert np.loadtxt(d / "mid" / "golden_data.csv") == pytest.approx(g, rel=1e-6)
    p = run(cnn, "--tensor_inspection", "--golden_data", str(golden / "mid.raw"), "--target_data",
            str(golden / "y.raw"), "-w", "wt")
    assert p.returncode == 1 and "golden has" in p.stderr
