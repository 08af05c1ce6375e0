"""The qnn package on the built libraries: a model converted by the tools into a context binary (CPU: the
float model; HTP: the quantized one), run from Python with outputs byte-identical to qnn-net-run's on the
same input; clear Python exceptions (never a crash) for wrong dtypes and shapes, closed handles, damaged
binaries and libraries that are not backends; backend log messages reach Python logging.
Needs QNN_BUILD_DIR (the build tree)."""
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import qnn

BUILD = os.environ.get("QNN_BUILD_DIR", "")
LIB = os.path.join(BUILD, "lib", "x86_64-linux-clang")
BIN = os.path.join(BUILD, "bin")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools", "onnx_converter"))
pytestmark = pytest.mark.skipif(not os.path.isdir(LIB), reason="QNN_BUILD_DIR is not a build tree")


def tool(name, *args):
    p = subprocess.run([os.path.join(BIN, name), *args], capture_output=True, text=True)
    assert p.returncode == 0, f"{name} {args}: {p.stdout}{p.stderr}"


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """small CNN (x [1,3,8,8] -> logits, probs): float and quantized context binaries, inputs, and
    qnn-net-run's outputs for them."""
    from test_dlc import small_cnn
    d = tmp_path_factory.mktemp("model")
    onnx_path = str(d / "small_cnn.onnx")
    small_cnn(onnx_path)
    inputs = []
    for i in range(2):
        x = np.random.RandomState(70 + i).uniform(-1, 1, (1, 3, 8, 8)).astype(np.float32)
        x.tofile(d / f"in{i}.raw")
        inputs.append(x)
    lst = d / "list.txt"
    lst.write_text("".join(f"{d / f'in{i}.raw'}\n" for i in range(2)))
    dlclib = os.path.join(BUILD, "sdk", "model_dlc", "libQnnModelDlc.so")
    tool("qairt-converter", "-i", onnx_path, "-o", str(d / "f.dlc"))
    tool("qairt-quantizer", "--input_dlc", str(d / "f.dlc"), "--input_list", str(lst), "--output_dlc", str(d / "q.dlc"))
    out = {}
    for name, dlc, backend in (("cpu", "f.dlc", "libQnnCpu.so"), ("htp", "q.dlc", "libQnnHtp.so")):
        be = os.path.join(LIB, backend)
        tool("qnn-context-binary-generator", "--model", dlclib, "--dlc_path", str(d / dlc), "--backend", be,
             "--binary_file", name, "--output_dir", str(d))
        tool("qnn-net-run", "--retrieve_context", str(d / f"{name}.bin"), "--backend", be, "--input_list", str(lst),
             "--output_dir", str(d / f"out_{name}"))
        out[name] = str(d / f"out_{name}")
    return {"dir": d, "inputs": inputs, "netrun": out}


@pytest.mark.parametrize("name,backend", [("cpu", "libQnnCpu.so"), ("htp", "libQnnHtp.so")])
def test_outputs_equal_net_run(model, name, backend):
    with qnn.Backend(os.path.join(LIB, backend)) as b, b.load_context(str(model["dir"] / f"{name}.bin")) as ctx:
        assert len(ctx.graphs) == 1
        g = next(iter(ctx.graphs.values()))
        assert [t.name for t in g.inputs] == ["x"] and [t.name for t in g.outputs] == ["logits", "probs"]
        assert g.inputs[0].dims == (1, 3, 8, 8)
        for i, x in enumerate(model["inputs"]):
            out = g.run({"x": x})  # float32 in; quantized inputs are quantized by the package
            for k, v in out.items():
                raw = open(os.path.join(model["netrun"][name], f"Result_{i}", f"{k}.raw"), "rb").read()
                if name == "cpu":
                    assert v.tobytes() == raw, k
                else:  # qnn-net-run writes float32 (dequantized) outputs by default
                    deq = g.run({"x": x}, dequantize=True)[k]
                    assert deq.astype(np.float32).tobytes() == raw, k
        if name == "htp":
            assert g.inputs[0].quant is not None and g.inputs[0].dtype == np.uint8


def test_bad_inputs_raise(model):
    with qnn.Backend(os.path.join(LIB, "libQnnCpu.so")) as b:
        ctx = b.load_context(str(model["dir"] / "cpu.bin"))
        g = next(iter(ctx.graphs.values()))
        x = model["inputs"][0]
        with pytest.raises(TypeError, match="float64"):
            g.run({"x": x.astype(np.float64)})
        with pytest.raises(ValueError, match="shape"):
            g.run({"x": x[:, :2]})
        with pytest.raises(ValueError, match="unknown inputs"):
            g.run({"x": x, "y": x})
        ctx.close()
        with pytest.raises(qnn.QnnError, match="closed"):
            g.run({"x": x})
        data = bytearray(open(model["dir"] / "cpu.bin", "rb").read())
        for i in range(len(data) // 2, len(data)):
            data[i] ^= 0x5A
        with pytest.raises(qnn.QnnError):
            b.load_context(bytes(data))
        with pytest.raises(qnn.QnnError):
            b.load_context(b"not a context binary at all")
        with pytest.raises(ValueError):
            b.load_context(b"")



def test_bound_runs_equal_run(model):
    """Graph.bind: inputs converted once (the HTP graph's float input quantized once), outputs written in
    place into the bound arrays, the same bytes as run(); an input changed in place between runs is read
    again; a closed context raises."""
    for name, backend in (("cpu", "libQnnCpu.so"), ("htp", "libQnnHtp.so")):
        with qnn.Backend(os.path.join(LIB, backend)) as b:
            ctx = b.load_context(str(model["dir"] / f"{name}.bin"))
            g = next(iter(ctx.graphs.values()))
            x0, x1 = model["inputs"]
            given = np.empty(g.outputs[1].dims, dtype=g.outputs[1].dtype)
            bound = g.bind({"x": x0}, outputs={"probs": given})
            assert bound.outputs["probs"] is given and set(bound.outputs) == {"logits", "probs"}
            out = bound.run()
            assert out is bound.outputs
            want = g.run({"x": x0})
            for k in want:
                assert out[k].tobytes() == want[k].tobytes(), (name, k)
            # change the bound input in place: the next run reads it
            np.copyto(bound.inputs["x"], g.bind({"x": x1}).inputs["x"])
            out = bound.run()
            want = g.run({"x": x1})
            for k in want:
                assert out[k].tobytes() == want[k].tobytes(), (name, k)
            with pytest.raises(ValueError, match="unknown outputs"):
                g.bind({"x": x0}, outputs={"nope": given})
            ctx.close()
            with pytest.raises(qnn.QnnError, match="closed"):
                bound.run()

def test_libraries_that_are_not_backends():
    with pytest.raises(qnn.QnnError, match="not a QNN backend"):
        qnn.Backend(os.path.join(LIB, "libQnnSystem.so"))
    with pytest.raises(qnn.QnnError, match="cannot load"):
        qnn.Backend("/nonexistent/libQnnNothing.so")
    with pytest.raises(ValueError):
        qnn.Backend(os.path.join(LIB, "libQnnCpu.so"), log_level="loud")


def test_backend_messages_reach_python_logging(model, caplog):
    with caplog.at_level(logging.ERROR, logger="qnn"):
        with qnn.Backend(os.path.join(LIB, "libQnnHtp.so")) as b:
            with pytest.raises(qnn.QnnError, match="another backend"):
                b.load_context(str(model["dir"] / "cpu.bin"))  # a CPU binary on the HTP
    assert any("backend id" in r.getMessage() for r in caplog.records), caplog.text


@pytest.mark.skipif(not os.path.isfile(os.environ.get("QNN_GEN_MODELS_PY", "")),
                    reason="QNN_GEN_MODELS_PY (benchmarks/models/make_models.py) not given")
def test_mobilenet_v2_equals_net_run(tmp_path):
    """MobileNetV2 (the benchmark's export) converted by the tools into a CPU context binary."""
    subprocess.run([sys.executable, os.environ["QNN_GEN_MODELS_PY"], str(tmp_path / "models")], check=True,
                   capture_output=True)
    x = np.random.RandomState(9).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    x.tofile(tmp_path / "x.raw")
    (tmp_path / "list.txt").write_text(f"{tmp_path / 'x.raw'}\n")
    cpu = os.path.join(LIB, "libQnnCpu.so")
    tool("qairt-converter", "-i", str(tmp_path / "models" / "mobilenet_v2.onnx"), "-o", str(tmp_path / "m.dlc"))
    tool("qnn-context-binary-generator", "--model", os.path.join(BUILD, "sdk", "model_dlc", "libQnnModelDlc.so"),
         "--dlc_path", str(tmp_path / "m.dlc"), "--backend", cpu, "--binary_file", "m", "--output_dir", str(tmp_path))
    tool("qnn-net-run", "--retrieve_context", str(tmp_path / "m.bin"), "--backend", cpu, "--input_list",
         str(tmp_path / "list.txt"), "--output_dir", str(tmp_path / "out"))
    with qnn.Backend(cpu) as b, b.load_context(str(tmp_path / "m.bin")) as ctx:
        g = next(iter(ctx.graphs.values()))
        out = g.run({g.inputs[0].name: x})
    for name, v in out.items():
        assert v.tobytes() == open(tmp_path / "out" / "Result_0" / f"{name}.raw", "rb").read(), name
        assert v.size == 1000


def test_model_library_and_dlc(model):
    """The same model composed from its DLC through libQnnModelDlc.so: outputs equal the context binary's."""
    cpu = os.path.join(LIB, "libQnnCpu.so")
    with qnn.Backend(cpu) as b:
        with b.load_model_library(os.path.join(BUILD, "sdk", "model_dlc", "libQnnModelDlc.so"),
                                  dlc_path=str(model["dir"] / "f.dlc")) as ctx:
            g = next(iter(ctx.graphs.values()))
            out = g.run({"x": model["inputs"][0]})
        with b.load_context(str(model["dir"] / "cpu.bin")) as ctx2:
            want = next(iter(ctx2.graphs.values())).run({"x": model["inputs"][0]})
        for k in want:
            assert out[k].tobytes() == want[k].tobytes(), k
        with pytest.raises(qnn.QnnError, match="not a model library"):
            b.load_model_library(os.path.join(LIB, "libQnnSystem.so"))
        with pytest.raises(qnn.QnnError, match="model error"):
            b.load_model_library(os.path.join(BUILD, "sdk", "model_dlc", "libQnnModelDlc.so"),
                                 dlc_path=str(model["dir"] / "missing.dlc"))
