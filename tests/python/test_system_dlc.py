"""qnn.Dlc (libQnnSystem.so's system API 1.14) and Context.add_to_dlc (QnnContext_addToDlc) with a
graph built in Python on the built backends. Needs QNN_BUILD_DIR."""
import os

import numpy as np
import pytest

import qnn
from test_build import B, BUILD, LIB, W, X, build

pytestmark = pytest.mark.skipif(not os.path.isdir(LIB), reason="QNN_BUILD_DIR is not a build tree")


@pytest.mark.parametrize("backend", ["libQnnCpu.so", "libQnnHtp.so"])
def test_built_graph_through_a_system_dlc(tmp_path, backend):
    """ctx.add_to_dlc (QnnContext_addToDlc) into an empty qnn.Dlc: its graphs and records read back,
    saved, composed from the DLC by libQnnModelDlc.so: outputs equal the built graph's."""
    with qnn.Backend(os.path.join(LIB, backend)) as be:
        with be.context() as ctx, be.dlc(str(tmp_path)) as dlc:
            y = build(ctx).run({"x": X})["y"]
            ctx.add_to_dlc(dlc)
            assert dlc.graph_names() == ["convrelu"]
            assert b'"convrelu"' in dlc.record("model")
            assert dlc.record("no such record") is None
            cache = "htp_cache.0" if backend == "libQnnHtp.so" else "cpu_cache.0"
            assert dlc.record(cache) is not None
            with pytest.raises(qnn.QnnError, match="QnnContext_addToDlc"):
                ctx.add_to_dlc(dlc)  # its graph is in the DLC already
            dlc.save("convrelu.dlc")
            data = dlc.binary()
        assert (tmp_path / "convrelu.dlc").read_bytes() == data
        with be.open_dlc(data) as again:
            assert again.graph_names() == ["convrelu"]
        with be.load_model_library(os.path.join(BUILD, "sdk", "model_dlc", "libQnnModelDlc.so"),
                                   dlc_path=str(tmp_path / "convrelu.dlc")) as composed:
            assert np.array_equal(composed.graphs["convrelu"].run({"x": X})["y"], y)


@pytest.mark.parametrize("backend", ["libQnnCpu.so", "libQnnHtp.so"])
def test_cpp_written_dlc_read_by_the_python_reader(tmp_path, backend):
    """The DLC the C++ writer makes (QnnContext_addToDlc, saved by libQnnSystem.so) read by qnn.dlc's
    reader, which qairt-quantizer uses: the built graph's tensors, weights and ops."""
    from qnn.dlc.reader import read_dlc
    with qnn.Backend(os.path.join(LIB, backend)) as be:
        with be.context() as ctx, be.dlc(str(tmp_path)) as dlc:
            build(ctx)
            ctx.add_to_dlc(dlc)
            dlc.save("convrelu.dlc")
    read = read_dlc(str(tmp_path / "convrelu.dlc"))
    assert [g.name for g in read.graphs] == ["convrelu"]
    g = read.graphs[0]
    assert (g.inputs, g.outputs) == (["x"], ["y"])
    assert [op.type for op in g.ops] == ["Conv2d", "Relu"]
    assert g.tensors["x"].kind == "in" and g.tensors["y"].kind == "out"
    assert g.tensors["x"].shape == [1, 6, 7, 4] and g.tensors["y"].shape == [1, 6, 7, 5]
    assert np.array_equal(np.asarray(g.tensors["w"].data).reshape(W.shape), W)
    assert np.array_equal(np.asarray(g.tensors["b"].data).reshape(B.shape), B)
