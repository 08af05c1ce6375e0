"""Graphs built from Python (qnn: ctx.graph(), input/constant/op/finalize) on the built backends: a
conv -> relu graph against a float64 numpy reference; saved as a context binary, it runs under the C
tool qnn-net-run --retrieve_context with outputs byte-identical to Python's; op names, params and
input counts are checked against the op definitions, and what the backend refuses raises QnnError
with the backend's message. Needs QNN_BUILD_DIR."""
import os
import subprocess

import numpy as np
import pytest

import qnn

BUILD = os.environ.get("QNN_BUILD_DIR", "")
LIB = os.path.join(BUILD, "lib", "x86_64-linux-clang")
pytestmark = pytest.mark.skipif(not os.path.isdir(LIB), reason="QNN_BUILD_DIR is not a build tree")

rs = np.random.RandomState(5)
W = rs.uniform(-1, 1, (3, 3, 4, 5)).astype(np.float32)
B = rs.uniform(-1, 1, 5).astype(np.float32)
X = rs.uniform(-1, 1, (1, 6, 7, 4)).astype(np.float32)


def reference(x):
    xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((1, 6, 7, 5))
    for i in range(6):
        for j in range(7):
            out[0, i, j] = np.tensordot(xp[0, i:i + 3, j:j + 3, :], W.astype(np.float64), axes=3) + B
    return np.maximum(out, 0)


def build(ctx):
    g = ctx.graph("convrelu")
    x = g.input("x", (1, 6, 7, 4))
    c = g.op("Conv2d", [x, g.constant("w", W), g.constant("b", B)], [("c", (1, 6, 7, 5), "FLOAT_32")],
             params={"stride": [1, 1], "pad_amount": [[1, 1], [1, 1]]})
    g.op("Relu", [c], [("y", (1, 6, 7, 5), "FLOAT_32")], graph_output=True)
    return g.finalize()


@pytest.mark.parametrize("backend", ["libQnnCpu.so", "libQnnHtp.so"])
def test_built_graph_runs_and_saves(tmp_path, backend):
    with qnn.Backend(os.path.join(LIB, backend)) as be:
        with be.context() as ctx:
            graph = build(ctx)
            assert [t.name for t in graph.inputs] == ["x"] and [t.name for t in graph.outputs] == ["y"]
            y = graph.run({"x": X})["y"]
            tol = 1e-5 if backend == "libQnnCpu.so" else 1e-4
            np.testing.assert_allclose(y, reference(X), rtol=tol, atol=tol)
            ctx.save(str(tmp_path / "convrelu.bin"))
        with be.load_context(str(tmp_path / "convrelu.bin")) as again:
            assert np.array_equal(again.graphs["convrelu"].run({"x": X})["y"], y)
    # The same binary under the C tool.
    X.tofile(tmp_path / "x.raw")
    (tmp_path / "list.txt").write_text(f"{tmp_path / 'x.raw'}\n")
    p = subprocess.run([os.path.join(BUILD, "bin", "qnn-net-run"), "--retrieve_context", str(tmp_path / "convrelu.bin"),
                        "--backend", os.path.join(LIB, backend), "--input_list", str(tmp_path / "list.txt"),
                        "--output_dir", str(tmp_path / "out")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert open(tmp_path / "out" / "Result_0" / "y.raw", "rb").read() == y.tobytes()


def test_op_definitions_and_backend_refusals():
    with qnn.Backend(os.path.join(LIB, "libQnnCpu.so")) as be, be.context() as ctx:
        g = ctx.graph("g")
        x = g.input("x", (1, 4, 4, 2))
        with pytest.raises(ValueError, match="unknown op 'Conv2D'"):
            g.op("Conv2D", [x], [("y", (1,), "FLOAT_32")])
        with pytest.raises(ValueError, match="unknown param 'strides'"):
            g.op("PoolMax2d", [x], [("y", (1, 2, 2, 2), "FLOAT_32")], params={"strides": [2, 2]})
        with pytest.raises(ValueError, match="missing mandatory params"):
            g.op("PoolMax2d", [x], [("y", (1, 2, 2, 2), "FLOAT_32")], params={"filter_size": [2, 2]})
        with pytest.raises(ValueError, match="inputs; it takes"):
            g.op("ElementWiseAdd", [x], [("y", (1, 4, 4, 2), "FLOAT_32")])
        with pytest.raises(ValueError, match="exists already"):
            g.input("x", (1,))
        with pytest.raises(ValueError, match="unknown datatype"):
            g.input("z", (1,), "FLOAT_33")
        # The backend's own check (in a graph of its own: a refused node's tensors stay in its graph).
        bad = ctx.graph("refused")
        with pytest.raises(qnn.QnnError, match="QnnGraph_addNode of Relu"):
            bad.op("Relu", [bad.input("x", (1, 4, 4, 2))], [("y", (1, 3, 3, 2), "FLOAT_32")], graph_output=True)
        with pytest.raises(ValueError, match="no output"):
            ctx.graph("empty").finalize()
        g.op("Relu", [x], [("y", (1, 4, 4, 2), "FLOAT_32")], graph_output=True)
        graph = g.finalize()
        with pytest.raises(qnn.QnnError, match="finalized"):
            g.input("late", (1,))
        out = graph.run({"x": -np.ones((1, 4, 4, 2), np.float32)})["y"]
        assert not out.any()


def test_profile_events_of_a_run():
    with qnn.Backend(os.path.join(LIB, "libQnnCpu.so"), profile="detailed") as be, be.context() as ctx:
        graph = build(ctx)
        graph.run({"x": X})
        execute = [e for e in graph.profile if e.sub_events]
        assert execute, graph.profile
        nodes = [s.identifier for s in execute[0].sub_events]
        assert any("Conv2d" in n for n in nodes), nodes
        assert all(s.unit == "us" for s in execute[0].sub_events)
        graph.run({"x": X})  # each run reports its own events
        assert len([e for e in graph.profile if e.sub_events]) == 1
    with pytest.raises(ValueError):
        qnn.Backend(os.path.join(LIB, "libQnnCpu.so"), profile="everything")


def test_saver_records_the_calls(tmp_path):
    out = tmp_path / "saver"
    with qnn.Backend(os.path.join(LIB, "libQnnSaver.so"), saver_backend=os.path.join(LIB, "libQnnCpu.so"),
                     output_dir=str(out)) as be, be.context() as ctx:
        y = build(ctx).run({"x": X})["y"]
        np.testing.assert_allclose(y, reference(X), rtol=1e-5, atol=1e-5)  # passed through to the CPU backend
    files = os.listdir(out)
    assert "saver_output.c" in files, files
    with pytest.raises(qnn.QnnError, match="QnnSaver_initialize"):
        qnn.Backend(os.path.join(LIB, "libQnnCpu.so"), output_dir=str(tmp_path / "x"))


def test_devices_platform_info_and_outputs_in_place():
    with qnn.Backend(os.path.join(LIB, "libQnnHtp.so"), device=True) as be:
        info = be.platform_info()
        assert info and info[0]["cores"], info
        with be.context() as ctx:
            graph = build(ctx)
            y = np.zeros((1, 6, 7, 5), np.float32)
            out = graph.run({"x": X}, outputs={"y": y})
            assert out["y"] is y and y.any()  # written in place
            with pytest.raises(ValueError, match="output buffer"):
                graph.run({"x": X}, outputs={"y": np.zeros((1, 6, 7, 5), np.float64)})
            with pytest.raises(ValueError, match="unknown outputs"):
                graph.run({"x": X}, outputs={"z": y})
    with qnn.Backend(os.path.join(LIB, "libQnnCpu.so")) as cpu:
        with pytest.raises(qnn.QnnError, match="QnnDevice_getPlatformInfo"):
            cpu.platform_info()  # the CPU backend does not report platform info, as the vendor's


def test_graph_validate_and_op_package_from_bytes():
    """API 2.39 from Python: QnnGraph_validate on a graph being composed, and an op package registered
    from its bytes running its op exactly as the same package registered from its file."""
    pkg = os.path.join(BUILD, "oppackages", "libExampleElementwise.so")
    provider = "ExampleElementwiseCpuInterfaceProvider"
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(1, 2, 3, 4)
    outs = []
    for package in (open(pkg, "rb").read(), pkg):
        with qnn.Backend(os.path.join(LIB, "libQnnCpu.so")) as be:
            be.register_op_package(package, provider)
            with pytest.raises(qnn.QnnError) as dup:
                be.register_op_package(package, provider)
            assert dup.value.code == 4009  # QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE
            ctx = be.context()
            g = ctx.graph("softplus")
            t = g.input("x", x.shape)
            g.op("ScaledSoftplus", [t], [("y", x.shape, "FLOAT_32")], params={"beta": 2.0},
                 package="ExampleElementwise", graph_output=True)
            status, nodes = g.validate()
            assert status == 0
            assert [(n[0], n[1], n[2]) for n in nodes] == [("ScaledSoftplus_0", True, 0)]
            outs.append(g.finalize().run({"x": x})["y"])
    ref = np.log1p(np.exp(2.0 * x.astype(np.float64))) / 2.0
    assert np.allclose(outs[0], ref, rtol=1e-5, atol=1e-6)
    assert outs[0].tobytes() == outs[1].tobytes()
    with qnn.Backend(os.path.join(LIB, "libQnnCpu.so")) as be:
        with pytest.raises(qnn.QnnError) as bad:
            be.register_op_package(b"\x7fELF" + bytes(4092), provider)
        assert bad.value.code == 4013  # QNN_BACKEND_ERROR_OP_PACKAGE_LOAD_FROM_BUFFER_FAILED
