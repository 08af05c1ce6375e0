"""Backend / context / graph configs and registered memory from Python (qnn) on the built backends:
memory registered with QnnMem_register (ION and dma-buf fds, the HTP's multi-tensor shared buffer at
offsets) is read and written in place by every run and gives the outputs client buffers give; graph
configs change what the backend does (fp16 precision on the HTP, the finalize optimization mode it
checks, a VTCM request it clamps); context configs load only the enabled graphs of a binary; bad
configs and misused memory raise before anything reaches the backend, and what the backend refuses
raises QnnError with its message. Needs QNN_BUILD_DIR."""
import logging
import os

import numpy as np
import pytest

import qnn
from test_build import B, W, X, build, reference

BUILD = os.environ.get("QNN_BUILD_DIR", "")
LIB = os.path.join(BUILD, "lib", "x86_64-linux-clang")
pytestmark = pytest.mark.skipif(not os.path.isdir(LIB), reason="QNN_BUILD_DIR is not a build tree")
CPU, HTP = os.path.join(LIB, "libQnnCpu.so"), os.path.join(LIB, "libQnnHtp.so")


@pytest.mark.parametrize("backend", [CPU, HTP], ids=["cpu", "htp"])
@pytest.mark.parametrize("mem_type", ["ion", "dma_buf"])
def test_registered_memory_is_read_and_written_in_place(backend, mem_type):
    with qnn.Backend(backend) as be, be.context() as ctx:
        graph = build(ctx)
        expected = graph.run({"x": X})["y"]  # through client buffers
        x_mem, y_mem = graph.register("x", mem_type), graph.register("y", mem_type)
        assert x_mem.array.shape == X.shape and y_mem.array.dtype == np.float32
        x_mem.array[...] = X
        out = graph.run({"x": x_mem}, outputs={"y": y_mem})
        assert out["y"] is y_mem.array
        assert y_mem.array.tobytes() == expected.tobytes()
        # The backend maps the memory once: a new input written in place is what the next run reads.
        x_mem.array[...] = -X
        graph.run({"x": x_mem}, outputs={"y": y_mem})
        tol = 1e-5 if backend == CPU else 1e-4
        np.testing.assert_allclose(y_mem.array, reference(-X), rtol=tol, atol=tol)
        # A registered input with a client-buffer output, and the reverse.
        assert graph.run({"x": x_mem})["y"].tobytes() == y_mem.array.tobytes()
        y_mem.array[...] = 0
        graph.run({"x": -X}, outputs={"y": y_mem})
        np.testing.assert_allclose(y_mem.array, reference(-X), rtol=tol, atol=tol)
        x_mem.deregister()
        with pytest.raises(ValueError, match="deregistered"):
            graph.run({"x": x_mem})


def test_htp_shared_buffer_holds_several_tensors_at_offsets():
    x_bytes, y_bytes = X.nbytes, 6 * 7 * 5 * 4
    y_offset = x_bytes + 100  # not aligned to anything
    with qnn.SharedBuffer(y_offset + y_bytes) as buf:
        with qnn.Backend(HTP) as be, be.context() as ctx:
            graph = build(ctx)
            x_mem = graph.register("x", "htp_shared_buffer", buffer=buf, offset=0)
            y_mem = graph.register("y", "htp_shared_buffer", buffer=buf, offset=y_offset)
            x_mem.array[...] = X
            graph.run({"x": x_mem}, outputs={"y": y_mem})
            assert y_mem.array.tobytes() == graph.run({"x": X})["y"].tobytes()
            # The bytes really sit at the offsets of the one buffer.
            whole = buf.view((y_offset + y_bytes,), np.uint8)
            assert whole[y_offset:].tobytes() == y_mem.array.tobytes()
            assert whole[:x_bytes].tobytes() == X.tobytes()
            with pytest.raises(ValueError, match="do not fit"):
                graph.register("y", "htp_shared_buffer", buffer=buf, offset=y_offset + 4)
            with pytest.raises(ValueError, match="has no offset"):
                graph.register("y", "ion", buffer=buf, offset=y_offset)
        # The CPU backend has no custom memory type: the backend's refusal, with its code.
        with qnn.Backend(CPU) as be, be.context() as ctx:
            graph = build(ctx)
            with pytest.raises(qnn.QnnError, match="QnnMem_register") as e:
                graph.register("x", "htp_shared_buffer", buffer=buf)
            assert e.value.code == 8005  # QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE


def test_registered_memory_misuse_raises():
    with qnn.Backend(CPU) as be, be.context() as ctx, be.context() as other:
        graph = build(ctx)
        with pytest.raises(ValueError, match="no input or output 'z'"):
            graph.register("z")
        with pytest.raises(ValueError, match="mem_type"):
            graph.register("x", "pinned")
        wrong = ctx.register((1, 6, 7, 3), "FLOAT_32")
        with pytest.raises(ValueError, match="registered memory is"):
            graph.run({"x": wrong})
        foreign = other.register((1, 6, 7, 4), "FLOAT_32")
        with pytest.raises(ValueError, match="another context"):
            graph.run({"x": foreign})
        with pytest.raises(ValueError, match="unknown datatype"):
            ctx.register((4,), "FLOAT_31")
        with pytest.raises(ValueError, match="positive dims"):
            ctx.register((4, 0), "FLOAT_32")
        kept = graph.register("x")
    assert not kept.registered  # the context released it
    with pytest.raises(ValueError):
        qnn.SharedBuffer(0)


def test_htp_graph_configs_change_what_the_backend_does(caplog):
    with qnn.Backend(HTP, log_level="warn") as be, be.context() as ctx:
        fp32 = build(ctx).run({"x": X})["y"]
        g = ctx.graph("fp16", htp={"precision": "float16", "O": 3, "hvx_threads": 2})
        x = g.input("x", (1, 6, 7, 4))
        c = g.op("Conv2d", [x, g.constant("w", W), g.constant("b", B)], [("c", (1, 6, 7, 5), "FLOAT_32")],
                 params={"stride": [1, 1], "pad_amount": [[1, 1], [1, 1]]})
        g.op("Relu", [c], [("y", (1, 6, 7, 5), "FLOAT_32")], graph_output=True)
        fp16 = g.finalize().run({"x": X})["y"]
        assert not np.array_equal(fp16, fp32)  # computed in half precision
        np.testing.assert_allclose(fp16, reference(X), rtol=1e-2, atol=1e-2)
        with pytest.raises(qnn.QnnError, match="finalize optimization mode"):
            ctx.graph("bad_o", htp={"O": 5})  # the backend checks the value
        with caplog.at_level(logging.WARNING, logger="qnn"):
            ctx.graph("big_vtcm", htp={"vtcm_mb": 4096})  # more than the device has: clamped, with a warning
        assert any("MB" in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
        ctx.graphs["convrelu"].set_config(priority="high")
    with qnn.Backend(HTP) as be, be.context() as ctx:
        with pytest.raises(ValueError, match="unknown HTP graph config"):
            ctx.graph("g", htp={"vtcm": 4})
        with pytest.raises(ValueError, match="precision must be"):
            ctx.graph("g", htp={"precision": "bfloat16"})


def test_htp_fp16_clamp_overflow_and_api_2_39_priorities():
    # 300 * 300 = 90000 exceeds half's range: inf in fp16 mode, 65504 (the largest half) with the option.
    a = np.array([[300, -300, 2]], np.float32)
    with qnn.Backend(HTP) as be, be.context(priority="critical_plus") as ctx:
        got = {}
        for name, htp in (("plain", {"precision": "float16"}),
                          ("clamped", {"precision": "float16", "fp16_clamp_overflow": True})):
            g = ctx.graph(name, htp=htp, priority="high_plus")
            x = g.input("x", (1, 3))
            g.op("ElementWiseMultiply", [x, x], [("y", (1, 3), "FLOAT_32")], graph_output=True)
            got[name] = g.finalize().run({"x": a})["y"]
        assert got["plain"].tolist() == [[np.inf, np.inf, 4]]
        assert got["clamped"].tolist() == [[65504, 65504, 4]]
        ctx.set_config(priority="lowest")
    with qnn.Backend(CPU) as be, be.context(priority="critical") as ctx:
        ctx.set_config(priority="normal_low")


def test_configs_checked_before_the_backend():
    with qnn.Backend(CPU) as be:
        with pytest.raises(ValueError, match="HTP backend's"):
            be.context().graph("g", htp={"vtcm_mb": 4})  # the CPU backend would misread the HTP struct
        with pytest.raises(ValueError, match="HTP backend's"):
            be.context(htp={"weight_sharing_enabled": True})
        with pytest.raises(ValueError, match="priority must be"):
            be.context(priority="urgent")
        with pytest.raises(ValueError, match="non-negative integer"):
            be.context(memory_limit_hint=-1)
        with pytest.raises(ValueError, match="list of graph names"):
            be.context(enable_graphs="g")
        with pytest.raises(TypeError):
            be.context(colour="red")
        with pytest.raises(ValueError, match="platform options"):
            be.set_config(platform_options=[""])
        be.set_config(platform_options=["unsignedPD:ON"])
    with qnn.Backend(CPU, platform_options=["unsignedPD:ON"]) as be:
        assert be.backend_id == 3


def test_context_configs_select_graphs_of_a_binary(tmp_path):
    with qnn.Backend(HTP) as be:
        with be.context(priority="normal_high", oem_string="openqnn-test", memory_limit_hint=64,
                        htp={"weight_sharing_enabled": False}) as ctx:
            build(ctx)
            g = ctx.graph("second")
            x = g.input("x", (1, 4))
            g.op("Relu", [x], [("y", (1, 4), "FLOAT_32")], graph_output=True)
            g.finalize()
            ctx.set_config(priority="low")
            ctx.save(str(tmp_path / "two.bin"))
        with be.load_context(str(tmp_path / "two.bin")) as both:
            assert sorted(both.graphs) == ["convrelu", "second"]
        with be.load_context(str(tmp_path / "two.bin"), enable_graphs=["second"]) as one:
            assert list(one.graphs) == ["second"]
            y = one.graphs["second"].run({"x": np.array([[-1, 2, -3, 4]], np.float32)})["y"]
            assert y.tolist() == [[0, 2, 0, 4]]
        with pytest.raises(qnn.QnnError, match="QnnContext_createFromBinary"):
            be.load_context(str(tmp_path / "two.bin"), enable_graphs=["third"])
        with pytest.raises(qnn.QnnError, match="closed"):
            ctx.set_config(priority="low")  # a closed context: raises before any call
