"""The DLC route (docs/dlc-format.md): qairt-converter -> DLC -> qnn-net-run --model libQnnModelDlc.so
--dlc_path, against the model.cpp route of the same model (qnn-onnx-converter --preserve_io, which keeps
the source layouts as qairt-converter does) on the CPU backend: outputs equal bit for bit; two DLCs
compose into one context; qnn-context-binary-generator --dlc_path saves a context that runs the same; damaged, truncated and foreign files are refused with one clear error line
(never a crash); qnn-dlc-info lists the graph; bad converter requests end in `qairt-converter: error:`.
qairt-quantizer on the float DLC with the same calibration list as qnn-onnx-converter --input_list: the
quantized DLC runs bit for bit like the quantized model.cpp on the CPU and HTP backends (MobileNetV2 on the
HTP too with GEN_MODELS_PY); a quantized, damaged or uncalibrated request ends in `qairt-quantizer: error:`.
usage: test_dlc.py BUILD_DIR [GEN_MODELS_PY]   (with make_models.py: MobileNetV2 too)"""
import json
import os
import random
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:
    print("SKIP: python3-onnx / python3-numpy not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Tools, run, save  # noqa: E402


def small_cnn(path):
    rs = np.random.RandomState(3)
    inits = {"w": rs.uniform(-1, 1, (8, 3, 3, 3)).astype(np.float32), "b": rs.uniform(-1, 1, 8).astype(np.float32),
             "fw": rs.uniform(-1, 1, (10, 8 * 4 * 4)).astype(np.float32), "fb": rs.uniform(-1, 1, 10).astype(np.float32),
             "shape": np.array([1, -1], np.int64)}
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Reshape", ["p", "shape"], ["f"]),
             helper.make_node("Gemm", ["f", "fw", "fb"], ["logits"], transB=1),
             helper.make_node("Softmax", ["logits"], ["probs"], axis=1)]
    save(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
         [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10]),
          helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])], inits, path)


class Routes:
    def __init__(self, tools, work):
        self.t, self.work = tools, work
        self.qairt = os.path.join(tools.b, "bin", "qairt-converter")
        self.quantizer = os.path.join(tools.b, "bin", "qairt-quantizer")
        self.htp = os.path.join(tools.b, "backends", "htp_sim", "libQnnHtp.so")
        self.dlclib = os.path.join(tools.b, "sdk", "model_dlc", "libQnnModelDlc.so")

    def input_list(self, name, shape):
        raw = os.path.join(self.work, name + "_in.raw")
        np.random.RandomState(11).uniform(-1, 1, shape).astype(np.float32).tofile(raw)
        lst = os.path.join(self.work, name + "_list.txt")
        with open(lst, "w") as f:
            f.write(raw + "\n")
        return lst

    def dlc(self, model, name):
        out = os.path.join(self.work, name + ".dlc")
        run([self.qairt, "-i", model, "-o", out])
        return out

    def quantized_dlc(self, model, name, lst):
        out = os.path.join(self.work, name + "_quantized.dlc")
        run([self.quantizer, "--input_dlc", self.dlc(model, name), "--input_list", lst, "--output_dlc", out])
        return out

    def run_dlc(self, dlcs, lists, out, ok=True, backend=None, extra=()):
        return run([self.t.netrun, "--model", self.dlclib, "--dlc_path", ",".join(dlcs), "--backend",
                    backend or self.t.cpu, "--input_list", ",".join(lists), "--output_dir", out] + list(extra), ok=ok)

    def run_cpp(self, model, name, lst, out, quantize=False, backends=None, extra=(), run_extra=()):
        """The model.cpp route (quantized with lst as calibration when quantize); outputs of backend k in out + k."""
        cpp = os.path.join(self.work, name + ".cpp")
        run([self.t.conv, "-i", model, "-o", cpp, "--preserve_io"] + (["--input_list", lst] if quantize else [])
            + list(extra))
        run([self.t.libgen, "-c", cpp, "-b", cpp[:-4] + ".bin", "-o", os.path.join(self.work, "lib_" + name)])
        lib = os.path.join(self.work, "lib_" + name, "x86_64-linux-clang", f"lib{name}.so")
        for k, backend in enumerate(backends or [self.t.cpu]):
            run([self.t.netrun, "--model", lib, "--backend", backend, "--input_list", lst, "--output_dir",
                 out + (str(k) if backends else "")] + list(run_extra))


def fix_preamble(d):
    """The preamble CRC (bytes 44..47) over bytes 0..43 and 48..63, recomputed."""
    import zlib
    crc = zlib.crc32(d[:44] + d[48:64]) & 0xFFFFFFFF
    return d[:44] + crc.to_bytes(4, "little") + d[48:]


def same_outputs(a, b, names, what):
    for n in names:
        x, y = open(os.path.join(a, n + ".raw"), "rb").read(), open(os.path.join(b, n + ".raw"), "rb").read()
        if x != y:
            sys.exit(f"FAIL: {what}: output {n} differs between the DLC and model.cpp routes")


def expect_refused(r, dlc, lst, out, needle, what):
    p = r.run_dlc([dlc], [lst], out, ok=False)
    text = p.stdout + p.stderr
    if p.returncode <= 0 or "Traceback" in text or needle not in text or "qnn-net-run: error:" not in text:
        sys.exit(f"FAIL: {what}: exit {p.returncode}, expected an error naming '{needle}':\n{text}")


def custom_ops(tools, r, work, info):
    """--op_package_config: a model using ExampleNorm's RmsNorm (a custom-domain node between ONNX ops)
    through both converters; the DLC names the package it needs; with the package registered
    (--op_packages) both routes give the same bits, equal to a float64 reference within 1e-6."""
    xml = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "oppackages", "ExampleNorm",
                       "config", "ExampleNorm.xml")
    pkg = os.path.join(tools.b, "oppackages", "libExampleNorm.so")
    if not os.path.isfile(pkg):
        print("skip: custom ops (libExampleNorm.so not built)")
        return
    gamma = np.linspace(0.5, 1.5, 6).astype(np.float32)
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("RmsNorm", ["r", "gamma"], ["n"], domain="openqnn.examples", axes=[2], epsilon=1e-5,
                              mode="standard"),
             helper.make_node("Mul", ["n", "two"], ["y"])]
    graph = helper.make_graph(nodes, "custom", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6])],
                              [numpy_helper.from_array(gamma, "gamma"),
                               numpy_helper.from_array(np.array([2.0], np.float32), "two")],
                              value_info=[helper.make_tensor_value_info("n", TensorProto.FLOAT, [1, 4, 6])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("openqnn.examples", 1)])
    model = os.path.join(work, "custom.onnx")
    onnx.save(m, model)
    x = np.random.RandomState(9).uniform(-1, 1, (1, 4, 6)).astype(np.float32)
    raw = os.path.join(work, "custom_in.raw")
    x.tofile(raw)
    lst = os.path.join(work, "custom_list.txt")
    with open(lst, "w") as f:
        f.write(raw + "\n")
    reg = ["--op_packages", pkg + ":ExampleNormCpuInterfaceProvider"]
    dlc = os.path.join(work, "custom.dlc")
    run([r.qairt, "-i", model, "-o", dlc, "--op_package_config", xml])
    doc = json.loads(run([info, "-i", dlc, "--json"]).stdout)
    g = doc["graphs"][0]
    if g.get("op_packages", [{}])[0].get("name") != "ExampleNorm" or \
            not any(n["package"] == "ExampleNorm" and n["type"] == "RmsNorm" for n in g["nodes"]):
        sys.exit(f"FAIL: the DLC does not name the op package: {g.get('op_packages')}")
    r.run_dlc([dlc], [lst], os.path.join(work, "custom_dlc"), extra=reg)
    r.run_cpp(model, "custom", lst, os.path.join(work, "custom_cpp"), extra=["--op_package_config", xml],
              run_extra=reg)
    same_outputs(os.path.join(work, "custom_dlc", "Result_0"), os.path.join(work, "custom_cpp", "Result_0"), ["y"],
                 "custom op")
    rr = np.maximum(x.astype(np.float64), 0)
    ref = rr / np.sqrt((rr ** 2).mean(axis=2, keepdims=True) + 1e-5) * gamma * 2
    got = np.fromfile(os.path.join(work, "custom_dlc", "Result_0", "y.raw"), np.float32).reshape(ref.shape)
    if np.abs(got - ref).max() > 1e-5:
        sys.exit(f"FAIL: custom op output differs from the reference by {np.abs(got - ref).max()}")
    # Without the package registered: one clear error naming it; a config without the op's attribute: refused.
    p = r.run_dlc([dlc], [lst], os.path.join(work, "custom_unreg"), ok=False)
    if p.returncode == 0 or "Traceback" in p.stdout + p.stderr or "needs op package 'ExampleNorm'" not in p.stderr:
        sys.exit(f"FAIL: a custom-op DLC without its package: {p.returncode} {p.stderr}")
    bad = helper.make_model(helper.make_graph(
        [helper.make_node("RmsNorm", ["x", "gamma"], ["y"], domain="openqnn.examples", width=3)], "bad",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6])], [numpy_helper.from_array(gamma, "gamma")]),
        opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("openqnn.examples", 1)])
    onnx.save(bad, os.path.join(work, "custom_bad.onnx"))
    for args, needle in ([["-i", os.path.join(work, "custom_bad.onnx"), "--op_package_config", xml],
                          "'width'"],
                         [["-i", model, "--op_package_config", os.path.join(work, "missing.xml")], "cannot read"],
                         [["-i", model], "unsupported op RmsNorm"]):
        p = run([r.qairt, *args, "-o", os.path.join(work, "x.dlc")], ok=False)
        if p.returncode == 0 or needle not in p.stderr or "Traceback" in p.stderr:
            sys.exit(f"FAIL: qairt-converter {args}: {p.stderr}")
    print("ok: custom op (ExampleNorm RmsNorm): DLC route == model.cpp route, == float64 reference; package named")


def merge_dlcs(paths, out):
    """One DLC holding the graphs of several (docs/dlc-format.md: preamble, data region, compressed JSON
    header): data regions appended in order with the tensors' offsets moved, the graph lists joined."""
    import struct
    import zlib
    pre = struct.Struct("<8sIIQQQIIQQ")
    data, graphs, meta = bytearray(b"\0" * 64), [], None
    for path in paths:
        d = open(path, "rb").read()
        magic, version, flags, hoff, hsize, raw, crc, _, size, _ = pre.unpack(d[:64])
        header = json.loads(zlib.decompress(d[hoff:hoff + hsize]))
        meta = meta or header["metadata"]
        data += b"\0" * ((-len(data)) % 64)
        delta = len(data) - 64
        data += d[64:hoff]
        for g in header["graphs"]:
            for t in g["tensors"].values():
                if "data" in t:
                    t["data"]["offset"] += delta
            graphs.append(g)
    raw = json.dumps({"format": "openqnn-dlc", "version": version, "metadata": meta, "graphs": graphs}).encode()
    packed = zlib.compress(raw, 6)
    data += b"\0" * ((-len(data)) % 64)
    hoff = len(data)
    data += packed
    p = pre.pack(magic, version, flags, hoff, len(packed), len(raw), zlib.crc32(packed) & 0xFFFFFFFF, 0, len(data), 0)
    p = p[:44] + struct.pack("<I", zlib.crc32(p[:44] + p[48:]) & 0xFFFFFFFF) + p[48:]
    data[:64] = p
    open(out, "wb").write(bytes(data))


def lpbq_encoding(w, channel_axis, block_axis, block):
    """AIMET 1.0.0 LPBQ entry for float weights w (4-bit values expanded to 8 bits): per-block scales
    max|w| / 7, the channel's float scale = its largest block scale / 16, integers round(s / that) in 1..16."""
    wc = np.moveaxis(w, [channel_axis, block_axis], [0, 1]).astype(np.float64)
    c, n = wc.shape[0], wc.shape[1] // block
    blocks = np.abs(wc.reshape(c, n, block, -1)).max(axis=(2, 3)) / 7.0
    chan = blocks.max(axis=1) / 16.0
    ints = np.clip(np.rint(blocks / chan[:, None]), 1, 16).astype(int)
    return {"enc_type": "LPBQ", "dtype": "INT", "bw": 8, "compressed_bw": 4, "block_size": block, "is_sym": True,
            "scale": [float(np.float32(v)) for v in chan], "offset": [-128] * c,
            "per_block_int_scale": ints.reshape(-1).tolist()}


def lpbq(tools, r, work, model, cal, info):
    """LPBQ (blockwise-expansion) weight encodings given as AIMET 1.0.0 overrides: the Gemm weight in blocks
    of 32 inputs, the Conv weight one block per input channel. qairt-converter caches them, qairt-quantizer
    applies them: the quantized DLC runs bit for bit like qnn-onnx-converter --quantization_overrides on the
    CPU and HTP; the weights the converter stored are 4-bit values whose dequantization by the encoding's
    definition lies within half a block step of the float weights; qnn-dlc-info shows the encoding."""
    m = onnx.load(model)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    fw = lpbq_encoding(inits["fw"], 0, 1, 32)        # Gemm transB: [out, in]
    cw = lpbq_encoding(inits["w"], 0, 1, 1)          # Conv: [out, in, kh, kw]
    ov = os.path.join(work, "lpbq.json")
    with open(ov, "w") as f:
        json.dump({"version": "1.0.0", "activation_encodings": [],
                   "param_encodings": [dict(fw, name="fw"), dict(cw, name="w")]}, f)
    fdlc, qdlc = os.path.join(work, "lpbq.dlc"), os.path.join(work, "lpbq_q.dlc")
    run([r.qairt, "-i", model, "-o", fdlc, "--quantization_overrides", ov])
    run([r.quantizer, "--input_dlc", fdlc, "--input_list", cal, "--output_dlc", qdlc])
    r.run_cpp(model, "small_cnn_lpbq", cal, os.path.join(work, "lpbq_cpp"), quantize=True,
              backends=[tools.cpu, r.htp], extra=["--quantization_overrides", ov])
    for k, backend in enumerate([tools.cpu, r.htp]):
        r.run_dlc([qdlc], [cal], os.path.join(work, f"lpbq_dlc{k}"), backend=backend)
        for i in range(3):
            same_outputs(os.path.join(work, f"lpbq_dlc{k}", f"Result_{i}"), os.path.join(work, f"lpbq_cpp{k}", f"Result_{i}"),
                         ["logits", "probs"], f"LPBQ small_cnn on {os.path.basename(backend)}, input {i}")
    doc = json.loads(run([info, "-i", qdlc, "--json"]).stdout)
    # (the converter's layout copies are named <weight>_fc / <weight>_hwio)
    found = {t.get("source_name", t["name"]).split("_")[0]: t["quant_params"] for t in doc["graphs"][0]["tensors"]
             if "quant_params" in t and "blockwise_expansion" in t["quant_params"]}
    packed = {t.get("source_name", t["name"]).split("_")[0]: t["data_type"] for t in doc["graphs"][0]["tensors"]
              if "quant_params" in t and "blockwise_expansion" in t["quant_params"]}
    if packed != {"fw": "QNN_DATATYPE_SFIXED_POINT_4", "w": "QNN_DATATYPE_SFIXED_POINT_4"}:
        sys.exit(f"FAIL: the quantized DLC's LPBQ weights are not packed SFIXED_POINT_4: {packed}")
    if set(found) != {"fw", "w"} or found["fw"]["blockwise_expansion"]["num_blocks"] != 4 \
            or found["w"]["blockwise_expansion"]["num_blocks"] != 3 \
            or found["fw"]["blockwise_expansion"]["block_scales"] != fw["per_block_int_scale"]:
        sys.exit(f"FAIL: qnn-dlc-info does not show the LPBQ encodings: {json.dumps(found)[:400]}")
    # The stored weights (model.cpp route's .bin): 4-bit values, dequantized by the definition.
    import tarfile
    with tarfile.open(os.path.join(work, "small_cnn_lpbq.bin")) as tar:
        names = {os.path.basename(n): n for n in tar.getnames()}
        raw = tar.extractfile(names[next(n for n in names if n.startswith("fw"))]).read()
    # Packed SFIXED_POINT_4: two values per byte, the first in the low nibble, sign-extended here.
    nib = np.frombuffer(raw, np.uint8)
    if len(raw) != 10 * 128 // 2:
        sys.exit(f"FAIL: LPBQ weight of 1280 4-bit values stored in {len(raw)} bytes, not packed in 640")
    nib = np.stack([nib & 0xF, nib >> 4], axis=1).reshape(-1).astype(np.int16)
    q = np.where(nib >= 8, nib - 16, nib).reshape(10, 128)
    if q.min() < -8 or q.max() > 7:
        sys.exit(f"FAIL: LPBQ weight values outside 4 bits: {q.min()}..{q.max()}")
    step = (np.float32(fw["scale"])[:, None] * np.float32(np.reshape(fw["per_block_int_scale"], (10, 4)))).astype(np.float64)
    real = q.astype(np.float64) * np.repeat(step, 32, axis=1)
    err = np.abs(real - inits["fw"]) / np.repeat(step, 32, axis=1)
    if err.max() > 0.5 + 1e-6 or len(np.unique(q)) < 12:
        sys.exit(f"FAIL: LPBQ weights do not follow the encoding: max error {err.max():.3f} steps")
    # The encodings file the model.cpp route writes carries the LPBQ entry as given (readable as overrides).
    written = json.load(open(os.path.join(work, "small_cnn_lpbq_encodings.json")))["param_encodings"]
    lp = [v for k, v in written.items() if k.startswith("fw") and isinstance(v, dict)]
    if len(lp) != 1 or lp[0]["per_block_int_scale"] != fw["per_block_int_scale"] or lp[0]["block_size"] != 32 \
            or lp[0]["compressed_bw"] != 4 or lp[0]["bw"] != 8 or lp[0]["scale"] != fw["scale"]:
        sys.exit(f"FAIL: the written encodings do not carry the LPBQ entry: {json.dumps(lp)[:300]}")
    # Malformed or unsupported block encodings: one error line naming the tensor, never a traceback.
    bad_cases = [(dict(fw, name="fw", block_size=48), "do not cut 10 channels of 128 inputs into blocks of 48"),
                 (dict(fw, name="fw", enc_type="PER_BLOCK"), "enc_type PER_BLOCK (QNN's BLOCK encoding) is not supported"),
                 (dict(fw, name="fw", is_sym=False), "an LPBQ encoding must be symmetric"),
                 (dict(fw, name="fw", per_block_int_scale=[0] * 40), "per_block_int_scale values must lie in 1..16"),
                 (dict(fw, name="b"), "LPBQ encoding applies to the weights of Conv, Gemm or MatMul")]
    for k, (entry, needle) in enumerate(bad_cases):
        bad = os.path.join(work, f"lpbq_bad{k}.json")
        with open(bad, "w") as f:
            json.dump({"version": "1.0.0", "activation_encodings": [], "param_encodings": [entry]}, f)
        p = run([tools.conv, "-i", model, "-o", os.path.join(work, "bad.cpp"), "--input_list", cal,
                 "--quantization_overrides", bad], ok=False)
        if p.returncode == 0 or needle not in p.stderr or "Traceback" in p.stderr:
            sys.exit(f"FAIL: LPBQ override {k}: exit {p.returncode}, expected '{needle}':\n{p.stderr}")
    print("ok: LPBQ overrides (AIMET 1.0.0) -> BLOCKWISE_EXPANSION: DLC route == model.cpp route on CPU and HTP; "
          "weights within half a block step")


def main():
    build = sys.argv[1]
    gen_models = sys.argv[2] if len(sys.argv) > 2 else ""
    tools = Tools(build)
    work = tempfile.mkdtemp(prefix="qnn_dlc_")
    r = Routes(tools, work)

    model = os.path.join(work, "small_cnn.onnx")
    small_cnn(model)
    lst = r.input_list("small_cnn", (1, 3, 8, 8))
    dlc = r.dlc(model, "small_cnn")
    r.run_dlc([dlc], [lst], os.path.join(work, "out_dlc"))
    r.run_cpp(model, "small_cnn", lst, os.path.join(work, "out_cpp"))
    same_outputs(os.path.join(work, "out_dlc", "Result_0"), os.path.join(work, "out_cpp", "Result_0"),
                 ["logits", "probs"], "small_cnn")
    print("ok: small_cnn, DLC route == model.cpp route bit for bit")

    # Two DLCs composed into one context: each graph's outputs as when run alone.
    dlc2 = r.dlc(model, "small_cnn_b")
    r.run_dlc([dlc, dlc2], [lst, lst], os.path.join(work, "out_two"))
    for g in ("small_cnn", "small_cnn_b"):
        same_outputs(os.path.join(work, "out_two", "Result_0", g), os.path.join(work, "out_cpp", "Result_0"),
                     ["logits", "probs"], "two DLCs, graph " + g)
    print("ok: two DLCs in one context")

    # qnn-context-binary-generator --dlc_path: the saved context runs like the DLC itself.
    gen = os.path.join(tools.b, "bin", "qnn-context-binary-generator")
    run([gen, "--model", r.dlclib, "--dlc_path", dlc, "--backend", tools.cpu, "--binary_file", "small_cnn_ctx",
         "--output_dir", os.path.join(work, "ctx")])
    run([tools.netrun, "--retrieve_context", os.path.join(work, "ctx", "small_cnn_ctx.bin"), "--backend", tools.cpu,
         "--input_list", lst, "--output_dir", os.path.join(work, "out_ctx")])
    same_outputs(os.path.join(work, "out_ctx", "Result_0"), os.path.join(work, "out_cpp", "Result_0"),
                 ["logits", "probs"], "context binary from the DLC")
    # Two DLCs into one context binary: both graphs retrieved and run from it.
    run([gen, "--model", r.dlclib, "--dlc_path", dlc + "," + dlc2, "--backend", tools.cpu, "--binary_file", "two_ctx",
         "--output_dir", os.path.join(work, "ctx")])
    run([tools.netrun, "--retrieve_context", os.path.join(work, "ctx", "two_ctx.bin"), "--backend", tools.cpu,
         "--input_list", lst + "," + lst, "--output_dir", os.path.join(work, "out_two_ctx")])
    for g in ("small_cnn", "small_cnn_b"):
        same_outputs(os.path.join(work, "out_two_ctx", "Result_0", g), os.path.join(work, "out_cpp", "Result_0"),
                     ["logits", "probs"], "two DLCs in one context binary, graph " + g)
    print("ok: context binary from a DLC; two DLCs in one context binary")

    # One DLC file holding two graphs (the format allows any number): both compose into one context;
    # qnn-net-run --graph-name / --graph-index run one of them with one input list.
    both = os.path.join(work, "two_graphs.dlc")
    merge_dlcs([dlc, dlc2], both)
    info = os.path.join(tools.b, "bin", "qnn-dlc-info")
    names = [g["name"] for g in json.loads(run([info, "-i", both, "--json"]).stdout)["graphs"]]
    if names != ["small_cnn", "small_cnn_b"]:
        sys.exit(f"FAIL: the two-graph DLC lists {names}")
    r.run_dlc([both], [lst, lst], os.path.join(work, "out_both"))
    for g in names:
        same_outputs(os.path.join(work, "out_both", "Result_0", g), os.path.join(work, "out_cpp", "Result_0"),
                     ["logits", "probs"], "two-graph DLC, graph " + g)
    for sel, g in ((["--graph-name", "small_cnn_b"], "small_cnn_b"), (["--graph-index", "0"], "small_cnn")):
        out = os.path.join(work, "out_sel_" + g)
        r.run_dlc([both], [lst], out, extra=sel)
        same_outputs(os.path.join(out, "Result_0", g), os.path.join(work, "out_cpp", "Result_0"),
                     ["logits", "probs"], f"{' '.join(sel)} of the two-graph DLC")
        other = "small_cnn" if g == "small_cnn_b" else "small_cnn_b"
        if os.path.exists(os.path.join(out, "Result_0", other)):
            sys.exit(f"FAIL: {' '.join(sel)} ran graph {other} too")
    for sel, needle in ((["--graph-name", "nope"], "no graph named 'nope' (the graphs: 'small_cnn', 'small_cnn_b')"),
                        (["--graph-index", "2"], "--graph-index 2: there are 2 graph(s)"),
                        (["--graph-index", "-1"], "must be a non-negative integer")):
        p = r.run_dlc([both], [lst], os.path.join(work, "out_bad_sel"), ok=False, extra=sel)
        if p.returncode == 0 or needle not in p.stderr or "Traceback" in p.stderr:
            sys.exit(f"FAIL: {' '.join(sel)}: exit {p.returncode}, expected '{needle}':\n{p.stderr}")
    print("ok: two graphs in one DLC file; --graph-name / --graph-index")

    # qnn-throughput-net-run: a model entry with libQnnModelDlc.so and a dlcPath.
    tnr = os.path.join(tools.b, "bin", "qnn-throughput-net-run")
    cfg = {"backends": [{"backendName": "cpu", "backendPath": tools.cpu}],
           "models": [{"modelName": "m", "modelPath": r.dlclib, "dlcPath": dlc, "inputPath": lst}],
           "contexts": [{"contextName": "c"}],
           "testCase": {"iteration": 1, "threads": [{"threadName": "t", "backend": "cpu", "context": "c",
                                                      "model": "m", "loop": 4}]}}
    with open(os.path.join(work, "tp.json"), "w") as f:
        json.dump(cfg, f)
    run([tnr, "--config", os.path.join(work, "tp.json"), "--output", os.path.join(work, "tp_result.json")])
    res = json.load(open(os.path.join(work, "tp_result.json")))
    if res["total"]["inferences"] != 4:
        sys.exit(f"FAIL: qnn-throughput-net-run with a DLC: {res}")
    cfg["models"][0]["dlcPath"] = os.path.join(work, "missing.dlc")
    with open(os.path.join(work, "tp_bad.json"), "w") as f:
        json.dump(cfg, f)
    p = run([tnr, "--config", os.path.join(work, "tp_bad.json")], ok=False)
    if p.returncode == 0 or "missing.dlc" not in p.stderr or "Traceback" in p.stderr:
        sys.exit(f"FAIL: qnn-throughput-net-run with a missing DLC: {p.returncode} {p.stderr}")
    print("ok: qnn-throughput-net-run runs a DLC (models[].dlcPath)")

    # qnn-dlc-info: the graph as the converter wrote it (6 ONNX nodes + the input layout transpose).
    doc = json.loads(run([info, "-i", dlc, "--json"]).stdout)
    g = doc["graphs"][0]
    weights = sum(t["static_bytes"] for t in g["tensors"])
    expect = (8 * 3 * 3 * 3 + 8 + 10 * 128 + 10) * 4
    if g["name"] != "small_cnn" or g["inputs"] != ["x"] or g["outputs"] != ["logits", "probs"] \
            or g["weight_bytes"] != weights or weights != expect or doc["metadata"]["converter"] != "qairt-converter":
        sys.exit(f"FAIL: qnn-dlc-info --json: {json.dumps(doc)[:600]}")
    text = run([info, "-i", dlc]).stdout
    if "Graph 'small_cnn'" not in text or "Conv2d" not in text or "FullyConnected" not in text:
        sys.exit(f"FAIL: qnn-dlc-info text:\n{text}")
    print("ok: qnn-dlc-info")

    # Damaged files: each refused with one error line naming the problem.
    data = bytearray(open(dlc, "rb").read())
    cases = {"magic": (lambda d: d[:0] + b"XXXX" + d[4:], "not an OpenQNN DLC"),
             "truncated": (lambda d: d[:-7], "truncated"),
             "weights": (lambda d: d[:200] + bytes([d[200] ^ 0x10]) + d[201:], "CRC mismatch"),
             "header": (lambda d: d[:-3] + bytes([d[-3] ^ 0x01]) + d[-2:], "header CRC mismatch"),
             "version": (lambda d: d[:8] + b"\x07\0\0\0" + d[12:], "format version 7"),
             "empty": (lambda d: b"", "shorter than the 64-byte preamble"),
             # a stated header size deflate cannot reach from the stored bytes (fuzz_dlc): refused
             # before it is allocated, with the preamble's own CRC made right
             "inflated": (lambda d: fix_preamble(d[:32] + (200 << 20).to_bytes(8, "little") + d[40:]),
                          "header size 209715200 refused")}
    for name, (mutate, needle) in cases.items():
        bad = os.path.join(work, f"bad_{name}.dlc")
        open(bad, "wb").write(bytes(mutate(bytes(data))))
        expect_refused(r, bad, lst, os.path.join(work, "out_bad"), needle, "damaged DLC (" + name + ")")
        p = run([info, "-i", bad], ok=False)
        if p.returncode != 1 or "qnn-dlc-info: error:" not in p.stderr or needle not in p.stderr:
            sys.exit(f"FAIL: qnn-dlc-info on a damaged DLC ({name}): {p.returncode} {p.stderr}")
    # Random bit flips: refused cleanly, or (in the zero padding no check covers) the same outputs.
    rng = random.Random(5)
    for i in range(12):
        d = bytearray(data)
        at = rng.randrange(len(d))
        d[at] ^= 1 << rng.randrange(8)
        bad = os.path.join(work, "flip.dlc")
        open(bad, "wb").write(d)
        out = os.path.join(work, f"out_flip{i}")
        p = r.run_dlc([bad], [lst], out, ok=False)
        text = p.stdout + p.stderr
        if p.returncode == 0:
            same_outputs(os.path.join(out, "Result_0"), os.path.join(work, "out_cpp", "Result_0"), ["logits", "probs"],
                         f"bit flip at {at} accepted")
        elif p.returncode < 0 or "Traceback" in text or "qnn-net-run: error:" not in text:
            sys.exit(f"FAIL: bit flip at byte {at}: exit {p.returncode}\n{text}")
    expect_refused(r, os.path.join(work, "small_cnn.onnx"), lst, os.path.join(work, "out_bad"), "not an OpenQNN DLC",
                   "an ONNX file as a DLC")
    p = run([tools.netrun, "--model", tools.cpu, "--dlc_path", dlc, "--backend", tools.cpu, "--input_list", lst,
             "--output_dir", os.path.join(work, "out_bad")], ok=False)
    if p.returncode == 0 or "libQnnModelDlc.so" not in p.stderr:
        sys.exit(f"FAIL: --dlc_path with a backend as --model: {p.stderr}")
    print("ok: damaged and foreign files refused")

    # Converter errors: one `qairt-converter: error:` line, no traceback.
    for args, needle in ([["-i", os.path.join(work, "missing.onnx")], "error:"],
                         [["-i", model, "--quantization_overrides", os.path.join(work, "missing.json")],
                          "cannot read"],
                         [["-i", model, "--io_config", "x.yaml"], "not supported yet"]):
        p = run([r.qairt, *args, "-o", os.path.join(work, "x.dlc")], ok=False)
        if p.returncode == 0 or "qairt-converter: error:" not in p.stderr or needle not in p.stderr \
                or "Traceback" in p.stderr:
            sys.exit(f"FAIL: qairt-converter {args}: {p.stderr}")
    print("ok: converter errors")

    # qairt-quantizer: the same encodings as the converter's own quantization, so the same bits.
    cal = os.path.join(work, "calibration.txt")
    with open(cal, "w") as f:
        for i in range(3):
            raw = os.path.join(work, f"cal{i}.raw")
            np.random.RandomState(40 + i).uniform(-1, 1, (1, 3, 8, 8)).astype(np.float32).tofile(raw)
            f.write(raw + "\n")
    qdlc = r.quantized_dlc(model, "small_cnn_q", cal)
    r.run_cpp(model, "small_cnn_q", cal, os.path.join(work, "q_cpp"), quantize=True, backends=[tools.cpu, r.htp])
    for k, backend in enumerate([tools.cpu, r.htp]):
        r.run_dlc([qdlc], [cal], os.path.join(work, f"q_dlc{k}"), backend=backend)
        for i in range(3):
            same_outputs(os.path.join(work, f"q_dlc{k}", f"Result_{i}"), os.path.join(work, f"q_cpp{k}", f"Result_{i}"),
                         ["logits", "probs"], f"quantized small_cnn on {os.path.basename(backend)}, input {i}")
    doc = json.loads(run([info, "-i", qdlc, "--json"]).stdout)
    if doc["metadata"].get("quantizer") != "qairt-quantizer" or doc["metadata"]["converter"] != "qairt-converter":
        sys.exit(f"FAIL: quantized DLC metadata: {doc['metadata']}")
    print("ok: qairt-quantizer DLC == quantized model.cpp bit for bit on CPU and HTP")
    for args, needle in ([["--input_dlc", dlc], "--input_list is required"],
                         [["--input_dlc", qdlc, "--input_list", cal], "is already quantized"],
                         [["--input_dlc", os.path.join(work, "bad_header.dlc"), "--input_list", cal],
                          "header checksum mismatch"],
                         [["--input_dlc", os.path.join(work, "bad_truncated.dlc"), "--input_list", cal], "truncated"],
                         [["--input_dlc", dlc, "--input_list", os.path.join(work, "missing.txt")], "cannot read"],
                         [["--input_dlc", dlc, "--input_list", cal, "--act_bitwidth", "12"], "must be 8 or 16"]):
        p = run([r.quantizer, *args, "--output_dlc", os.path.join(work, "x.dlc")], ok=False)
        if p.returncode != 1 or "qairt-quantizer: error:" not in p.stderr or needle not in p.stderr \
                or "Traceback" in p.stderr:
            sys.exit(f"FAIL: qairt-quantizer {args}: {p.returncode} {p.stderr}")
    print("ok: quantizer errors")

    # Quantization overrides, given to qairt-converter by source-model names (an activation, a weight and a
    # bias), cached in the float DLC and applied by qairt-quantizer: the same bits as qnn-onnx-converter
    # --quantization_overrides on the same model and calibration.
    ov = os.path.join(work, "overrides.json")
    with open(ov, "w") as f:
        json.dump({"version": "0.5.0",
                   "activation_encodings": {"r": [{"bitwidth": 8, "min": 0.0, "max": 0.5}],
                                            "nowhere": [{"bitwidth": 8, "min": 0.0, "max": 1.0}]},
                   "param_encodings": {"w": [{"bitwidth": 8, "min": -0.25, "max": 0.25}],
                                       "fb": [{"bitwidth": 8, "min": -2.0, "max": 2.0}]}}, f)
    odlc = os.path.join(work, "small_cnn_ov.dlc")
    p = run([r.qairt, "-i", model, "-o", odlc, "--quantization_overrides", ov])
    if "'nowhere' is not a tensor of the converted graph" not in p.stderr:
        sys.exit(f"FAIL: an override naming no tensor was not reported: {p.stderr}")
    oq = os.path.join(work, "small_cnn_ov_q.dlc")
    run([r.quantizer, "--input_dlc", odlc, "--input_list", cal, "--output_dlc", oq])
    r.run_cpp(model, "small_cnn_ov", cal, os.path.join(work, "ov_cpp"), quantize=True, backends=[tools.cpu, r.htp],
              extra=["--quantization_overrides", ov])
    for k, backend in enumerate([tools.cpu, r.htp]):
        r.run_dlc([oq], [cal], os.path.join(work, f"ov_dlc{k}"), backend=backend)
        for i in range(3):
            same_outputs(os.path.join(work, f"ov_dlc{k}", f"Result_{i}"), os.path.join(work, f"ov_cpp{k}", f"Result_{i}"),
                         ["logits", "probs"], f"overridden small_cnn on {os.path.basename(backend)}, input {i}")
    # The override is what the quantized DLC holds (relu output: [0, 0.5] in 8 bits), not the calibration's range.
    doc = json.loads(run([info, "-i", oq, "--json"]).stdout)
    scales = [np.ravel(t["quant_params"]["scale"])[0] for t in doc["graphs"][0]["tensors"]
              if t.get("source_name", t["name"]) == "r" and "quant_params" in t]
    if not scales or abs(scales[0] - 0.5 / 255) > 1e-7:
        sys.exit(f"FAIL: the override of 'r' is not in the quantized DLC: {scales}")
    # With --float_fallback and no calibration, only the overridden tensors are quantized.
    ff = os.path.join(work, "small_cnn_ff.dlc")
    p = run([r.quantizer, "--input_dlc", odlc, "--float_fallback", "--output_dlc", ff])
    if " quantized tensors)" not in p.stdout or " 0 quantized tensors" in p.stdout:
        sys.exit(f"FAIL: --float_fallback with cached overrides: {p.stdout}")
    for args, needle in ([["--input_dlc", odlc, "--input_list", cal, "--quantization_overrides", ov],
                          "belongs to qairt-converter"],
                         [["--input_dlc", dlc, "--float_fallback"], "has none"]):
        p = run([r.quantizer, *args, "--output_dlc", os.path.join(work, "x.dlc")], ok=False)
        if p.returncode != 1 or needle not in p.stderr or "Traceback" in p.stderr:
            sys.exit(f"FAIL: qairt-quantizer {args}: {p.returncode} {p.stderr}")
    print("ok: overrides cached by qairt-converter, applied by qairt-quantizer == model.cpp route bit for bit")

    lpbq(tools, r, work, model, cal, info)

    # --float_bitwidth 16: FLOAT_16 tensors and weights inside, float32 inputs/outputs through Casts; on the
    # HTP the DLC and model.cpp routes agree bit for bit and stay within half precision of float32.
    h16 = os.path.join(work, "small_cnn_f16.dlc")
    run([r.qairt, "-i", model, "-o", h16, "--float_bitwidth", "16"])
    doc = json.loads(run([info, "-i", h16, "--json"]).stdout)
    dtypes = {t["name"]: t["data_type"] for t in doc["graphs"][0]["tensors"]}
    if dtypes.get("x") != "QNN_DATATYPE_FLOAT_32" or dtypes.get("logits") != "QNN_DATATYPE_FLOAT_32" \
            or not all(d == "QNN_DATATYPE_FLOAT_16" for n, d in dtypes.items() if n not in ("x", "logits", "probs")
                       and d.startswith("QNN_DATATYPE_FLOAT")):
        sys.exit(f"FAIL: float16 DLC datatypes: {dtypes}")
    if os.path.getsize(h16) >= os.path.getsize(dlc) * 0.75:
        sys.exit(f"FAIL: the float16 DLC ({os.path.getsize(h16)} bytes) is not about half the float32 one")
    r.run_dlc([h16], [cal], os.path.join(work, "f16_dlc"), backend=r.htp)
    r.run_cpp(model, "small_cnn_f16", cal, os.path.join(work, "f16_cpp"), backends=[r.htp],
              extra=["--float_bitwidth", "16"])
    r.run_dlc([dlc], [cal], os.path.join(work, "f32_dlc"))
    for i in range(3):
        res = os.path.join(work, "f16_dlc", f"Result_{i}")
        same_outputs(res, os.path.join(work, "f16_cpp0", f"Result_{i}"), ["logits", "probs"], f"float16 input {i}")
        a = np.fromfile(os.path.join(res, "logits.raw"), np.float32)
        b = np.fromfile(os.path.join(work, "f32_dlc", f"Result_{i}", "logits.raw"), np.float32)
        if a.tobytes() == b.tobytes() or np.abs(a - b).max() > 2e-3 * np.abs(b).max() + 1e-3:
            sys.exit(f"FAIL: float16 logits vs float32: max diff {np.abs(a - b).max()} (max {np.abs(b).max()})")
    p = r.run_dlc([h16], [cal], os.path.join(work, "f16_cpu"), ok=False)
    if p.returncode == 0 or "Traceback" in p.stdout + p.stderr:
        sys.exit(f"FAIL: the CPU backend ran a float16 graph: {p.returncode}")
    p = run([tools.conv, "-i", model, "-o", os.path.join(work, "x.cpp"), "--float_bitwidth", "16", "--input_list",
             cal], ok=False)
    if p.returncode == 0 or "cannot be combined with quantization" not in p.stderr:
        sys.exit(f"FAIL: --float_bitwidth 16 with --input_list: {p.stderr}")
    print("ok: --float_bitwidth 16 on the HTP: DLC == model.cpp bit for bit, within half precision of float32")

    custom_ops(tools, r, work, info)

    if gen_models and os.path.isfile(gen_models):
        models = os.path.join(work, "models")
        subprocess.run([sys.executable, gen_models, models], check=True, capture_output=True)
        mnv2 = os.path.join(models, "mobilenet_v2.onnx")
        lst = r.input_list("mobilenet_v2", (1, 3, 224, 224))
        r.run_dlc([r.dlc(mnv2, "mobilenet_v2")], [lst], os.path.join(work, "mnv2_dlc"))
        r.run_cpp(mnv2, "mobilenet_v2", lst, os.path.join(work, "mnv2_cpp"))
        same_outputs(os.path.join(work, "mnv2_dlc", "Result_0"), os.path.join(work, "mnv2_cpp", "Result_0"),
                     ["output"], "MobileNetV2")
        print("ok: MobileNetV2, DLC route == model.cpp route bit for bit")
        q = r.quantized_dlc(mnv2, "mobilenet_v2_q", lst)
        r.run_cpp(mnv2, "mobilenet_v2_q", lst, os.path.join(work, "mnv2_q_cpp"), quantize=True, backends=[r.htp])
        r.run_dlc([q], [lst], os.path.join(work, "mnv2_q_dlc"), backend=r.htp)
        same_outputs(os.path.join(work, "mnv2_q_dlc", "Result_0"), os.path.join(work, "mnv2_q_cpp0", "Result_0"),
                     ["output"], "quantized MobileNetV2 on the HTP")
        print("ok: MobileNetV2 through qairt-quantizer == quantized model.cpp bit for bit on the HTP")
        m16 = os.path.join(work, "mobilenet_v2_f16.dlc")
        run([r.qairt, "-i", mnv2, "-o", m16, "--float_bitwidth", "16"])
        r.run_dlc([m16], [lst], os.path.join(work, "mnv2_f16"), backend=r.htp)
        a = np.fromfile(os.path.join(work, "mnv2_f16", "Result_0", "output.raw"), np.float32)
        b = np.fromfile(os.path.join(work, "mnv2_dlc", "Result_0", "output.raw"), np.float32)
        if np.argmax(a) != np.argmax(b) or np.abs(a - b).max() > 1e-2 * np.abs(b).max():
            sys.exit(f"FAIL: MobileNetV2 float16 vs float32: max diff {np.abs(a - b).max()}, top-1 "
                     f"{np.argmax(a)} vs {np.argmax(b)}")
        print(f"ok: MobileNetV2 --float_bitwidth 16 on the HTP within {np.abs(a - b).max():.2g} of float32, same top-1")
    print("PASS")


if __name__ == "__main__":
    main()
