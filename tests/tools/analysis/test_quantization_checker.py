"""qnn-quantization-checker: a model with one deliberately bad weight (an outlier 400x the rest) -- the
checker flags that weight (Bit-Width Range, Clustering) and not the healthy ones, per-channel quantization
confines the damage, repair mode raises it to 16 bits and the variation then passes; histograms, CSV and
HTML as documented; MobileNetV2's weights and biases through every quantizer (--skip_runner); bad configs
are one error line."""
import csv
import json
import os
import subprocess

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper, save

BUILD = os.environ["QNN_BUILD_DIR"]
TOOL = os.path.join(BUILD, "bin", "qnn-quantization-checker")


def run(*args, cwd=None):
    return subprocess.run([TOOL, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=900)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    d = tmp_path_factory.mktemp("qc")
    r = np.random.RandomState(0)
    w1 = (r.randn(16, 16, 3, 3) * 0.1).astype(np.float32)
    w1[3, 5, 1, 1] = 40.0   # the outlier: 8-bit min/max steps of ~0.16 leave the other weights a handful of levels
    inits = [numpy_helper.from_array((r.randn(16, 3, 3, 3) * 0.2).astype(np.float32), "w0"),
             numpy_helper.from_array(np.zeros(16, np.float32), "b0"),
             numpy_helper.from_array(w1, "w1"), numpy_helper.from_array((r.randn(16) * 0.1).astype(np.float32), "b1"),
             numpy_helper.from_array((r.randn(8, 16, 1, 1) * 0.2).astype(np.float32), "w2"),
             numpy_helper.from_array((r.randn(8) * 0.1).astype(np.float32), "b2")]
    nodes = [helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], pads=[1, 1, 1, 1], name="Conv0"),
             helper.make_node("Relu", ["c0"], ["r0"], name="Relu0"),
             helper.make_node("Conv", ["r0", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="Conv1"),
             helper.make_node("Relu", ["c1"], ["r1"], name="Relu1"),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["y"], name="Conv2")]
    g = helper.make_graph(nodes, "bad", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 16, 16])], inits)
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(d / "bad.onnx"))
    for i in range(2):
        r.uniform(-1, 1, (1, 16, 16, 3)).astype(np.float32).tofile(d / f"in{i}.raw")
    (d / "list.txt").write_text("in0.raw\nin1.raw\n")
    (d / "cfg.json").write_text(json.dumps({
        "MODEL_PATH": "bad.onnx", "INPUT_LIST_PATH": "list.txt", "QUANTIZATION_VARIATIONS": ["tf"],
        "QUANTIZATION_ALGORITHMS": ["pcq"], "RUN_IN_REPAIR_MODE": True, "CLANG_PATH": "/usr/bin/clang",
        "WEIGHT_COMPARISON_ALGORITHMS": [{"algo_name": "minmax", "threshold": "10"}, {"algo_name": "sqnr", "threshold": "20"},
                                         {"algo_name": "data_range", "threshold": "8"},
                                         {"algo_name": "clustering", "threshold": "16"}]}))
    p = run("--config_file", d / "cfg.json", "--output_dir", d / "out", "--generate_histogram",
            "--per_channel_histogram", "--output_csv", cwd=d)
    assert p.returncode == 0, p.stderr
    (d / "stdout.txt").write_text(p.stdout)
    return d


def test_the_bad_weight_is_flagged_and_only_it(bad):
    w = rows(bad / "out" / "csv" / "tf_weight.csv")
    assert set(w[0]) == {"op", "node", "tensor", "input", "pass", "result", "threshold", "algorithm"}
    failing = {(r["tensor"], r["algorithm"]) for r in w if r["pass"] == "False"}
    assert failing == {("w1_hwio", "data_range"), ("w1_hwio", "clustering")}, failing
    clusters = {r["tensor"]: float(r["result"]) for r in w if r["algorithm"] == "clustering"}
    assert clusters["w1_hwio"] < 16 <= clusters["w0_hwio"]
    # Per-channel: only the outlier's channel keeps the coarse steps; the tensor uses many more levels.
    pcq = {r["tensor"]: float(r["result"]) for r in rows(bad / "out" / "csv" / "tf_pcq_weight.csv")
           if r["algorithm"] == "clustering"}
    assert pcq["w1_hwio"] > clusters["w1_hwio"]
    # Activations after the bad conv lose accuracy; the first conv's output does not.
    act = rows(bad / "out" / "csv" / "tf_activation.csv")
    sq = {(r["tensor"], r["input"]): float(r["result"]) for r in act if r["algorithm"] == "sqnr"}
    assert sq[("c0", "Result_0")] > sq[("c1", "Result_0")]


def test_repair_raises_the_bad_weight_and_the_variation_passes(bad):
    assert "repair round 1: weight w1_hwio to 16 bits" in (bad / "stdout.txt").read_text()
    ov = json.loads((bad / "out" / "repair_overrides.json").read_text())
    assert ov["param_encodings"]["w1_hwio"][0]["bitwidth"] == 16
    summary = {r["variation"]: r for r in rows(bad / "out" / "csv" / "summary.csv")}
    assert int(summary["tf"]["failing_tensors"]) >= 1
    assert int(summary["tf_repair1"]["failing_checks"]) < int(summary["tf"]["failing_checks"])
    assert not any(r["pass"] == "False" and r["tensor"] == "w1_hwio"
                   for r in rows(bad / "out" / "csv" / "tf_repair1_weight.csv"))


def test_reports_and_histograms(bad):
    out = bad / "out"
    for f in ("index.html", "tf.html", "tf_pcq.html", "tf_repair1.html"):
        assert (out / "html" / f).is_file(), f
    assert "Clustering" in (out / "html" / "tf.html").read_text()
    for f in ("w0_hwio.png", "w1_hwio.png", "w1_hwio_channel15.png"):
        assert (out / "hist_analysis_weights" / "tf" / f).read_bytes()[:4] == b"\x89PNG", f
    assert (out / "hist_analysis_biases" / "tf" / "b1_bias.png").is_file() or \
        any(p.suffix == ".png" for p in (out / "hist_analysis_biases" / "tf").iterdir())
    assert (out / "qnn-quantization-checker-log" / "log.txt").stat().st_size > 0
    # --skip_generator reuses the converted models
    p = run("--config_file", bad / "cfg.json", "--output_dir", bad / "out", "--skip_generator", "--skip_runner", cwd=bad)
    assert p.returncode == 0, p.stderr


@pytest.mark.long
def test_mobilenet_v2_every_quantizer_weights_only(tmp_path, mobilenet_v2_onnx):
    np.random.RandomState(1).uniform(-2, 2, (1, 224, 224, 3)).astype(np.float32).tofile(tmp_path / "in.raw")
    (tmp_path / "list.txt").write_text(f"{tmp_path / 'in.raw'}\n")
    (tmp_path / "cfg.json").write_text(json.dumps({"QUANTIZATION_VARIATIONS": ["tf", "symmetric"],
                                                   "QUANTIZATION_ALGORITHMS": []}))
    p = run("--config_file", tmp_path / "cfg.json", "--model", mobilenet_v2_onnx, "--input_list",
            tmp_path / "list.txt", "--output_dir", tmp_path / "out", "--skip_runner", "--output_csv")
    assert p.returncode == 0, p.stderr
    w = rows(tmp_path / "out" / "csv" / "tf_weight.csv")
    convs = {r["tensor"] for r in w}
    assert len(convs) == 53   # 52 Conv2d / DepthWiseConv2d weights and the classifier FullyConnected
    sq = [float(r["result"]) for r in w if r["algorithm"] == "sqnr"]
    assert np.median(sq) > 30
    assert (tmp_path / "out" / "csv" / "symmetric_weight.csv").is_file()


@pytest.mark.parametrize("cfg, message", [
    (None, "--config_file"),
    ("{", "is not JSON"),
    ('{"NO_SUCH_KEY": 1}', "unknown keys NO_SUCH_KEY"),
    ('{"MODEL_PATH": "bad.onnx", "INPUT_LIST_PATH": "list.txt", "QUANTIZATION_VARIATIONS": ["fast"]}',
     "unknown quantization variation"),
    ('{"MODEL_PATH": "bad.onnx", "INPUT_LIST_PATH": "list.txt", "ACT_COMPARISON_ALGORITHMS": [{"algo_name": "x"}]}',
     "unknown algorithm"),
    ('{"MODEL_PATH": "nosuch.onnx", "INPUT_LIST_PATH": "list.txt"}', "does not exist"),
    ('{"MODEL_PATH": "bad.onnx"}', "no input list"),
    ('{"MODEL_PATH": "bad.onnx", "INPUT_LIST_PATH": "list.txt", "ACTIVATION_WIDTH": 12}', "ACTIVATION_WIDTH must be"),
])
def test_bad_config_is_one_error_line(bad, tmp_path, cfg, message):
    args = []
    if cfg is not None:
        (bad / "c.json").write_text(cfg)
        args = ["--config_file", bad / "c.json"]
    p = run(*args, "--output_dir", tmp_path / "o", cwd=bad)
    assert p.returncode != 0 and message in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_skip_generator_without_a_previous_run(bad, tmp_path):
    p = run("--config_file", bad / "cfg.json", "--output_dir", tmp_path / "fresh", "--skip_generator", cwd=bad)
    assert p.returncode == 1 and "--skip_generator" in p.stderr
