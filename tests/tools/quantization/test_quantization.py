#!/usr/bin/python3
"""qnn-onnx-converter quantization tests.

usage: test_quantization.py BUILD_DIR CASE [GEN_MODELS_PY] [HELD_OUT]     exit 77 = skipped
CASE mobilenet_v2 | resnet18: make_models.py's torchvision export (helper variant if torch is missing),
  calibrated on 20 generated inputs. Encodings in the generated model.cpp are checked against tf
  (min/max) and (MobileNetV2) symmetric/per-channel encodings computed here from an independent numpy evaluation of the ONNX
  model on the same inputs; weights are checked bit-exact in model.bin. The 8- and 16-bit activation
  models run on libQnnCpu.so over HELD_OUT (default 50) other inputs; cosine similarity of the logits
  to the float reference must be >= 0.99 (8-bit) / >= 0.999 (16-bit).
CASE overrides: an AIMET overrides file pins encodings exactly; partial overrides, mixed precision,
  float overrides, --float_fallback, the encodings file round trip, CLE; malformed files and bad flags
  are clear errors.
CASE qdq: a QDQ model converts to the encodings its QuantizeLinear/DequantizeLinear nodes carry.
CASE shared_params: a constant read by two quantized ops has its float values' encoding for both.
CASE kv_cache: an 8-bit KV cache in a 16-bit graph (overrides on the cache input and the new entries): what
  writes the cache computes at 16 bits and one Convert after it narrows the entries; the Expand that repeats
  the cache's heads and the attention MatMul read the 8-bit cache as it is (no Convert of the whole cache).
"""
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_reference import Reference  # noqa: E402
from logit_cosine import cosine_report  # noqa: E402

B, CASE = sys.argv[1], sys.argv[2]
GEN = sys.argv[3] if len(sys.argv) > 3 else ""
HELD_OUT = int(sys.argv[4]) if len(sys.argv) > 4 else 50
CONV = os.path.join(B, "bin", "qnn-onnx-converter")
N_CALIB = 20


def run(cmd, ok=True):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if ok and p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(map(str, cmd))}\n{p.stdout}{p.stderr}")
    return p


def fail(msg):
    sys.exit(f"FAIL: {msg}")


def sanitize(name):   # the documented name rule (docs/onnx-converter.md)
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return "_" + s if not s or s[0].isdigit() else s


# ---------------- reading the generated model.cpp ----------------
_TENSOR = re.compile(r'\.name= "([^"]+)",\s*\.type= (\w+),\s*\.dataFormat= \w+,\s*\.dataType= (\w+),\s*'
                     r'\.quantizeParams= \{ (\w+),\s*(\w+),\s*(\{.*?\}\})\},', re.S)
_PAIR = re.compile(r"\{\.scale= ([-0-9.e+]+)f, \.offset= (-?\d+)\}")


def encodings_in_source(cpp):
    """{tensor name: (QNN data type, encoding kind, scales float32 array, offsets int array, axis)}."""
    text = open(cpp).read()
    arrays = {m.group(1): m.group(2) for m in re.finditer(r"Qnn_ScaleOffset_t (\w+)\[\] = \{(.*?)\};\n", text)}
    out = {}
    for m in _TENSOR.finditer(text):
        name, _, dtype, definition, kind, union = m.groups()
        if definition != "QNN_DEFINITION_DEFINED":
            out[name] = (dtype, None, None, None, None)
            continue
        if kind == "QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET":
            axis = int(re.search(r"\.axis= (\d+)", union).group(1))
            pairs = _PAIR.findall(arrays[re.search(r"\.scaleOffset= (\w+)", union).group(1)])
        else:
            axis, pairs = None, _PAIR.findall(union)
        out[name] = (dtype, kind, np.array([np.float32(float(s)) for s, _ in pairs]),
                     np.array([int(o) for _, o in pairs]), axis)
    return out


def raw_in_bin(binfile, name):
    with tarfile.open(binfile) as tar:
        return tar.extractfile(name + ".raw").read()


# ---------------- independent expected encodings (the guide's formulas) ----------------
def expect_tf(mn, mx, bw):
    mn, mx = min(mn, 0.0), max(mx, 0.0)
    mx = max(mx, mn + 1e-4)
    scale = (mx - mn) / (2 ** bw - 1)
    return scale, mn / scale   # offset = round(mn / scale), returned unrounded to see ties


def expect_symmetric(mn, mx, bw):
    return max(abs(mn), abs(mx)) / (2 ** (bw - 1) - 1)


def check_scale(got, want, what, rel=1e-5):
    if not abs(float(got) - want) <= rel * abs(want):
        fail(f"{what}: scale {float(got)!r}, expected {want!r}")


def check_offset(got, unrounded, what):
    # Calibration computes the model in float32 (on libQnnCpu.so, or the numpy evaluator): a range a few
    # float32 ulps from the float64 reference moves min/scale by up to ~2.4e-7 of itself (0.008 at 16 bits),
    # so within that of a tie either rounding is right.
    want = int(np.rint(unrounded))
    near_tie = abs(abs(unrounded - np.floor(unrounded)) - 0.5) < 1e-3 + 2.0 ** -22 * abs(unrounded)
    if got != want and not (near_tie and abs(got - want) == 1):
        fail(f"{what}: offset {got}, expected {want} (min/scale = {unrounded})")


# ---------------- inputs / running ----------------
def graph_input_layout(net_json, onnx_shape):
    dims = json.load(open(net_json))["graph"]["tensors"]["input"]["dims"]
    if list(dims) == list(onnx_shape):
        return None
    if list(dims) == [onnx_shape[0], onnx_shape[2], onnx_shape[3], onnx_shape[1]]:
        return (0, 2, 3, 1)
    fail(f"graph input dims {dims} are neither {onnx_shape} nor its NHWC form")


def write_inputs(work, tag, arrays, perm):
    lines = []
    for k, x in enumerate(arrays):
        f = f"{work}/{tag}{k}.raw"
        (x.transpose(perm) if perm else x).astype(np.float32).tofile(f)
        lines.append(f"input:={f}\n")
    with open(f"{work}/{tag}.txt", "w") as fh:
        fh.writelines(lines)
    return f"{work}/{tag}.txt"


def build_and_run(cpp, input_list, outdir):
    base = os.path.splitext(cpp)[0]
    name = os.path.basename(base)
    run([os.path.join(B, "bin", "qnn-model-lib-generator"), "-c", cpp, "-b", base + ".bin", "-o", base + "_lib"])
    run([os.path.join(B, "bin", "qnn-net-run"), "--model", f"{base}_lib/x86_64-linux-clang/lib{name}.so",
         "--backend", os.path.join(B, "backends", "cpu", "libQnnCpu.so"), "--input_list", input_list,
         "--output_dir", outdir])


def results(outdir, n, name="output"):
    return [np.fromfile(f"{outdir}/Result_{k}/{name}.raw", np.float32).astype(np.float64) for k in range(n)]


# ---------------- case: a model of make_models.py ----------------
def case_model(work, name):
    if not os.path.exists(GEN):
        print(f"SKIP: make_models.py not found at {GEN!r}")
        sys.exit(77)
    run(["/usr/bin/python3", GEN, f"{work}/models"], ok=False)
    path = f"{work}/models/{name}.onnx"
    if not os.path.exists(path):
        print(f"NOTE: torchvision export of {name} unavailable; using {name}_helper.onnx (same architecture)")
        path = f"{work}/models/{name}_helper.onnx"
    model = onnx.load(path)
    ref = Reference(model)
    rs = np.random.RandomState(7)
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    calib = [rs.randn(*shape).astype(np.float32) for _ in range(N_CALIB)]
    held = [rs.randn(*shape).astype(np.float32) for _ in range(HELD_OUT)]

    # independent float reference: activation ranges on the calibration set
    lo, hi = {}, {}

    def observe(t, v):
        lo[t] = min(lo.get(t, np.inf), float(v.min()))
        hi[t] = max(hi.get(t, -np.inf), float(v.max()))
    for x in calib:
        ref.run({"input": x}, observe)

    # the float model (its conversion is checked against ONNX Runtime by the onnx_converter tests) gives the
    # held-out logits; spot-check two of them against the numpy reference
    run([CONV, "-i", path, "-o", f"{work}/float/m.cpp"])
    perm = graph_input_layout(f"{work}/float/m_net.json", shape)
    calib_list = write_inputs(work, "calib", calib, perm)
    held_list = write_inputs(work, "held", held, perm)
    build_and_run(f"{work}/float/m.cpp", held_list, f"{work}/float/out")
    want = results(f"{work}/float/out", HELD_OUT)
    for k in range(2):
        r = ref.run({"input": held[k]})["output"].reshape(-1)
        err = np.abs(want[k] - r).max() / np.abs(r).max()
        if not err <= 1e-4:
            fail(f"float model vs numpy reference on held-out input {k}: relative error {err:.2e}")
    activations = [o for n in model.graph.node if n.op_type != "Constant" for o in n.output] + ["input"]
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]

    for bw, threshold in ((8, 0.99), (16, 0.999)):
        cpp = f"{work}/a{bw}/{name}_a{bw}.cpp"
        run([CONV, "-i", path, "-o", cpp, "--input_list", calib_list, "--act_bw", str(bw)])
        enc = encodings_in_source(cpp)
        checked = 0
        for t in activations:
            q = sanitize(t)
            if q not in enc:
                fail(f"activation '{t}' ({q}) not in the generated source")
            dtype, kind, scale, offset, _ = enc[q]
            if dtype != f"QNN_DATATYPE_UFIXED_POINT_{bw}" or kind != "QNN_QUANTIZATION_ENCODING_SCALE_OFFSET":
                fail(f"{q}: {dtype} {kind}, expected UFIXED_POINT_{bw} SCALE_OFFSET")
            s, unrounded = expect_tf(lo[t], hi[t], bw)
            check_scale(scale[0], s, f"{bw}-bit tf activation {q}")
            check_offset(offset[0], unrounded, f"{bw}-bit tf activation {q}")
            checked += 1
        nparams = check_params(cpp, enc, convs, inits, per_channel=False)
        print(f"{name} a{bw}: {checked} activation encodings match tf(min, max) of the reference; "
              f"{nparams} weights match tf(min, max) and their quantized bytes are exact")
        build_and_run(cpp, held_list, f"{work}/a{bw}/out")
        cosine_report(results(f"{work}/a{bw}/out", HELD_OUT), want, f"{name} {bw}-bit activations", threshold)

    # symmetric modes (activations and params) plus per-channel weights and 32-bit biases: encodings only,
    # on MobileNetV2 (plain, depthwise and FC layers); ResNet-18 would repeat it at twice the CI time
    if name != "mobilenet_v2":
        return
    cpp = f"{work}/sym/{name}_sym.cpp"
    run([CONV, "-i", path, "-o", cpp, "--input_list", calib_list, "--act_quantizer", "symmetric",
         "--param_quantizer", "symmetric", "--use_per_channel_quantization", "--bias_bw", "32"])
    enc = encodings_in_source(cpp)
    for t in activations:
        dtype, kind, scale, offset, _ = enc[sanitize(t)]
        if dtype != "QNN_DATATYPE_SFIXED_POINT_8" or offset[0] != 0:
            fail(f"symmetric activation {t}: {dtype} offset {offset[0]}")
        check_scale(scale[0], expect_symmetric(lo[t], hi[t], 8), f"symmetric activation {t}")
    nparams = check_params(cpp, enc, convs, inits, per_channel=True)
    print(f"{name} symmetric: {len(activations)} activations match the symmetric encoding; {nparams} conv weights "
          "per-channel symmetric (bytes exact), FC weight per-tensor symmetric, biases int32 at input*weight scale")


def _static_of(enc, init_name):
    """The one static tensor made from initializer init_name (its name starts with the sanitized name)."""
    stem = sanitize(init_name)
    hits = [n for n in enc if n == stem or (n.startswith(stem + "_") and not n[len(stem) + 1:].isdigit())]
    if len(hits) != 1:
        fail(f"initializer '{init_name}': generated tensors {hits}")
    return hits[0]


def _op_inputs_with(cpp, tensor):
    """Input tensor names of the one generated node that reads `tensor`."""
    hits = [re.findall(r'"(\w+)"', m) for m in re.findall(r"const char\*  inputs_\w+\[\] = \{(.*?)\};", open(cpp).read(), re.S)]
    hits = [h for h in hits if tensor in h]
    if len(hits) != 1:
        fail(f"{tensor}: read by {len(hits)} nodes")
    return hits[0]


def check_params(cpp, enc, convs, inits, per_channel):
    binfile = os.path.splitext(cpp)[0] + ".bin"
    n = 0
    for node in convs:
        w = inits[node.input[1]].astype(np.float64)
        q = _static_of(enc, node.input[1])
        dtype, kind, scale, offset, axis = enc[q]
        if node.op_type == "Conv":
            w_qnn = w.transpose(2, 3, 1, 0)       # HWIO, depthwise [kh, kw, 1, C]
        else:
            w_qnn = w if any(a.name == "transB" and a.i for a in node.attribute) else w.T
        if per_channel and node.op_type == "Conv":
            if dtype != "QNN_DATATYPE_SFIXED_POINT_8" or axis != 3 or np.any(offset != 0):
                fail(f"per-channel {q}: {dtype} axis {axis} offsets {set(offset.tolist())}")
            want = np.abs(w).reshape(w.shape[0], -1).max(axis=1) / 127
            for c in range(w.shape[0]):
                check_scale(scale[c], want[c], f"per-channel weight {q}[{c}]")
            stored = np.frombuffer(raw_in_bin(binfile, q), np.int8).reshape(w_qnn.shape)
            exact = np.clip(np.rint(w_qnn / scale.astype(np.float64)), -128, 127)
        elif per_channel:   # --param_quantizer symmetric, per tensor
            if dtype != "QNN_DATATYPE_SFIXED_POINT_8" or offset[0] != 0:
                fail(f"symmetric weight {q}: {dtype} offset {offset[0]}")
            check_scale(scale[0], expect_symmetric(w.min(), w.max(), 8), f"symmetric weight {q}", rel=1e-6)
            stored = np.frombuffer(raw_in_bin(binfile, q), np.int8).reshape(w_qnn.shape)
            exact = np.clip(np.rint(w_qnn / np.float64(scale[0])), -128, 127)
        else:
            if dtype != "QNN_DATATYPE_UFIXED_POINT_8":
                fail(f"weight {q}: {dtype}")
            s, unrounded = expect_tf(w.min(), w.max(), 8)
            check_scale(scale[0], s, f"tf weight {q}", rel=1e-6)
            check_offset(offset[0], unrounded, f"tf weight {q}")
            stored = np.frombuffer(raw_in_bin(binfile, q), np.uint8).reshape(w_qnn.shape)
            exact = np.clip(np.rint(w_qnn / np.float64(scale[0])) - offset[0], 0, 255)
        if not np.array_equal(stored, exact):
            fail(f"weight {q}: {np.sum(stored != exact)} stored values differ from round(w / scale) - offset")
        if per_channel and len(node.input) > 2:   # int32 bias, scale = input scale * weight scale
            bq = _op_inputs_with(cpp, q)[2]
            bdt, _, bscale, boff, _ = enc[bq]
            in_scale = enc[sanitize(node.input[0])][2][0]
            if bdt != "QNN_DATATYPE_SFIXED_POINT_32" or np.any(boff != 0):
                fail(f"bias {bq}: {bdt} offsets {set(boff.tolist())}")
            for c in range(bscale.size):
                check_scale(bscale[c], float(in_scale) * float(scale[c if scale.size > 1 else 0]), f"bias {bq}[{c}]", 1e-6)
        n += 1
    return n


# ---------------- case: overrides ----------------
def small_model(path):
    rs = np.random.RandomState(3)
    inits = {"w1": rs.randn(8, 3, 3, 3).astype(np.float32) * 0.3, "b1": rs.randn(8).astype(np.float32) * 0.1,
             "w2": rs.randn(8, 8, 3, 3).astype(np.float32) * 0.2, "b2": rs.randn(8).astype(np.float32) * 0.1,
             "wf": rs.randn(4, 8).astype(np.float32), "bf": rs.randn(4).astype(np.float32)}
    N = helper.make_node
    nodes = [N("Conv", ["input", "w1", "b1"], ["c1"], pads=[1] * 4, name="conv1"), N("Relu", ["c1"], ["r1"], name="relu1"),
             N("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1] * 4, name="conv2"), N("Add", ["c2", "r1"], ["s"], name="add"),
             N("GlobalAveragePool", ["s"], ["g"], name="gap"), N("Flatten", ["g"], ["f"], name="flat"),
             N("Gemm", ["f", "wf", "bf"], ["output"], transB=1, name="fc")]
    g = helper.make_graph(nodes, "small", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 4])],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, path)
    return m


def expect_error(cmd, needle, out_cpp=None):
    p = run(cmd, ok=False)
    if p.returncode == 0 or needle not in p.stderr or "qnn-onnx-converter: error:" not in p.stderr:
        fail(f"{' '.join(map(str, cmd))}: rc={p.returncode}, stderr={p.stderr!r}, expected '{needle}'")
    if out_cpp and os.path.exists(out_cpp):
        fail(f"{out_cpp} written despite the error")
    print(f"ok (exit {p.returncode}): {p.stderr.strip().splitlines()[-1]}")


def case_overrides(work):
    model = small_model(f"{work}/small.onnx")
    ref = Reference(model)
    rs = np.random.RandomState(11)
    xs = [rs.randn(1, 3, 16, 16).astype(np.float32) for _ in range(8)]
    run([CONV, "-i", f"{work}/small.onnx", "-o", f"{work}/probe/p.cpp"])
    perm = graph_input_layout(f"{work}/probe/p_net.json", [1, 3, 16, 16])
    lst = write_inputs(work, "in", xs, perm)
    ov = {"version": "0.5.0",
          "activation_encodings": {"r1": [{"bitwidth": 8, "scale": 0.0123, "offset": 0, "is_symmetric": "False"}],
                                   "c2": [{"bitwidth": 16, "min": -2.0, "max": 3.0}]},
          "param_encodings": {"w1": [{"bitwidth": 8, "min": -1.0, "max": 1.0}]}}
    json.dump(ov, open(f"{work}/ov.json", "w"))
    cpp = f"{work}/ov/small.cpp"
    run([CONV, "-i", f"{work}/small.onnx", "-o", cpp, "--input_list", lst, "--quantization_overrides", f"{work}/ov.json"])
    enc = encodings_in_source(cpp)
    src = open(cpp).read()
    pinned = [("r1", "QNN_DATATYPE_UFIXED_POINT_8", np.float32(0.0123), 0),
              ("c2", "QNN_DATATYPE_UFIXED_POINT_16", np.float32(5.0 / 65535), -26214),
              (_static_of(enc, "w1"), "QNN_DATATYPE_UFIXED_POINT_8", np.float32(2.0 / 255), -128)]  # -127.5 -> even
    for name, dtype, scale, offset in pinned:
        got = enc[name]
        if got[0] != dtype or got[2][0] != scale or got[3][0] != offset:
            fail(f"override of {name}: got {got[0]} scale {got[2][0]!r} offset {got[3][0]}, "
                 f"expected {dtype} scale {scale!r} offset {offset}")
        print(f"override honoured exactly: {name} {dtype} scale {scale!r} offset {offset}")
    if enc["c1"][0] != "QNN_DATATYPE_UFIXED_POINT_8" or enc["c1"][1] is None:
        fail("partial overrides: c1 was not completed by calibration")
    if '"Convert", // Qnn Node Type' not in src:
        fail("mixed precision: no Convert op between the 16-bit c2 and the 8-bit Add")
    print("partial overrides completed by calibration; 16-bit c2 reaches the 8-bit Add through a Convert op")
    # the encodings file written beside the model, used as overrides, reproduces the model exactly
    rt = f"{work}/rt/small.cpp"
    run([CONV, "-i", f"{work}/small.onnx", "-o", rt, "--float_fallback", "--quantization_overrides",
         f"{work}/ov/small_encodings.json"])
    if open(rt).read() != src or open(rt[:-4] + ".bin", "rb").read() != open(cpp[:-4] + ".bin", "rb").read():
        fail("small_encodings.json as --quantization_overrides does not reproduce the model")
    print("small_encodings.json round-trips through --quantization_overrides (identical model.cpp/.bin)")
    want = [ref.run({"input": x})["output"].reshape(-1) for x in xs]
    build_and_run(cpp, lst, f"{work}/ov/out")
    # r1 is pinned to [0, 3.1]: the run proves execution, not accuracy
    cosine_report(results(f"{work}/ov/out", len(xs)), want, "small model with overrides", 0.9)

    # a float override: the op producing c1 runs in float between Dequantize and Quantize ops
    json.dump({"activation_encodings": {"c1": [{"bitwidth": 32, "dtype": "float"}]}, "param_encodings": {}},
              open(f"{work}/ovf.json", "w"))
    cpp = f"{work}/ovf/small.cpp"
    run([CONV, "-i", f"{work}/small.onnx", "-o", cpp, "--input_list", lst, "--quantization_overrides", f"{work}/ovf.json"])
    enc, src = encodings_in_source(cpp), open(cpp).read()
    if enc["c1"][0] != "QNN_DATATYPE_FLOAT_32" or enc[_static_of(enc, "w1")][0] != "QNN_DATATYPE_FLOAT_32":
        fail(f"float override: c1 {enc['c1'][0]}, w1 {enc[_static_of(enc, 'w1')][0]}")
    for op in ("Dequantize", "Quantize"):
        if f'"{op}", // Qnn Node Type' not in src:
            fail(f"float override: no {op} op at the float region's boundary")
    build_and_run(cpp, lst, f"{work}/ovf/out")
    cosine_report(results(f"{work}/ovf/out", len(xs)), want, "small model with a float region", 0.99)

    # --float_fallback: only the overridden tensors are quantized
    json.dump({"activation_encodings": {t: [{"bitwidth": 8, "min": -4.0, "max": 4.0}] for t in ("input", "c1")},
               "param_encodings": {}}, open(f"{work}/ovff.json", "w"))
    cpp = f"{work}/ovff/small.cpp"
    run([CONV, "-i", f"{work}/small.onnx", "-o", cpp, "--float_fallback", "--quantization_overrides", f"{work}/ovff.json"])
    enc = encodings_in_source(cpp)
    if enc["c1"][0] != "QNN_DATATYPE_UFIXED_POINT_8" or enc["r1"][0] != "QNN_DATATYPE_FLOAT_32":
        fail(f"--float_fallback: c1 {enc['c1'][0]}, r1 {enc['r1'][0]}")
    build_and_run(cpp, lst, f"{work}/ovff/out")
    cosine_report(results(f"{work}/ovff/out", len(xs)), want, "small model, --float_fallback", 0.99)

    check_cle(work)

    # malformed overrides and bad flags: clear errors, nothing written
    base = [CONV, "-i", f"{work}/small.onnx", "--input_list", lst]
    bad = {"truncated.json": ('{"activation_encodings": {"r1": [{"bitwidth": 8,', "invalid JSON at line 1 column"),
           "nosection.json": ('{"activation_encodings": {}}', "section 'param_encodings' is missing"),
           "badbw.json": ('{"activation_encodings": {"r1": [{"bitwidth": "8", "min": 0, "max": 1}]}, "param_encodings": {}}',
                          "'bitwidth' must be a number"),
           "minmax.json": ('{"activation_encodings": {"r1": [{"bitwidth": 8, "min": 2, "max": 1}]}, "param_encodings": {}}',
                           "min 2.0 > max 1.0"),
           "noscale.json": ('{"activation_encodings": {}, "param_encodings": {"w1": [{"bitwidth": 8, "offset": 3}]}}',
                            "'scale' and 'offset' must be given together")}
    for fname, (text, needle) in bad.items():
        with open(f"{work}/{fname}", "w") as f:
            f.write(text)
        out = f"{work}/bad_{fname}.cpp"
        expect_error(base + ["-o", out, "--quantization_overrides", f"{work}/{fname}"], needle, out)
    out = f"{work}/bad_flags.cpp"
    expect_error(base + ["-o", out, "--act_bw", "12"], "--act_bw 12: must be 8 or 16", out)
    expect_error(base + ["-o", out, "--ignore_encodings", "--quantization_overrides", f"{work}/ov.json"],
                 "cannot be combined", out)
    expect_error(base + ["-o", out, "--float_fallback"], "--float_fallback cannot be combined with --input_list", out)
    with open(f"{work}/short.txt", "w") as f:
        f.write(f"{work}/short.raw\n")
    np.zeros(10, np.float32).tofile(f"{work}/short.raw")
    expect_error([CONV, "-i", f"{work}/small.onnx", "-o", out, "--input_list", f"{work}/short.txt"],
                 "holds 10 float32 values", out)


def check_cle(work):
    """Conv -> Relu -> Conv whose channels are scaled by 1e-2..1e2 (and back in the next conv): the float
    function is the same, per-tensor 8-bit weights lose the small channels; CLE must recover them."""
    rs = np.random.RandomState(9)
    k = np.logspace(-2, 2, 8)
    w1 = rs.randn(8, 3, 3, 3) * 0.3 * k.reshape(-1, 1, 1, 1)
    b1 = rs.randn(8) * 0.1 * k
    w2 = rs.randn(4, 8, 3, 3) * 0.2 / k.reshape(1, -1, 1, 1)
    inits = {"w1": w1, "b1": b1, "w2": w2, "b2": rs.randn(4) * 0.1}
    N = helper.make_node
    g = helper.make_graph([N("Conv", ["input", "w1", "b1"], ["c1"], pads=[1] * 4), N("Relu", ["c1"], ["r1"]),
                           N("Conv", ["r1", "w2", "b2"], ["output"], pads=[1] * 4)], "cle",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 4, 16, 16])],
                          [numpy_helper.from_array(v.astype(np.float32), n) for n, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, f"{work}/cle.onnx")
    xs = [rs.randn(1, 3, 16, 16).astype(np.float32) for _ in range(6)]
    run([CONV, "-i", f"{work}/cle.onnx", "-o", f"{work}/cle_f/m.cpp"])
    perm = graph_input_layout(f"{work}/cle_f/m_net.json", [1, 3, 16, 16])
    lst = write_inputs(work, "cle_in", xs, perm)
    build_and_run(f"{work}/cle_f/m.cpp", lst, f"{work}/cle_f/out")
    want = results(f"{work}/cle_f/out", len(xs))
    cos = {}
    for tag, extra in (("plain", []), ("cle", ["--algorithms", "cle"])):
        cpp = f"{work}/cle_{tag}/m.cpp"
        run([CONV, "-i", f"{work}/cle.onnx", "-o", cpp, "--input_list", lst] + extra)
        build_and_run(cpp, lst, f"{work}/cle_{tag}/out")
        got = results(f"{work}/cle_{tag}/out", len(xs))
        cos[tag] = min(g @ w / (np.linalg.norm(g) * np.linalg.norm(w)) for g, w in zip(got, want))
    print(f"CLE on channel ranges spread 1e-2..1e2: 8-bit cosine to float {cos['plain']:.4f} without, "
          f"{cos['cle']:.4f} with --algorithms cle")
    if not (cos["cle"] >= 0.99 and cos["cle"] > cos["plain"]):
        fail("CLE did not recover the accuracy")


# ---------------- case: QDQ model ----------------
def case_qdq(work):
    rs = np.random.RandomState(5)
    sx, zx, sy, zy, sr = 0.02, 128, 0.05, 100, 0.03
    wq = rs.randint(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    sw = np.array([0.004, 0.006, 0.002, 0.005], np.float32)
    bq = rs.randint(-2000, 2000, 4).astype(np.int32)
    sb = (np.float32(sx) * sw).astype(np.float32)
    c = lambda v, n: numpy_helper.from_array(np.asarray(v), n)  # noqa: E731
    inits = [c(np.float32(sx), "sx"), c(np.uint8(zx), "zx"), c(np.float32(sy), "sy"), c(np.uint8(zy), "zy"),
             c(np.float32(sr), "sr"), c(np.uint8(0), "zr"), c(wq, "wq"), c(sw, "sw"), c(np.zeros(4, np.int8), "zw"),
             c(bq, "bq"), c(sb, "sb"), c(np.zeros(4, np.int32), "zb")]
    N = helper.make_node
    nodes = [N("QuantizeLinear", ["input", "sx", "zx"], ["xq"]), N("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
             N("DequantizeLinear", ["wq", "sw", "zw"], ["w"], axis=0), N("DequantizeLinear", ["bq", "sb", "zb"], ["b"], axis=0),
             N("Conv", ["xd", "w", "b"], ["y"], pads=[1] * 4), N("QuantizeLinear", ["y", "sy", "zy"], ["yq"]),
             N("DequantizeLinear", ["yq", "sy", "zy"], ["yd"]), N("Relu", ["yd"], ["r"]),
             N("QuantizeLinear", ["r", "sr", "zr"], ["rq"]), N("DequantizeLinear", ["rq", "sr", "zr"], ["output"])]
    g = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 4, 8, 8])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, f"{work}/qdq.onnx")

    xs = [rs.randn(1, 3, 8, 8).astype(np.float32) for _ in range(4)]

    def fq(v, s, z, lo, hi):   # fake quantization, the ONNX QDQ semantics
        return (np.clip(np.rint(v / np.float64(np.float32(s))) + z, lo, hi) - z) * np.float64(np.float32(s))
    w = wq.astype(np.float64) * sw.astype(np.float64).reshape(-1, 1, 1, 1)
    b = bq.astype(np.float64) * sb.astype(np.float64)
    from onnx_reference import _conv
    want = []
    for x in xs:
        y = _conv(fq(x[0], sx, zx, 0, 255), w, b, {"pads": [1] * 4})
        want.append(fq(np.maximum(fq(y, sy, zy, 0, 255), 0), sr, 0, 0, 255))

    for extra in ([], ["--keep_quant_nodes"]):
        tag = "keep" if extra else "strip"
        cpp = f"{work}/{tag}/qdq.cpp"
        run([CONV, "-i", f"{work}/qdq.onnx", "-o", cpp] + extra)
        perm = graph_input_layout(f"{work}/{tag}/qdq_net.json", [1, 3, 8, 8])
        out_nhwc = json.load(open(f"{work}/{tag}/qdq_net.json"))["graph"]["tensors"]["output"]["dims"] == [1, 8, 8, 4]
        enc, src = encodings_in_source(cpp), open(cpp).read()
        if not extra:
            expect = {"input": ("QNN_DATATYPE_UFIXED_POINT_8", sx, -zx), "y": ("QNN_DATATYPE_UFIXED_POINT_8", sy, -zy),
                      "output": ("QNN_DATATYPE_UFIXED_POINT_8", sr, 0)}
            for name, (dt, s, o) in expect.items():
                got = enc.get(name)
                if got is None or got[0] != dt or got[2][0] != np.float32(s) or got[3][0] != o:
                    fail(f"QDQ activation {name}: {got}, expected {dt} scale {s} offset {o}")
            wname, bname = _static_of(enc, "w"), _static_of(enc, "b")
            wdt, _, wscale, woff, wax = enc[wname]
            if wdt != "QNN_DATATYPE_SFIXED_POINT_8" or wax != 3 or not np.array_equal(wscale, sw) or np.any(woff != 0):
                fail(f"QDQ weight: {enc[wname]}")
            stored = np.frombuffer(raw_in_bin(os.path.splitext(cpp)[0] + ".bin", wname), np.int8)
            if not np.array_equal(stored, wq.transpose(2, 3, 1, 0).reshape(-1)):
                fail("QDQ weight: stored int8 values differ from the model's")
            bdt, _, bscale, boff, _ = enc[bname]
            stored_b = np.frombuffer(raw_in_bin(os.path.splitext(cpp)[0] + ".bin", bname), np.int32)
            if bdt != "QNN_DATATYPE_SFIXED_POINT_32" or not np.array_equal(bscale, sb) or not np.array_equal(stored_b, bq):
                fail(f"QDQ bias: {enc[bname]}, values {stored_b}")
            if "Quantize" in re.findall(r'"(\w+)", // Qnn Node Type', src):
                fail("QDQ pairs were not removed")
            print("QDQ: activation encodings = the Q/DQ scales and -zero_points; weight/bias integers kept exactly")
        else:
            types = re.findall(r'"(\w+)", // Qnn Node Type', src)
            if types.count("Quantize") != 3 or types.count("Dequantize") != 3:
                fail(f"--keep_quant_nodes: ops {types}")
            print(f"--keep_quant_nodes: ops {types}")
        lst = write_inputs(f"{work}/{tag}", "in", xs, perm)
        build_and_run(cpp, lst, f"{work}/{tag}/out")
        got = results(f"{work}/{tag}/out", len(xs))
        step = np.float64(np.float32(sr))
        worst, exact = 0.0, 0
        for gv, wv in zip(got, want):
            wv = wv.transpose(1, 2, 0).reshape(-1) if out_nhwc else wv.reshape(-1)
            d = np.abs(gv - wv)
            worst, exact = max(worst, d.max()), exact + int(np.sum(d < step / 2))
        total = sum(gv.size for gv in got)
        print(f"QDQ {tag}: {exact}/{total} outputs equal the fake-quant reference, worst |diff| {worst:.4f} "
              f"(one step = {step:.4f}; float accumulation order may flip a rounding)")
        if worst > step * 1.01 or exact < 0.98 * total:
            fail(f"QDQ {tag}: outputs differ from the fake-quantized reference")


def case_shared_params(work):
    """A constant read by two quantized ops (y = (x * c) * c; as the rotary cos/sin caches every
    GroupQueryAttention layer reads): both read it with the encoding of its float values (tf, 8 bits). The
    second op's encoding was computed from the integers the first op's left in the tensor (scale 1, offset 0),
    so the second product was by c rounded to integers."""
    c = np.linspace(-2.0, 3.0, 8).astype(np.float32).reshape(1, 8)
    N = helper.make_node
    g = helper.make_graph([N("Mul", ["input", "c"], ["a"]), N("Mul", ["a", "c"], ["output"])], "shared",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, [2, 8])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [2, 8])],
                          [numpy_helper.from_array(c, "c")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, f"{work}/shared.onnx")
    rs = np.random.RandomState(3)
    xs = [rs.uniform(-1, 1, (2, 8)).astype(np.float32) for _ in range(4)]
    lst = write_inputs(work, "in", xs, None)
    cpp = f"{work}/shared.cpp"
    run([CONV, "-i", f"{work}/shared.onnx", "-o", cpp, "--input_list", lst, "--act_bw", "16", "--weight_bw", "8"])
    enc = encodings_in_source(cpp)
    scale, unrounded = expect_tf(-2.0, 3.0, 8)
    ops = [v["input_names"] for v in json.load(open(f"{work}/shared_net.json"))["graph"]["nodes"].values()]
    for k, ins in enumerate(ops):
        static = ins[1]
        check_scale(enc[static][2][0], scale, f"the constant as op {k}'s input '{static}'")
        check_offset(enc[static][3][0], unrounded, f"the constant as op {k}'s input '{static}'")
    build_and_run(cpp, lst, f"{work}/out")
    # the reference: c at its 8-bit values; each product clipped to the range calibrated on the float graph
    cq = np.rint(c.astype(np.float64) / scale) * scale
    a_lo, a_hi = min(float((x * c).min()) for x in xs), max(float((x * c).max()) for x in xs)
    y_lo, y_hi = min(float((x * c * c).min()) for x in xs), max(float((x * c * c).max()) for x in xs)
    worst = max(float(np.abs(got.reshape(2, 8) - np.clip(np.clip(x * cq, a_lo, a_hi) * cq, y_lo, y_hi)).max())
                for got, x in zip(results(f"{work}/out", 4), xs))
    print(f"shared constant: both ops read it with scale {scale:.5f}; outputs within {worst:.2e} of the reference")
    if worst > 1e-3:   # 16-bit activations of outputs within about +-5: one step is 1.5e-4
        fail(f"shared constant: outputs differ from x*c*c by {worst}")


def case_kv_cache(work):
    """new = x @ W (written to the cache), kv = Concat(past, new), its heads repeated by Expand, s = q @ kv^T:
    with act_bw 16 and past / new overridden to one 8-bit encoding, the product x @ W runs at 16 bits into a
    tensor over new's range and a Convert narrows it (before: x was converted to 8 bits first), the Expand's
    zero Add keeps the cache's encoding, and the MatMul takes the 8-bit cache as its second input."""
    rs = np.random.RandomState(5)
    w = rs.uniform(-0.5, 0.5, (8, 8)).astype(np.float32)
    N = helper.make_node
    shape = numpy_helper.from_array(np.array([1, 2, 6, 8], np.int64), "rep_shape")
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    nodes = [N("MatMul", ["x", "w"], ["new"]),
             N("Concat", ["past", "new"], ["kv"], axis=1),
             N("Unsqueeze", ["kv", "axes"], ["kv1"]),
             N("Expand", ["kv1", "rep_shape"], ["rep"]),
             N("Transpose", ["rep"], ["kt"], perm=[0, 1, 3, 2]),
             N("MatMul", ["q", "kt"], ["s"])]
    vi = helper.make_tensor_value_info
    g = helper.make_graph(nodes, "kv", [vi("x", TensorProto.FLOAT, [1, 1, 8]), vi("past", TensorProto.FLOAT, [1, 5, 8]),
                                        vi("q", TensorProto.FLOAT, [1, 2, 1, 8])],
                          [vi("new", TensorProto.FLOAT, [1, 1, 8]), vi("s", TensorProto.FLOAT, [1, 2, 1, 6])],
                          [numpy_helper.from_array(w, "w"), shape, axes])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, f"{work}/kv.onnx")
    feeds = [{k: v.astype(np.float32).astype(np.float64) for k, v in   # the values the graph is given
              (("x", rs.uniform(-1, 1, (1, 1, 8))), ("past", rs.uniform(-2, 2, (1, 5, 8))),
               ("q", rs.uniform(-1, 1, (1, 2, 1, 8))))} for _ in range(4)]
    lines = []
    for k, f in enumerate(feeds):
        parts = []
        for name, v in f.items():
            v.astype(np.float32).tofile(f"{work}/{name}{k}.raw")
            parts.append(f"{name}:={work}/{name}{k}.raw")
        lines.append(" ".join(parts) + "\n")
    open(f"{work}/kv.txt", "w").writelines(lines)
    lo, hi = -2.0, 2.0
    cache = {"bw": 8, "is_sym": False, "enc_type": "PER_TENSOR", "dtype": "INT", "scale": [(hi - lo) / 255],
             "offset": [int(round(lo / ((hi - lo) / 255)))]}
    ov = {"version": "1.0.0", "param_encodings": [],
          "activation_encodings": [dict(cache, name="past"), dict(cache, name="new")]}
    json.dump(ov, open(f"{work}/kv_ov.json", "w"))
    cpp = f"{work}/kv/kv.cpp"
    run([CONV, "-i", f"{work}/kv.onnx", "-o", cpp, "--preserve_io", "--input_list", f"{work}/kv.txt", "--act_bw", "16",
         "--weight_bw", "8", "--quantization_overrides", f"{work}/kv_ov.json"])
    enc = encodings_in_source(cpp)
    nodes = json.load(open(f"{work}/kv/kv_net.json"))["graph"]["nodes"]
    producer = {o: (n["type"], n["input_names"]) for n in nodes.values() for o in n["output_names"]}
    converts = sorted(n["input_names"][0] + " -> " + n["output_names"][0] for n in nodes.values() if n["type"] == "Convert")
    if len(converts) != 1 or producer["new"][0] != "Convert":
        fail(f"kv_cache: expected one Convert, making 'new' (the cache entry); got {converts}")
    wide = producer["new"][1][0]
    fc_type, fc_ins = producer[wide]
    if fc_type not in ("FullyConnected", "MatMul") or enc[fc_ins[0]][0] != "QNN_DATATYPE_UFIXED_POINT_16":
        fail(f"kv_cache: 'new' should come from the product at 16 bits; its producer {fc_type} reads {fc_ins[0]} "
             f"as {enc[fc_ins[0]][0]}")
    if enc[wide][0] != "QNN_DATATYPE_UFIXED_POINT_16":
        fail(f"kv_cache: the product's own output {wide} is {enc[wide][0]}, not 16-bit")
    add = [n for n in nodes.values() if n["type"] == "ElementWiseAdd"]
    if len(add) != 1 or len({(enc[t][0], float(enc[t][2][0]), int(enc[t][3][0]))
                              for t in (add[0]["input_names"][0], add[0]["output_names"][0], "past", "new")}) != 1:
        fail("kv_cache: the Expand's Add does not keep the cache's 8-bit encoding")
    mm = [n for n in nodes.values() if n["type"] == "MatMul" and n["output_names"] == ["s"]]
    if not mm or enc[mm[0]["input_names"][1]][0] != "QNN_DATATYPE_UFIXED_POINT_8":
        fail("kv_cache: the attention MatMul does not read the 8-bit cache")
    print(f"8-bit cache in a 16-bit graph: the product writes {wide} (16-bit), one Convert makes 'new'; the Expand and "
          "the MatMul read the cache at 8 bits")
    build_and_run(cpp, f"{work}/kv.txt", f"{work}/kv_out")
    step = cache["scale"][0]
    worst_new = worst_s = 0.0
    for k, f in enumerate(feeds):
        ref_new = f["x"].astype(np.float64) @ w.astype(np.float64)
        got_new = np.fromfile(f"{work}/kv_out/Result_{k}/new.raw", np.float32).reshape(1, 1, 8)
        worst_new = max(worst_new, float(np.abs(got_new - ref_new).max()))
        # the reference attention reads the cache at the values the graph stored (past quantized on input)
        q0 = cache["offset"][0]   # the 8-bit grid: (k + offset) * step, k in 0..255
        past_q = np.clip(np.rint(f["past"] / step), q0, q0 + 255) * step
        kv = np.concatenate([past_q, got_new.astype(np.float64)], axis=1)
        s_scale, s_off = float(enc["s"][2][0]), int(enc["s"][3][0])   # s clips to its calibrated range
        ref_s = np.clip(np.einsum("bhid,bjd->bhij", f["q"], kv), s_off * s_scale, (s_off + 65535) * s_scale)
        got_s = np.fromfile(f"{work}/kv_out/Result_{k}/s.raw", np.float32).reshape(1, 2, 1, 6)
        worst_s = max(worst_s, float(np.abs(got_s - ref_s).max()))
    print(f"new within {worst_new:.4f} of x @ W (8-bit step {step:.4f}); s within {worst_s:.4f} of q . kv")
    # new: half an 8-bit step plus the 8-bit weights' error (|x| <= 1, 8 terms of <= 1/255); s: q at 16 bits,
    # the cache exact at its stored values, the output at 16 bits over its calibrated range
    if worst_new > step / 2 + 8 * (1.0 / 255) or worst_s > 2e-3:
        fail(f"kv_cache: outputs off the reference (new {worst_new}, s {worst_s})")


with tempfile.TemporaryDirectory() as tmp:
    if CASE in ("mobilenet_v2", "resnet18"):
        case_model(tmp, CASE)
    else:
        {"overrides": case_overrides, "qdq": case_qdq, "shared_params": case_shared_params,
         "kv_cache": case_kv_cache}[CASE](tmp)
print("PASS")
