#!/usr/bin/python3
"""One tiny ONNX model per converter (built here with onnx.helper): convert, build, run on the CPU
backend, compare with a numpy reference written from the ONNX operator definitions. Rank-4 inputs
go in NHWC (the converter's default, as the vendor's) and rank-4 outputs come back in the layout the
graph reports; the last cases check that layout choice itself (--preserve_io, --input_layout, --custom_io).

usage: test_ops.py BUILD_DIR [CASE...]      exit 77 = skipped (no python3-onnx / python3-numpy)
Tolerance 1e-5 relative to the largest reference value: every case sums at most a few dozen fp32
terms (error ~1e-7), so this still fails on any indexing or parameter mistake."""
import json
import math
import os
import sys
import tempfile

try:
    import numpy as np
    from onnx import helper, TensorProto
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402

TOOLS = testlib.Tools(sys.argv[1] if len(sys.argv) > 1 else "build")
F, I64 = TensorProto.FLOAT, TensorProto.INT64
N = helper.make_node
TOL = 1e-5
rs = np.random.RandomState(7)


def vi(name, shape, dt=F):
    return helper.make_tensor_value_info(name, dt, shape)


def f32(*shape, scale=1.0):
    return (rs.randn(*shape) * scale).astype(np.float32)


def model_case(work, name, nodes, inputs, outputs, inits, feeds, want, extra=(), opset=13, tol=TOL):
    """inputs/outputs: [(name, shape[, dtype])]; feeds: {input: array}; want: {output: reference}."""
    path = f"{work}/{name}.onnx"
    testlib.save(nodes, [vi(*i) for i in inputs], [vi(*o) for o in outputs], inits, path, opset)
    got = testlib.convert_and_run(TOOLS, path, [(i[0], feeds[i[0]]) for i in inputs], f"{work}/{name}", extra)
    for out, ref in want.items():
        testlib.check(got[out], np.asarray(ref, np.float32), f"{name}: {out}", tol)
    return got


# ---------------- numpy references ----------------
def conv_transpose(x, w, b, stride, pads, out_pad, group):
    n, cin, h, wd = x.shape
    _, og, kh, kw = w.shape
    ig = cin // group
    full = np.zeros((n, og * group, (h - 1) * stride + kh + out_pad, (wd - 1) * stride + kw + out_pad))
    for g in range(group):
        for c in range(ig):
            for o in range(og):
                for i in range(kh):
                    for j in range(kw):
                        full[:, g * og + o, i:i + stride * h:stride, j:j + stride * wd:stride] += \
                            x[:, g * ig + c] * w[g * ig + c, o, i, j]
    oh = stride * (h - 1) + out_pad + kh - pads[0] - pads[2]
    ow = stride * (wd - 1) + out_pad + kw - pads[1] - pads[3]
    return full[:, :, pads[0]:pads[0] + oh, pads[1]:pads[1] + ow] + b.reshape(1, -1, 1, 1)


def linear_weights(n_in, n_out, scale):
    """[n_out, n_in] interpolation matrix of ONNX Resize linear, half_pixel."""
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        x = max((o + 0.5) / scale - 0.5, 0.0)
        x0 = min(int(math.floor(x)), n_in - 1)
        x1 = min(x0 + 1, n_in - 1)
        t = x - x0 if x0 < n_in - 1 else 0.0
        m[o, x0] += 1 - t
        m[o, x1] += t
    return m


def avg_pool(x, k, s, p, count_pad):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    ones = np.pad(np.ones((h, w)), p)
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * s:i * s + k, j * s:j * s + k]
            cnt = k * k if count_pad else ones[i * s:i * s + k, j * s:j * s + k].sum()
            y[:, :, i, j] = win.sum(axis=(2, 3)) / cnt
    return y


# ---------------- cases ----------------
def case_conv_transpose(work):
    x, w, b = f32(1, 4, 5, 5), f32(4, 3, 3, 3, scale=0.3), f32(6, scale=0.1)
    model_case(work, "conv_transpose", [N("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1],
                                         output_padding=[1, 1], group=2)],
               [("x", [1, 4, 5, 5])], [("y", [1, 6, 10, 10])], {"w": w, "b": b}, {"x": x},
               {"y": conv_transpose(x, w, b, 2, [1, 1, 1, 1], 1, 2)})


def case_resize(work):
    x = f32(1, 3, 4, 5)
    near = x.repeat(2, axis=2).repeat(2, axis=3)                 # asymmetric + floor at scale 2
    lin = np.einsum("oh,nchw,pw->ncop", linear_weights(4, 8, 2.0), x, linear_weights(5, 10, 2.0))
    scales = np.array([1, 1, 2, 2], np.float32)
    model_case(work, "resize",
               [N("Resize", ["x", "", "scales"], ["near"], mode="nearest", coordinate_transformation_mode="asymmetric",
                  nearest_mode="floor"),
                N("Resize", ["x", "", "", "sizes"], ["lin"], mode="linear", coordinate_transformation_mode="half_pixel")],
               [("x", [1, 3, 4, 5])], [("near", [1, 3, 8, 10]), ("lin", [1, 3, 8, 10])],
               {"scales": scales, "sizes": np.array([1, 3, 8, 10], np.int64)}, {"x": x}, {"near": near, "lin": lin})


def case_pad(work):
    x = f32(1, 2, 4, 5)
    pads = np.array([0, 1, 1, 2, 0, 0, 2, 1], np.int64)         # begins N,C,H,W then ends
    width = ((0, 0), (1, 0), (1, 2), (2, 1))
    sp = np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64)
    model_case(work, "pad",
               [N("Pad", ["x", "pads", "val"], ["const"], mode="constant"),
                N("Pad", ["x", "sp"], ["refl"], mode="reflect"),
                N("Pad", ["x", "sp"], ["edge"], mode="edge")],
               [("x", [1, 2, 4, 5])], [("const", [1, 3, 7, 8]), ("refl", [1, 2, 7, 8]), ("edge", [1, 2, 7, 8])],
               {"pads": pads, "val": np.array(0.5, np.float32), "sp": sp}, {"x": x},
               {"const": np.pad(x, width, constant_values=0.5),
                "refl": np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), mode="reflect"),
                "edge": np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), mode="edge")})


def case_slice(work):
    x, m = f32(1, 4, 6, 5), f32(5, 7)
    model_case(work, "slice",
               [N("Slice", ["x", "s1", "e1", "a1", "t1"], ["y4"]), N("Slice", ["m", "s2", "e2"], ["y2"])],
               [("x", [1, 4, 6, 5]), ("m", [5, 7])], [("y4", [1, 2, 6, 3]), ("y2", [3, 5])],
               {"s1": np.array([1, -1], np.int64), "e1": np.array([3, -1000], np.int64),
                "a1": np.array([1, 3], np.int64), "t1": np.array([1, -2], np.int64),
                "s2": np.array([1, -5], np.int64), "e2": np.array([4, 100], np.int64)},
               {"x": x, "m": m}, {"y4": x[:, 1:3, :, ::-2], "y2": m[1:4, 2:]})


def case_split(work):
    x = f32(1, 4, 3, 3)
    model_case(work, "split", [N("Split", ["x", "sizes"], ["a", "b"], axis=1), N("Split", ["x"], ["c", "d", "e"], axis=2)],
               [("x", [1, 4, 3, 3])], [("a", [1, 1, 3, 3]), ("b", [1, 3, 3, 3]), ("c", [1, 4, 1, 3]),
                                       ("d", [1, 4, 1, 3]), ("e", [1, 4, 1, 3])],
               {"sizes": np.array([1, 3], np.int64)}, {"x": x},
               {"a": x[:, :1], "b": x[:, 1:], "c": x[:, :, :1], "d": x[:, :, 1:2], "e": x[:, :, 2:]})


def case_gather(work):
    x, table = f32(2, 5, 3), f32(10, 4)
    ids = np.array([[3, 0], [9, 3]], np.int64)
    idx = np.array([4, -1, 0], np.int64)
    model_case(work, "gather", [N("Gather", ["x", "idx"], ["g"], axis=1), N("Gather", ["table", "ids"], ["emb"], axis=0)],
               [("x", [2, 5, 3]), ("ids", [2, 2], I64)], [("g", [2, 3, 3]), ("emb", [2, 2, 4])],
               {"idx": idx, "table": table}, {"x": x, "ids": ids},
               {"g": np.take(x, idx, axis=1), "emb": table[ids]})


def case_topk_argmax(work):
    x = f32(3, 10)
    order = np.argsort(-x, axis=1, kind="stable")[:, :4]
    model_case(work, "topk_argmax", [N("TopK", ["x", "k"], ["vals", "inds"]), N("ArgMax", ["x"], ["am"], axis=1, keepdims=0),
                                     N("ArgMin", ["x"], ["an"], axis=0, keepdims=1)],
               [("x", [3, 10])], [("vals", [3, 4]), ("inds", [3, 4], I64), ("am", [3], I64), ("an", [1, 10], I64)],
               {"k": np.array([4], np.int64)}, {"x": x},
               {"vals": np.take_along_axis(x, order, 1), "inds": order, "am": x.argmax(1), "an": x.argmin(0)[None]})


def case_activations(work):
    x = f32(1, 3, 4, 4, scale=2.0)
    slope = np.array([0.1, -0.2, 0.3], np.float32).reshape(3, 1, 1)
    sig = 1 / (1 + np.exp(-x.astype(np.float64)))
    model_case(work, "activations",
               [N("PRelu", ["x", "slope"], ["prelu"]), N("HardSigmoid", ["x"], ["hsig"], alpha=0.3, beta=0.4),
                N("LeakyRelu", ["x"], ["lrelu"], alpha=0.05), N("Sigmoid", ["x"], ["sig"]),
                N("HardSwish", ["x"], ["hswish"]), N("Elu", ["x"], ["elu"], alpha=0.7), N("Tanh", ["x"], ["tanh"]),
                N("Clip", ["x", "lo", "hi"], ["clip"])],
               [("x", [1, 3, 4, 4])], [(o, [1, 3, 4, 4]) for o in ("prelu", "hsig", "lrelu", "sig", "hswish", "elu", "tanh", "clip")],
               {"slope": slope, "lo": np.array(-0.5, np.float32), "hi": np.array(1.0, np.float32)}, {"x": x},
               {"prelu": np.where(x > 0, x, x * slope), "hsig": np.clip(0.3 * x + 0.4, 0, 1),
                "lrelu": np.where(x > 0, x, 0.05 * x), "sig": sig, "hswish": x * np.clip(x + 3, 0, 6) / 6,
                "elu": np.where(x > 0, x, 0.7 * (np.exp(x.astype(np.float64)) - 1)), "tanh": np.tanh(x),
                "clip": np.clip(x, -0.5, 1.0)}, opset=14)


def case_where_cast(work):
    x, y = f32(2, 3, 4), f32(2, 3, 4)
    c = (f32(2, 3, 4, scale=3.0))
    model_case(work, "where_cast",
               [N("Greater", ["x", "y"], ["gt"]), N("Mul", ["y", "two"], ["twice"]),
                N("Where", ["gt", "x", "twice"], ["w"]),
                N("Cast", ["c"], ["ci"], to=TensorProto.INT32), N("Cast", ["ci"], ["cf"], to=TensorProto.FLOAT),
                N("Cast", ["gt"], ["gf"], to=TensorProto.FLOAT)],
               [("x", [2, 3, 4]), ("y", [2, 3, 4]), ("c", [2, 3, 4])],
               [("w", [2, 3, 4]), ("cf", [2, 3, 4]), ("gf", [2, 3, 4])],
               {"two": np.array(2.0, np.float32)}, {"x": x, "y": y, "c": c},
               {"w": np.where(x > y, x, 2 * y), "cf": np.trunc(c), "gf": (x > y).astype(np.float32)})


def case_broadcast(work):
    x, z = f32(1, 3, 4, 4), np.abs(f32(2, 1, 5)) + 0.5
    cb = f32(3, 1, 1)
    model_case(work, "broadcast",
               [N("Sub", ["x", "cb"], ["sub"]), N("Div", ["z", "row"], ["div"]), N("Pow", ["z", "p"], ["pow"]),
                N("Max", ["x", "cb"], ["max"]), N("Mul", ["x", "s"], ["mul"])],
               [("x", [1, 3, 4, 4]), ("z", [2, 1, 5])],
               [("sub", [1, 3, 4, 4]), ("div", [2, 3, 5]), ("pow", [2, 1, 5]), ("max", [1, 3, 4, 4]), ("mul", [1, 3, 4, 4])],
               {"cb": cb, "row": np.array([[1.0], [2.0], [-4.0]], np.float32), "p": np.array(1.5, np.float32),
                "s": np.array([[[0.5]], [[2.0]], [[-1.0]]], np.float32)},
               {"x": x, "z": z},
               {"sub": x - cb, "div": z / np.array([[1.0], [2.0], [-4.0]]), "pow": z.astype(np.float64) ** 1.5,
                "max": np.maximum(x, cb), "mul": x * np.array([0.5, 2.0, -1.0]).reshape(3, 1, 1)})


def case_shape_ops(work):
    """Concat, Reduce*, Squeeze/Unsqueeze, AveragePool, Transpose, Softmax on an NHWC-held tensor."""
    x, y = f32(1, 2, 5, 5), f32(1, 3, 5, 5)
    model_case(work, "shape_ops",
               [N("Concat", ["x", "y"], ["cat"], axis=1),
                N("ReduceMax", ["cat"], ["rmax"], axes=[2, 3], keepdims=1),
                N("ReduceSum", ["cat", "sum_axes"], ["rsum"], keepdims=0),
                N("Squeeze", ["rmax", "sq_axes"], ["sq"]), N("Unsqueeze", ["sq", "un_axes"], ["un"]),
                N("AveragePool", ["x"], ["avg0"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
                N("AveragePool", ["x"], ["avg1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                  count_include_pad=1),
                N("Softmax", ["y"], ["smax"], axis=1)],
               [("x", [1, 2, 5, 5]), ("y", [1, 3, 5, 5])],
               [("rsum", [1, 5, 5]), ("un", [1, 5, 1]), ("avg0", [1, 2, 3, 3]), ("avg1", [1, 2, 3, 3]), ("smax", [1, 3, 5, 5])],
               {"sq_axes": np.array([2, 3], np.int64), "sum_axes": np.array([1], np.int64), "un_axes": np.array([-1], np.int64)}, {"x": x, "y": y},
               {"rsum": np.concatenate([x, y], 1).sum(1),
                "un": np.concatenate([x, y], 1).max(axis=(2, 3))[..., None],
                "avg0": avg_pool(x, 3, 2, 1, False), "avg1": avg_pool(x, 3, 2, 1, True),
                "smax": np.exp(y) / np.exp(y).sum(1, keepdims=True)})


# ---------------- graph input/output layout ----------------
def _conv_model(work):
    w = f32(4, 3, 1, 1)
    x = f32(1, 3, 4, 5)
    nodes = [N("Conv", ["x", "w"], ["c"]), N("Relu", ["c"], ["y"])]
    path = f"{work}/io.onnx"
    testlib.save(nodes, [vi("x", [1, 3, 4, 5])], [vi("y", [1, 4, 4, 5])], {"w": w}, path)
    return path, x, np.maximum(np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0]), 0)


def _graph_io(work, name):
    g = json.load(open(f"{work}/{name}/io_net.json"))["graph"]
    return g["tensors"]["x"]["dims"], g["tensors"]["y"]["dims"]


def case_io_layout(work):
    """Default: rank-4 input and output NHWC (vendor legacy converter); --preserve_io layout, --input_layout
    NONTRIVIAL (input only) and a --custom_io YAML keep or pick the ONNX layout."""
    path, x, want = _conv_model(work)
    yaml_path = f"{work}/custom_io.yaml"
    with open(yaml_path, "w") as f:
        f.write("- IOName: x\n  Layout:\n    Model: NCHW\n    Custom: NCHW\n"
                "- IOName: y\n  Layout:\n    Custom: NHWC\n")
    for name, extra, io_dims in [("default", [], ([1, 4, 5, 3], [1, 4, 5, 4])),
                                 ("preserve", ["--preserve_io", "layout"], ([1, 3, 4, 5], [1, 4, 4, 5])),
                                 ("preserve_x", ["--preserve_io", "layout", "x"], ([1, 3, 4, 5], [1, 4, 5, 4])),
                                 ("custom_io", ["--custom_io", yaml_path], ([1, 3, 4, 5], [1, 4, 5, 4]))]:
        got = testlib.convert_and_run(TOOLS, path, [("x", x)], f"{work}/{name}", extra)
        dims = _graph_io(work, name)
        print(f"io_layout {name}: graph input x {dims[0]}, output y {dims[1]}")
        if tuple(dims) != io_dims:
            sys.exit(f"FAIL: io_layout {name}: graph x/y dims {dims}, expected {io_dims}")
        testlib.check(got["y"], want, f"io_layout {name}: y")
    # an input declared NHWC in the source model is taken as it is (no transpose of the graph input)
    p = testlib.run([TOOLS.conv, "-i", path, "-o", f"{work}/nt/io.cpp", "--input_layout", "x", "NONTRIVIAL"])
    if "x[1, 3, 4, 5]" not in p.stdout:
        sys.exit(f"FAIL: --input_layout x NONTRIVIAL should keep x [1,3,4,5]: {p.stdout}")
    p = testlib.run([TOOLS.conv, "-i", path, "-o", f"{work}/bad/io.cpp", "--input_layout", "nope", "NCHW"], ok=False)
    if p.returncode == 0 or "names no graph input" not in p.stderr:
        sys.exit(f"FAIL: --input_layout with an unknown name: rc={p.returncode} {p.stderr}")
    print("io_layout: --input_layout NONTRIVIAL keeps x [1,3,4,5]; unknown names are an error")


def case_non_max_suppression(work):
    """ONNX's center_point_box example (answer from the ONNX operator tests), and the corner-format example
    with a score threshold keeping 2 of the 3 rows QNN writes (the model's output declares 2); again with
    --target_op_set 2.13, the center boxes through op set 2.13's center_point_box param (no decomposition)."""
    centers = np.array([[[0.5, 0.5, 1.0, 1.0], [0.5, 0.6, 1.0, 1.0], [0.5, 0.4, 1.0, 1.0], [0.5, 10.5, 1.0, 1.0],
                         [0.5, 10.6, 1.0, 1.0], [0.5, 100.5, 1.0, 1.0]]], np.float32)
    corners = np.array([[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0],
                         [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]], np.float32)
    scores = np.array([[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]], np.float32)
    consts = {"max": np.array([3], np.int64), "iou": np.array([0.5], np.float32), "s0": np.array([0.0], np.float32),
              "s4": np.array([0.4], np.float32)}
    for name, extra in (("nms", ()), ("nms_2_13", ("--target_op_set", "2.13"))):
        model_case(work, name, [N("NonMaxSuppression", ["centers", "scores", "max", "iou", "s0"], ["sel_c"], center_point_box=1),
                                N("NonMaxSuppression", ["corners", "scores", "max", "iou", "s4"], ["sel_s"])],
                   [("centers", [1, 6, 4]), ("corners", [1, 6, 4]), ("scores", [1, 1, 6])],
                   [("sel_c", [3, 3], I64), ("sel_s", [2, 3], I64)], consts,
                   {"centers": centers, "corners": corners, "scores": scores},
                   {"sel_c": [[0, 0, 3], [0, 0, 0], [0, 0, 5]], "sel_s": [[0, 0, 3], [0, 0, 0]]}, extra=extra)
    assert "Concat" in _net_op_types(work, "nms") and "Concat" not in _net_op_types(work, "nms_2_13")


def case_runtime_params(work):
    """Slice starts/axes/steps, Pad pads/value and the CumSum axis fed at run time (index arithmetic in the
    graph): numpy slicing, np.pad and np.cumsum with the same values."""
    x = f32(4, 6, 5)
    starts, axes, steps = np.array([-1, 1], np.int64), np.array([2, 0], np.int64), np.array([-2, 2], np.int64)
    pads = np.array([0, 2, 1, 0, 1, 2], np.int64)
    axis = np.array(1, np.int64)
    ends = np.array([-10, 10], np.int64)
    model_case(work, "runtime_params",
               [N("Slice", ["x", "starts", "ends", "axes", "steps"], ["s"]),
                N("Pad", ["x", "pads"], ["pr"], mode="reflect"),
                N("Pad", ["x", "pads", "value"], ["pc"], mode="constant"),
                N("CumSum", ["x", "axis"], ["cs"], reverse=1)],
               [("x", [4, 6, 5]), ("starts", [2], I64), ("axes", [2], I64), ("steps", [2], I64), ("pads", [6], I64),
                ("value", []), ("axis", [], I64)],
               [("s", [2, 6, 3]), ("pr", [4, 9, 8]), ("pc", [4, 9, 8]), ("cs", [4, 6, 5])],
               {"ends": ends}, {"x": x, "starts": starts, "axes": axes, "steps": steps, "pads": pads,
                                "value": np.array(2.5, np.float32), "axis": axis},
               {"s": x[1:10:2, :, -1:-10:-2],
                "pr": np.pad(x, [(0, 0), (2, 1), (1, 2)], mode="reflect"),
                "pc": np.pad(x, [(0, 0), (2, 1), (1, 2)], constant_values=2.5),
                "cs": np.flip(np.cumsum(np.flip(x, 1), 1), 1)})


def case_dft_det(work):
    """DFT as cosine/sine matrix products (onesided with a zero-padding dft_length, complex inverse) and
    3x3 determinants by cofactors, against numpy.fft and numpy.linalg.det."""
    x, z = f32(2, 6, 3, 1), f32(2, 5, 2)
    m = f32(4, 3, 3)
    zc = z[..., 0] + 1j * z[..., 1]
    fwd = np.fft.rfft(x[..., 0], n=8, axis=1)
    inv = np.fft.ifft(zc, axis=1)
    model_case(work, "dft_det",
               [N("DFT", ["x", "len"], ["fx"], axis=1, onesided=1), N("DFT", ["z"], ["iz"], axis=1, inverse=1),
                N("Det", ["m"], ["d"])],
               [("x", [2, 6, 3, 1]), ("z", [2, 5, 2]), ("m", [4, 3, 3])],
               [("fx", [2, 5, 3, 2]), ("iz", [2, 5, 2]), ("d", [4])],
               {"len": np.array(8, np.int64)}, {"x": x, "z": z, "m": m},
               {"fx": np.stack([fwd.real, fwd.imag], -1), "iz": np.stack([inv.real, inv.imag], -1),
                "d": np.linalg.det(m.astype(np.float64))}, opset=17)


def _tfidf_ref(x, pool, starts, indexes, lo, hi, skips, weights, mode, out_dim):
    """TfIdfVectorizer by enumerating every n-gram occurrence of every row (ONNX operator text)."""
    rows = np.atleast_2d(x)
    grams = []
    bounds = starts + [len(pool)]
    for n in range(1, len(starts) + 1):
        seg = pool[bounds[n - 1]:bounds[n]]
        grams += [tuple(seg[i:i + n]) for i in range(0, len(seg), n)]
    y = np.zeros((rows.shape[0], out_dim))
    for r, row in enumerate(rows):
        for gi, g in enumerate(grams):
            n = len(g)
            if n < lo or n > hi:
                continue
            count = 0
            for s in (range(skips + 1) if n > 1 else [0]):
                for p in range(len(row) - (n - 1) * (s + 1)):
                    count += all(row[p + j * (s + 1)] == g[j] for j in range(n))
            v = count if mode == "TF" else (count > 0) * weights[gi] if mode == "IDF" else count * weights[gi]
            y[r, indexes[gi]] = v
    return y if x.ndim == 2 else y[0]


def case_tfidf(work):
    """TfIdfVectorizer in the three modes, 1- and 2-grams with skips, a rank-1 input."""
    x2 = np.array([[1, 2, 3, 2, 3, 1, 2], [3, 3, 1, 2, 2, 3, 1]], np.int64)
    x1 = np.array([2, 3, 1, 2, 3, 3], np.int64)
    attrs = dict(min_gram_length=1, max_gram_length=2, max_skip_count=2, ngram_counts=[0, 3],
                 ngram_indexes=[4, 0, 2, 1, 3, 5], pool_int64s=[1, 2, 3, 1, 2, 2, 3, 3, 1])
    w = [0.5, 2.0, 1.5, 3.0, 0.25, 1.0]
    nodes, want = [], {}
    for mode, name, x in (("TF", "tf", x2), ("IDF", "idf", x2), ("TFIDF", "tfidf", x1)):
        nodes.append(N("TfIdfVectorizer", ["x1" if x.ndim == 1 else "x2"], [name], mode=mode, weights=w, **attrs))
        want[name] = _tfidf_ref(x, attrs["pool_int64s"], attrs["ngram_counts"], attrs["ngram_indexes"], 1, 2, 2, w,
                                mode, 6)
    model_case(work, "tfidf", nodes, [("x2", [2, 7], I64), ("x1", [6], I64)],
               [("tf", [2, 6]), ("idf", [2, 6]), ("tfidf", [6])], {}, {"x2": x2, "x1": x1}, want, opset=9)


def case_if(work):
    """If on a run-time condition: both branches (reading the outer x, one with its own constant) are computed
    and the output picks one; run with the condition true (the model is converted once per value)."""
    x = f32(2, 3)
    then_g = helper.make_graph([N("Relu", ["x"], ["t"])], "then", [], [vi("t", [2, 3])])
    else_g = helper.make_graph([N("Constant", [], ["two"], value=helper.make_tensor("v", F, [], [2.0])),
                                N("Mul", ["x", "two"], ["f"])], "else", [], [vi("f", [2, 3])])
    for flag in (True, False):
        model_case(work, f"if_{int(flag)}", [N("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g)],
                   [("x", [2, 3]), ("cond", [], TensorProto.BOOL)], [("y", [2, 3])], {},
                   {"x": x, "cond": np.array(flag)}, {"y": np.maximum(x, 0) if flag else x * 2})


def _net_op_types(work, name):
    return {n["type"] for n in json.load(open(f"{work}/{name}/{name}_net.json"))["graph"]["nodes"].values()}


def case_op_set_2_13(work):
    """--target_op_set 2.13 emits that op set's own Erf, ThresholdedRelu and Identity (checked in the net JSON and
    against math.erf / the ONNX definitions); the default keeps Erf and ThresholdedRelu decomposed and folds
    Identity away (API 2.32-era backends have none of them)."""
    x = f32(2, 3, 5, scale=1.5)
    erf = np.vectorize(math.erf)(x.astype(np.float64))
    nodes = [N("Erf", ["x"], ["e"]), N("ThresholdedRelu", ["x"], ["t"], alpha=0.4), N("Identity", ["e"], ["i"]),
             N("Add", ["i", "t"], ["y"])]
    want = {"e": erf, "t": np.where(x > 0.4, x, 0), "y": erf + np.where(x > 0.4, x, 0)}
    io = ([("x", [2, 3, 5])], [("e", [2, 3, 5]), ("t", [2, 3, 5]), ("y", [2, 3, 5])])
    model_case(work, "native", nodes, *io, {}, {"x": x}, want, extra=("--target_op_set", "2.13"), tol=1e-6)
    native = _net_op_types(work, "native")
    assert {"Erf", "ThresholdedRelu", "Identity"} <= native, native
    model_case(work, "legacy", nodes, *io, {}, {"x": x}, want)
    legacy = _net_op_types(work, "legacy")
    assert not {"Erf", "ThresholdedRelu", "Identity"} & legacy, legacy


def _gqa_ref(q, k, v, past_k, past_v, seqlens, n, kv):
    """com.microsoft.GroupQueryAttention (no rotary), written from its definition: per batch the cache is the past
    rows then the new ones; query row s sees the cache rows up to its own position."""
    b, s, _ = q.shape
    h = q.shape[2] // n
    pk, pv = past_k.astype(np.float64).copy(), past_v.astype(np.float64).copy()
    out = np.zeros((b, s, n * h))
    for bi in range(b):
        past = int(seqlens[bi]) + 1 - s
        pk[bi, :, past + s:] = pv[bi, :, past + s:] = 0
        for g in range(kv):
            pk[bi, g, past:past + s] = k[bi, :, g * h:(g + 1) * h]
            pv[bi, g, past:past + s] = v[bi, :, g * h:(g + 1) * h]
        for head in range(n):
            g = head // (n // kv)
            for si in range(s):
                keys = pk[bi, g, :past + si + 1]
                sc = keys @ q[bi, si, head * h:(head + 1) * h].astype(np.float64) / math.sqrt(h)
                p = np.exp(sc - sc.max())
                out[bi, si, head * h:(head + 1) * h] = (p / p.sum()) @ pv[bi, g, :past + si + 1]
    return out, pk, pv


def case_group_query_attention(work):
    """com.microsoft.GroupQueryAttention (4 query heads on 2 kv heads, two new tokens after a past of 3 and of 1,
    a kv cache of 6) as the native op with --target_op_set 2.13; refused without it."""
    b, s, n, kv, h, L = 2, 2, 4, 2, 4, 6
    q, k, v = f32(b, s, n * h), f32(b, s, kv * h), f32(b, s, kv * h)
    past_k, past_v = f32(b, kv, L, h), f32(b, kv, L, h)
    seqlens = np.array([4, 2], np.int32)   # totals 5 and 3: pasts 3 and 1
    out, pk, pv = _gqa_ref(q, k, v, past_k, past_v, seqlens, n, kv)
    node = N("GroupQueryAttention", ["q", "k", "v", "past_k", "past_v", "seqlens", "total"], ["o", "pres_k", "pres_v"],
             domain="com.microsoft", num_heads=n, kv_num_heads=kv)
    g = helper.make_graph([node], "g", [vi("q", [b, s, n * h]), vi("k", [b, s, kv * h]), vi("v", [b, s, kv * h]),
                                        vi("past_k", [b, kv, L, h]), vi("past_v", [b, kv, L, h]),
                                        vi("seqlens", [b], TensorProto.INT32)],
                          [vi("o", [b, s, n * h]), vi("pres_k", [b, kv, L, h]), vi("pres_v", [b, kv, L, h])],
                          [helper.make_tensor("total", TensorProto.INT32, [], [5])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 8
    path = f"{work}/gqa.onnx"
    import onnx
    onnx.save(m, path)
    feeds = [("q", q), ("k", k), ("v", v), ("past_k", past_k), ("past_v", past_v), ("seqlens", seqlens)]
    got = testlib.convert_and_run(TOOLS, path, feeds, f"{work}/gqa", ("--target_op_set", "2.13"))
    for name, ref in (("o", out), ("pres_k", pk), ("pres_v", pv)):
        testlib.check(got[name], ref.astype(np.float32), f"gqa: {name}", 1e-5)
    p = testlib.run([TOOLS.conv, "-i", path, "-o", f"{work}/gqa_legacy.cpp"], ok=False)
    assert p.returncode != 0 and "--target_op_set 2.13" in p.stdout + p.stderr, p.stdout + p.stderr
    # Inside a graph (as in export_gqa.py's decoder): ONNX's shape inference does not know the contrib op, the
    # loader gives its outputs their shapes (output [B, S, N*H], present = past) so the nodes after it convert.
    del m.graph.output[:]
    w = f32(n * h, 3)
    m.graph.initializer.append(helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.ravel()))
    m.graph.node.append(N("MatMul", ["o", "w"], ["ow"]))
    m.graph.node.append(N("Add", ["ow", "ow"], ["y"]))
    m.graph.node.append(N("Add", ["pres_k", "pres_v"], ["kv"]))
    m.graph.output.extend([vi("y", [b, s, 3]), vi("kv", [b, kv, L, h])])
    onnx.save(m, path)
    got = testlib.convert_and_run(TOOLS, path, feeds, f"{work}/gqa_inner", ("--target_op_set", "2.13"))
    testlib.check(got["y"], (2 * out @ w).astype(np.float32), "gqa inside a graph: y", 1e-5)
    testlib.check(got["kv"], (pk + pv).astype(np.float32), "gqa inside a graph: kv", 1e-5)


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    wanted = sys.argv[2:] or list(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        for c in wanted:
            os.makedirs(f"{tmp}/{c}")
            CASES[c](f"{tmp}/{c}")
    print("PASS")
