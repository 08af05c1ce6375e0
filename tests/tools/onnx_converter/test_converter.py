#!/usr/bin/python3
"""qnn-onnx-converter tests: tiny models built here with onnx.helper (numpy reference outputs),
the bench models of make_models.py (run, check shape and finiteness), and error cases.
usage: test_converter.py BUILD_DIR CASE [GEN_MODELS_PY]    exit 77 = skipped (no python3-onnx)"""
import os
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import helper, TensorProto
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import run, save, check  # noqa: E402

B, CASE = sys.argv[1], sys.argv[2]
TOOLS = testlib.Tools(B)
CONV = TOOLS.conv
rs = np.random.RandomState(0)


def convert_and_run(model, feeds, work, extra=()):
    """feeds: [(name, array in ONNX layout)]; returns {output name: array in ONNX layout}."""
    return testlib.convert_and_run(TOOLS, model, feeds, work, extra)


# ---------------- numpy reference ops ----------------
def conv2d(x, w, b, stride=1, pad=0, group=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), np.float64)
    og = o // group
    for g in range(group):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
                y[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    return y + b.reshape(1, -1, 1, 1)


def maxpool2(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def erf(x):
    import math
    return np.vectorize(math.erf)(x)


# ---------------- cases ----------------
def case_small_cnn(work):
    """Conv+BN+Relu, MaxPool, depthwise Conv, Clip, residual Add, GAP, Flatten, Gemm, Softmax; NCHW in/out."""
    w1, b1 = rs.randn(8, 3, 3, 3).astype(np.float32) * 0.3, rs.randn(8).astype(np.float32) * 0.1
    bn = [(1 + 0.1 * rs.randn(8)).astype(np.float32), (0.1 * rs.randn(8)).astype(np.float32),
          (0.1 * rs.randn(8)).astype(np.float32), (1 + 0.1 * np.abs(rs.randn(8))).astype(np.float32)]
    wd, bd = rs.randn(8, 1, 3, 3).astype(np.float32) * 0.3, rs.randn(8).astype(np.float32) * 0.1
    wg, bg = rs.randn(8, 4, 1, 1).astype(np.float32) * 0.3, rs.randn(8).astype(np.float32) * 0.1
    fw, fb = rs.randn(5, 8).astype(np.float32), rs.randn(5).astype(np.float32)
    inits = dict(w1=w1, b1=b1, s=bn[0], bb=bn[1], mu=bn[2], var=bn[3], wd=wd, bd=bd, wg=wg, bg=bg, fw=fw, fb=fb,
                 lo=np.float32(0), hi=np.float32(6))
    N = helper.make_node
    nodes = [N("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             N("BatchNormalization", ["c1", "s", "bb", "mu", "var"], ["n1"], epsilon=1e-5),
             N("Relu", ["n1"], ["r1"]),
             N("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             N("Conv", ["p1", "wd", "bd"], ["d1"], pads=[1, 1, 1, 1], group=8),
             N("Clip", ["d1", "lo", "hi"], ["k1"]),
             N("Conv", ["k1", "wg", "bg"], ["g1"], group=2),
             N("Add", ["g1", "p1"], ["a1"]),
             N("GlobalAveragePool", ["a1"], ["gap"]),
             N("Flatten", ["gap"], ["flat"]),
             N("Gemm", ["flat", "fw", "fb"], ["logits"], transB=1),
             N("Softmax", ["logits"], ["probs"], axis=1)]
    F = TensorProto.FLOAT
    save(nodes, [helper.make_tensor_value_info("x", F, [1, 3, 8, 8])],
         [helper.make_tensor_value_info("probs", F, [1, 5]), helper.make_tensor_value_info("a1", F, [1, 8, 4, 4])],
         inits, f"{work}/small_cnn.onnx")
    x = rs.randn(1, 3, 8, 8).astype(np.float32)
    got = convert_and_run(f"{work}/small_cnn.onnx", [("x", x)], work)
    c1 = conv2d(x, w1, b1, pad=1)
    n1 = (c1 - bn[2].reshape(1, -1, 1, 1)) / np.sqrt(bn[3].reshape(1, -1, 1, 1) + 1e-5) * bn[0].reshape(1, -1, 1, 1) + bn[1].reshape(1, -1, 1, 1)
    p1 = maxpool2(np.maximum(n1, 0))
    k1 = np.clip(conv2d(p1, wd, bd, pad=1, group=8), 0, 6)
    a1 = conv2d(k1, wg, bg, group=2) + p1
    logits = a1.mean(axis=(2, 3)) @ fw.T + fb
    check(got["a1"], a1, "small_cnn a1 (rank-4 output, NHWC in the graph)")
    check(got["probs"], softmax(logits), "small_cnn probs")


def case_mlp(work):
    """MatMul+Add (one FullyConnected with bias), Erf-Gelu pattern, decomposed LayerNorm pattern, Reshape/Transpose, Tanh; dynamic batch via --input_dim."""
    w1, b1 = rs.randn(16, 32).astype(np.float32) * 0.3, rs.randn(32).astype(np.float32) * 0.1
    w2 = rs.randn(32, 16).astype(np.float32) * 0.3
    gam, bet = (1 + 0.1 * rs.randn(16)).astype(np.float32), (0.1 * rs.randn(16)).astype(np.float32)
    inits = dict(w1=w1, b1=b1, w2=w2, sq2=np.float32(np.sqrt(2)), one=np.float32(1), half=np.float32(0.5),
                 eps=np.float32(1e-5), gam=gam, bet=bet, shp=np.array([0, 2, 4, 2], np.int64))
    N = helper.make_node
    nodes = [N("MatMul", ["x", "w1"], ["m1"]), N("Add", ["m1", "b1"], ["h"]),
             N("Div", ["h", "sq2"], ["hd"]), N("Erf", ["hd"], ["he"]), N("Add", ["he", "one"], ["h1"]),
             N("Mul", ["h", "h1"], ["hm"]), N("Mul", ["hm", "half"], ["gelu"]),
             N("MatMul", ["gelu", "w2"], ["m2"]),
             N("ReduceMean", ["m2"], ["mean"], axes=[-1]), N("Sub", ["m2", "mean"], ["d"]),
             N("Mul", ["d", "d"], ["dd"]), N("ReduceMean", ["dd"], ["var"], axes=[-1]),
             N("Add", ["var", "eps"], ["ve"]), N("Sqrt", ["ve"], ["sd"]), N("Div", ["d", "sd"], ["nrm"]),
             N("Mul", ["nrm", "gam"], ["ng"]), N("Add", ["ng", "bet"], ["ln"]),
             N("Tanh", ["ln"], ["t"]), N("Reshape", ["t", "shp"], ["r"]),
             N("Transpose", ["r"], ["y"], perm=[0, 3, 1, 2])]
    F = TensorProto.FLOAT
    save(nodes, [helper.make_tensor_value_info("x", F, ["batch", 16])],
         [helper.make_tensor_value_info("y", F, ["batch", 2, 2, 4])], inits, f"{work}/mlp.onnx")
    x = rs.randn(3, 16).astype(np.float32)
    got = convert_and_run(f"{work}/mlp.onnx", [("x", x)], work, ["--input_dim", "x", "3,16"])
    h = x @ w1 + b1
    g = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    m2 = g @ w2
    d = m2 - m2.mean(-1, keepdims=True)
    ln = d / np.sqrt((d * d).mean(-1, keepdims=True) + 1e-5) * gam + bet
    check(got["y"], np.tanh(ln).reshape(3, 2, 4, 2).transpose(0, 3, 1, 2), "mlp y")
    js = open(f"{work}/mlp_net.json").read()
    for op in ('"Gelu"', '"LayerNorm"'):
        if op not in js:
            sys.exit(f"FAIL: mlp: pattern {op} not fused")
    if '"ElementWiseAdd"' in js:  # MatMul + b1 is one FullyConnected with that bias; the other Adds are in patterns
        sys.exit("FAIL: mlp: MatMul + bias Add not fused into FullyConnected")


def case_bench(work):
    """make_models.py models: convert, build, run; check output shape and finite values."""
    gen = sys.argv[3] if len(sys.argv) > 3 else ""
    if not os.path.exists(gen):
        print(f"SKIP: make_models.py not found at {gen!r}")
        sys.exit(77)
    run(["/usr/bin/python3", gen, f"{work}/models"], ok=False)  # torchvision exports may fail
    for name, shape, outshape in [("mobilenet_v2_helper", (1, 3, 224, 224), 1000), ("resnet18_helper", (1, 3, 224, 224), 1000),
                                  ("matmul_1024", (1024, 1024), 1024 * 1024), ("transformer_l4_h256_s128", (1, 128, 256), 128 * 256)]:
        model = f"{work}/models/{name}.onnx"
        if not os.path.exists(model):
            sys.exit(f"FAIL: make_models.py did not produce {name}.onnx")
        inp = [i.name for i in onnx.load(model, load_external_data=False).graph.input][0]
        out = convert_and_run(model, [(inp, rs.randn(*shape).astype(np.float32))], f"{work}/{name}")
        y = out["output"]
        if y.size != outshape or not np.all(np.isfinite(y)):
            sys.exit(f"FAIL: {name}: {y.size} values (expected {outshape}), finite={np.all(np.isfinite(y))}")
        print(f"{name}: ran, {y.size} finite values")


def expect_error(cmd, needle):
    p = run(cmd, ok=False)
    if p.returncode == 0 or needle not in p.stderr or "qnn-onnx-converter: error:" not in p.stderr:
        sys.exit(f"FAIL: {' '.join(cmd)}: rc={p.returncode}, stderr={p.stderr!r}, expected '{needle}'")
    print(f"ok: {p.stderr.strip().splitlines()[-1]}")


def case_errors(work):
    F = TensorProto.FLOAT
    save([helper.make_node("Unique", ["x"], ["y"], name="nu")], [helper.make_tensor_value_info("x", F, [4])],
         [helper.make_tensor_value_info("y", F, ["n"])], {}, f"{work}/unsup.onnx")
    expect_error([CONV, "-i", f"{work}/unsup.onnx", "-o", f"{work}/u.cpp"], "unsupported op Unique (node 'nu'")
    # A data-dependent row count the model leaves open cannot become a static QNN shape.
    save([helper.make_node("NonZero", ["x"], ["y"], name="nz")], [helper.make_tensor_value_info("x", F, [4])],
         [helper.make_tensor_value_info("y", TensorProto.INT64, [1, "n"])], {}, f"{work}/nz.onnx")
    expect_error([CONV, "-i", f"{work}/nz.onnx", "-o", f"{work}/nz.cpp"], "the shape of tensor 'y' could not be inferred")
    with open(f"{work}/bad.onnx", "wb") as f:
        f.write(b"\x12\x34this is not a protobuf" * 10)
    expect_error([CONV, "-i", f"{work}/bad.onnx", "-o", f"{work}/b.cpp"], "bad.onnx")
    save([helper.make_node("Relu", ["x"], ["y"])], [helper.make_tensor_value_info("x", F, ["n", 4])],
         [helper.make_tensor_value_info("y", F, ["n", 4])], {}, f"{work}/dyn.onnx")
    expect_error([CONV, "-i", f"{work}/dyn.onnx", "-o", f"{work}/d.cpp"], "input 'x' has dynamic dims")
    expect_error([CONV, "-i", f"{work}/dyn.onnx", "--input_dim", "x", "2,4", "--input_list", f"{work}/missing_list.txt"],
                 "--input_list: cannot read")
    expect_error([CONV, "-i", f"{work}/dyn.onnx", "--input_dim", "x", "2,4", "-o", f"{work}/d16.cpp",
                  "--float_bitwidth", "16", "--float_fallback"], "cannot be combined with quantization")
    expect_error([CONV, "-i", f"{work}/missing.onnx"], "missing.onnx")
    # A zero stride or group: ONNX's own shape inference divides by it in C++ (SIGFPE, the process ended
    # with no message); the converter refuses the model first (found by fuzz_python_inputs.py).
    save([helper.make_node("MaxPool", ["x"], ["y"], name="mp", kernel_shape=[2, 2], strides=[0, 2])],
         [helper.make_tensor_value_info("x", F, [1, 3, 8, 8])], [helper.make_tensor_value_info("y", F, [1, 3, 4, 4])],
         {}, f"{work}/stride0.onnx")
    expect_error([CONV, "-i", f"{work}/stride0.onnx", "-o", f"{work}/s0.cpp"],
                 "node 'mp' (MaxPool) has strides [0, 2]: every value must be positive")
    save([helper.make_node("Conv", ["x", "w"], ["y"], name="cg", group=0)],
         [helper.make_tensor_value_info("x", F, [1, 3, 8, 8])], [helper.make_tensor_value_info("y", F, [1, 4, 6, 6])],
         {"w": np.ones((4, 3, 3, 3), np.float32)}, f"{work}/group0.onnx")
    expect_error([CONV, "-i", f"{work}/group0.onnx", "-o", f"{work}/g0.cpp"], "has group [0]: every value must be positive")
    # A Conv fed a 2-D tensor with a 4-D weight: ONNX's shape inference reads past the input's shape
    # (SIGSEGV, found by fuzz_python_inputs.py, seed 1048926539); it runs in a child process, so the
    # crash becomes the converter's error.
    save([helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Conv", ["r", "w"], ["y"], name="c2")],
         [helper.make_tensor_value_info("x", F, [1, 8])], [helper.make_tensor_value_info("y", F, [1, 4, 6, 6])],
         {"w": np.ones((4, 3, 3, 3), np.float32)}, f"{work}/conv_rank2.onnx")
    expect_error([CONV, "-i", f"{work}/conv_rank2.onnx", "-o", f"{work}/r2.cpp"], "ONNX shape inference crashed")


def case_lora(work):
    """--lora_weight_list: y = x W + (x A) B with A, B listed: they become UPDATEABLE_STATIC tensors of their
    ONNX names and layouts (MatMul inputs), W stays a FullyConnected weight; the outputs are unchanged."""
    import json
    w = rs.randn(6, 5).astype(np.float32)
    a, b = rs.randn(6, 3).astype(np.float32), rs.randn(3, 5).astype(np.float32)
    N, F = helper.make_node, TensorProto.FLOAT
    nodes = [N("MatMul", ["x", "W"], ["base"]), N("MatMul", ["x", "lora.A"], ["xa"]),
             N("MatMul", ["xa", "lora.B"], ["xab"]), N("Add", ["base", "xab"], ["y"])]
    save(nodes, [helper.make_tensor_value_info("x", F, [2, 6])], [helper.make_tensor_value_info("y", F, [2, 5])],
         {"W": w, "lora.A": a, "lora.B": b}, f"{work}/lora.onnx")
    with open(f"{work}/lora_list.txt", "w") as f:
        f.write("# the adapter's tensors\nlora.A\n\nlora.B\n")
    x = rs.randn(2, 6).astype(np.float32)
    got = convert_and_run(f"{work}/lora.onnx", [("x", x)], work, ["--lora_weight_list", f"{work}/lora_list.txt"])
    check(got["y"], x.astype(np.float64) @ w + (x.astype(np.float64) @ a) @ b, "lora y")
    tensors = json.load(open(f"{work}/lora_net.json"))["graph"]["tensors"]
    kinds = {n: (t["type"], t["dims"]) for n, t in tensors.items() if "STATIC" in t["type"]}
    for name, dims in (("lora_A", [6, 3]), ("lora_B", [3, 5])):
        if kinds.get(name) != ("QNN_TENSOR_TYPE_UPDATEABLE_STATIC", dims):
            sys.exit(f"FAIL: lora: {name} is {kinds.get(name)}, want UPDATEABLE_STATIC {dims} (static: {kinds})")
    others = {n: k for n, k in kinds.items() if n not in ("lora_A", "lora_B")}
    if not others or any(k[0] != "QNN_TENSOR_TYPE_STATIC" for k in others.values()):
        sys.exit(f"FAIL: lora: the other static tensors {others} should stay STATIC")
    cpp = open(f"{work}/lora.cpp").read()
    if cpp.count("QNN_TENSOR_TYPE_UPDATEABLE_STATIC") != 2:
        sys.exit("FAIL: lora: model.cpp should create exactly two UPDATEABLE_STATIC tensors")
    expect_error([CONV, "-i", f"{work}/lora.onnx", "-o", f"{work}/l2.cpp", "--lora_weight_list", f"{work}/none.txt"],
                 "--lora_weight_list")
    with open(f"{work}/bad_list.txt", "w") as f:
        f.write("lora.A\nxa\n")
    expect_error([CONV, "-i", f"{work}/lora.onnx", "-o", f"{work}/l3.cpp", "--lora_weight_list", f"{work}/bad_list.txt"],
                 "--lora_weight_list: 'xa' is not a constant (initializer) of the model")
    with open(f"{work}/empty_list.txt", "w") as f:
        f.write("# nothing\n")
    expect_error([CONV, "-i", f"{work}/lora.onnx", "-o", f"{work}/l4.cpp", "--lora_weight_list", f"{work}/empty_list.txt"],
                 "no tensor names")
    print("ok: --lora_weight_list makes lora_A / lora_B UPDATEABLE_STATIC MatMul weights in their ONNX layout")


def _packed_weights(work, name):
    """{static tensor name: (dataType, encoding union text, raw bytes)} of a converted model.cpp / model.bin."""
    import re
    import tarfile
    text = open(f"{work}/{name}.cpp").read()
    found = {}
    with tarfile.open(f"{work}/{name}.bin") as tar:
        for m in re.finditer(r'\.name= "([^"]+)",\s*\.type= QNN_TENSOR_TYPE_STATIC,\s*\.dataFormat= \w+,\s*'
                             r'\.dataType= (\w+),\s*\.quantizeParams= \{ \w+,\s*(\w+),\s*(\{.*?\}\})\}', text, re.S):
            found[m.group(1)] = (m.group(2), m.group(3), m.group(4), tar.extractfile(m.group(1) + ".raw").read(), text)
    return found


def _unpack4(raw, n, signed):
    """n 4-bit values, two per byte, the first in the low nibble (QnnTypes.h's packing)."""
    b = np.frombuffer(raw, np.uint8)
    v = np.stack([b & 0xF, b >> 4], axis=1).reshape(-1)[:n].astype(np.int64)
    return np.where(v >= 8, v - 16, v) if signed else v


def case_weight4(work):
    """--weight_bw 4: the FullyConnected weights are written packed (UFIXED_POINT_4 per tensor with tf,
    SFIXED_POINT_4 per row with --use_per_row_quantization), ceil(n/2) bytes in model.bin, BW encodings of
    bitwidth 4; unpacked here they dequantize to within half a step of the float weights; the model runs on
    the CPU and HTP backends, both within a few output steps of a float64 forward pass over those 4-bit
    weights. An odd element count (7 x 5) leaves the last high nibble empty."""
    import re
    fw1, fb1 = rs.randn(7, 16).astype(np.float32), (0.1 * rs.randn(7)).astype(np.float32)
    fw2, fb2 = rs.randn(5, 7).astype(np.float32), (0.1 * rs.randn(5)).astype(np.float32)
    N = helper.make_node
    nodes = [N("Gemm", ["x", "fw1", "fb1"], ["h"], transB=1), N("Relu", ["h"], ["r"]),
             N("Gemm", ["r", "fw2", "fb2"], ["y"], transB=1)]
    F = TensorProto.FLOAT
    save(nodes, [helper.make_tensor_value_info("x", F, [2, 16])], [helper.make_tensor_value_info("y", F, [2, 5])],
         dict(fw1=fw1, fb1=fb1, fw2=fw2, fb2=fb2), f"{work}/w4.onnx")
    x = rs.randn(2, 16).astype(np.float32)
    x.tofile(f"{work}/cal.raw")
    with open(f"{work}/cal.txt", "w") as f:
        f.write(f"x:={work}/cal.raw\n")
    htp = os.path.join(B, "backends", "htp_sim", "libQnnHtp.so")
    for per_row in (False, True):
        sub = f"{work}/{'row' if per_row else 'tf'}"
        extra = ["--input_list", f"{work}/cal.txt", "--weight_bw", "4"] + (["--use_per_row_quantization"] if per_row else [])
        got = convert_and_run(f"{work}/w4.onnx", [("x", x)], sub, extra)["y"]
        weights = {k: v for k, v in _packed_weights(sub, "w4").items() if "FIXED_POINT_4" in v[0]}
        if len(weights) != 2:
            sys.exit(f"FAIL: weight4: expected two packed 4-bit weights, found {sorted(weights)}")
        deq, stored = {}, {}
        for name, (dtype, kind, union, raw, text) in weights.items():
            w = fw1 if raw and len(raw) == (7 * 16 + 1) // 2 else fw2
            n = w.size
            want_dtype = "QNN_DATATYPE_SFIXED_POINT_4" if per_row else "QNN_DATATYPE_UFIXED_POINT_4"
            if dtype != want_dtype or len(raw) != (n + 1) // 2:
                sys.exit(f"FAIL: weight4 {name}: {dtype}, {len(raw)} bytes (want {want_dtype}, {(n + 1) // 2})")
            if n % 2 and raw[-1] >> 4:
                sys.exit(f"FAIL: weight4 {name}: the unused last high nibble is {raw[-1] >> 4}")
            q = _unpack4(raw, n, per_row).reshape(w.shape).astype(np.float64)
            if per_row:
                if kind != "QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET" or ".bitwidth= 4" not in union:
                    sys.exit(f"FAIL: weight4 {name}: encoding {kind} {union}")
                arr = re.search(r"\.scales= (\w+)", union).group(1)
                scale = np.array([float(v.rstrip("f")) for v in
                                  re.search(rf"float {arr}\[\] = \{{(.*?)\}};", text).group(1).split(",")])[:, None]
                offset = 0.0
            else:
                m = re.search(r"\.bitwidth= 4, \.scale= ([-0-9.e+]+)f, \.offset= (-?\d+)", union)
                if kind != "QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET" or not m:
                    sys.exit(f"FAIL: weight4 {name}: encoding {kind} {union}")
                scale, offset = float(np.float32(float(m.group(1)))), int(m.group(2))
            deq[n] = (q + offset) * scale
            stored[name] = q
            err = np.abs(deq[n] - w) / scale
            if err.max() > 0.5 + 1e-4 or len(np.unique(q)) < 10:
                sys.exit(f"FAIL: weight4 {name}: stored values are {err.max():.2f} steps from the weights "
                         f"({len(np.unique(q))} distinct)")
        # The tools that read converted models back (qnn-quantization-checker, qnn-architecture-checker)
        # see the same 4-bit values.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python"))
        from qnn.converters.read_net import read_net
        back = read_net(f"{sub}/w4_net.json", f"{sub}/w4.bin").graph.tensors
        for name, q in stored.items():
            if not np.array_equal(back[name].data.astype(np.int64), q.astype(np.int64)):
                sys.exit(f"FAIL: weight4 {name}: read_net reads other values than the packed ones")
        want = np.maximum(x @ deq[7 * 16].T + fb1, 0) @ deq[5 * 7].T + fb2
        tol = 0.04 * np.abs(want).max()
        if np.abs(got - want).max() > tol:
            sys.exit(f"FAIL: weight4 ({'per row' if per_row else 'tf'}) on the CPU: {np.abs(got - want).max():.4f} "
                     f"from the 4-bit reference (tolerance {tol:.4f})")
        run([TOOLS.netrun, "--model", f"{sub}/lib/x86_64-linux-clang/libw4.so", "--backend", htp,
             "--input_list", f"{sub}/list.txt", "--output_dir", f"{sub}/out_htp"])
        got_htp = np.fromfile(f"{sub}/out_htp/Result_0/y.raw", np.float32).reshape(2, 5)
        if np.abs(got_htp - want).max() > tol:
            sys.exit(f"FAIL: weight4 ({'per row' if per_row else 'tf'}) on the HTP: "
                     f"{np.abs(got_htp - want).max():.4f} from the 4-bit reference (tolerance {tol:.4f})")
    print("ok: --weight_bw 4 writes packed UFIXED_POINT_4 (tf) / SFIXED_POINT_4 (per row) weights; CPU and HTP "
          "runs match the 4-bit reference")


with tempfile.TemporaryDirectory() as tmp:
    {"small_cnn": case_small_cnn, "mlp": case_mlp, "bench": case_bench, "errors": case_errors,
     "weight4": case_weight4, "lora": case_lora}[CASE](tmp)
print("PASS")
