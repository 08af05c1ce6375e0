#!/usr/bin/python3
"""The benchmark models as fp32 ONNX files (NCHW), every weight drawn from a fixed seed, so each run
writes the same files:
  mobilenet_v2.onnx, resnet18.onnx        torchvision architectures (needs python3-torch/torchvision),
                                          torch seed 0, BatchNorm statistics moved away from identity
  mobilenet_v2_helper.onnx                the same architectures built op by op with BatchNorm folded
  resnet18_helper.onnx                    into the conv biases (no torch needed; seeds 1 and 2)
  transformer_l4_h256_s128.onnx           4 post-LayerNorm encoder layers, hidden 256, 4 heads,
  transformer_l4_h256_s128_ln17.onnx      sequence 128, FFN 1024, GELU (erf); LayerNorm as primitive
                                          ops (opset 13) or LayerNormalization (opset 17); seed 3
  matmul_1024.onnx                        A[1024,1024] x a constant B[1024,1024] (seed 4)
usage: make_models.py OUTDIR [NAME...]     (default: every model above; NAME without .onnx; any other
       torchvision.models architecture name is exported the way mobilenet_v2 and resnet18 are)
As a module: build(name) returns the onnx.ModelProto, write(model, path) checks, infers shapes, saves."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, checker, helper, numpy_helper

F32 = np.float32


class Net:
    """Collects nodes and initializers; every value name is unique."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)
        self.nodes, self.weights, self.count = [], [], 0

    def fresh(self, stem):
        self.count += 1
        return "%s%d" % (stem, self.count)

    def weight(self, array, stem="w"):
        name = self.fresh(stem)
        self.weights.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, out=None, **attrs):
        out = out or self.fresh(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name="n_" + out, **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, groups=1):
        # He-normal weights; a small bias stands for a folded BatchNorm.
        w = self.rng.normal(0.0, np.sqrt(2.0 / (cin // groups * k * k)), (cout, cin // groups, k, k)).astype(F32)
        b = self.rng.normal(0.0, 0.01, cout).astype(F32)
        return self.node("Conv", [x, self.weight(w), self.weight(b, "b")], kernel_shape=[k, k],
                         strides=[stride, stride], pads=[k // 2] * 4, group=groups)

    def clip6(self, x):
        return self.node("Clip", [x, self.weight(F32(0), "lo"), self.weight(F32(6), "hi")])

    def classifier(self, x, width, classes=1000):
        x = self.node("Flatten", [self.node("GlobalAveragePool", [x])], axis=1)
        w = self.rng.normal(0.0, np.sqrt(1.0 / width), (classes, width)).astype(F32)
        b = self.rng.normal(0.0, 0.01, classes).astype(F32)
        return self.node("Gemm", [x, self.weight(w), self.weight(b, "b")], out="output", transB=1)

    def finish(self, name, in_shape, out_shape, inp="input", opset=13):
        g = helper.make_graph(self.nodes, name, [helper.make_tensor_value_info(inp, TensorProto.FLOAT, in_shape)],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, out_shape)], self.weights)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="openqnn-bench")
        m.ir_version = 8
        return m


def mobilenet_v2_helper():
    n = Net(1)
    y = n.clip6(n.conv("input", 3, 32, 3, 2))
    cin = 32
    # (expansion, channels, repeats, first stride) per stage, as in torchvision's MobileNetV2
    for expand, cout, repeats, first in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for r in range(repeats):
            stride = first if r == 0 else 1
            mid = cin * expand
            h = n.clip6(n.conv(y, cin, mid, 1)) if expand != 1 else y
            h = n.clip6(n.conv(h, mid, mid, 3, stride, groups=mid))
            h = n.conv(h, mid, cout, 1)
            y = n.node("Add", [y, h]) if stride == 1 and cin == cout else h
            cin = cout
    y = n.clip6(n.conv(y, cin, 1280, 1))
    n.classifier(y, 1280)
    return n.finish("mobilenet_v2_helper", [1, 3, 224, 224], [1, 1000])


def resnet18_helper():
    n = Net(2)
    y = n.node("Relu", [n.conv("input", 3, 64, 7, 2)])
    y = n.node("MaxPool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for cout, first in [(64, 1), (128, 2), (256, 2), (512, 2)]:
        for r in range(2):   # two basic blocks per stage
            stride = first if r == 0 else 1
            h = n.conv(n.node("Relu", [n.conv(y, cin, cout, 3, stride)]), cout, cout, 3)
            skip = y if stride == 1 and cin == cout else n.conv(y, cin, cout, 1, stride)
            y = n.node("Relu", [n.node("Add", [h, skip])])
            cin = cout
    n.classifier(y, 512)
    return n.finish("resnet18_helper", [1, 3, 224, 224], [1, 1000])


def transformer(layers=4, hidden=256, heads=4, seq=128, ffn=1024, fused_ln=False):
    n = Net(3)
    head = hidden // heads

    def dense(x, fin, fout):
        w = n.rng.normal(0.0, np.sqrt(1.0 / fin), (fin, fout)).astype(F32)
        b = n.rng.normal(0.0, 0.01, fout).astype(F32)
        return n.node("Add", [n.node("MatMul", [x, n.weight(w)]), n.weight(b, "b")])

    def layer_norm(x, out=None):
        gamma = (1.0 + n.rng.normal(0.0, 0.1, hidden)).astype(F32)
        beta = n.rng.normal(0.0, 0.1, hidden).astype(F32)
        if fused_ln:
            return n.node("LayerNormalization", [x, n.weight(gamma, "g"), n.weight(beta, "b")], out=out,
                          axis=-1, epsilon=1e-5)
        centred = n.node("Sub", [x, n.node("ReduceMean", [x], axes=[-1], keepdims=1)])
        var = n.node("ReduceMean", [n.node("Mul", [centred, centred])], axes=[-1], keepdims=1)
        std = n.node("Sqrt", [n.node("Add", [var, n.weight(F32(1e-5), "eps")])])
        scaled = n.node("Mul", [n.node("Div", [centred, std]), n.weight(gamma, "g")])
        return n.node("Add", [scaled, n.weight(beta, "b")], out=out)

    def gelu(x):   # x/2 * (1 + erf(x / sqrt 2))
        e = n.node("Erf", [n.node("Div", [x, n.weight(F32(np.sqrt(2.0)), "r2")])])
        return n.node("Mul", [n.node("Mul", [x, n.node("Add", [e, n.weight(F32(1), "one")])]),
                              n.weight(F32(0.5), "half")])

    split = n.weight(np.array([1, seq, heads, head], np.int64), "split")
    merge = n.weight(np.array([1, seq, hidden], np.int64), "merge")
    scale = n.weight(F32(1.0 / np.sqrt(head)), "scale")

    def heads_of(x, perm):
        return n.node("Transpose", [n.node("Reshape", [dense(x, hidden, hidden), split])], perm=perm)

    x = "input"
    for i in range(layers):
        q = heads_of(x, [0, 2, 1, 3])            # [1, heads, seq, head]
        kt = heads_of(x, [0, 2, 3, 1])           # [1, heads, head, seq]
        v = heads_of(x, [0, 2, 1, 3])
        probs = n.node("Softmax", [n.node("Mul", [n.node("MatMul", [q, kt]), scale])], axis=-1)
        ctx = n.node("Transpose", [n.node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        ctx = n.node("Reshape", [ctx, merge])
        x = layer_norm(n.node("Add", [x, dense(ctx, hidden, hidden)]))
        f = dense(gelu(dense(x, hidden, ffn)), ffn, hidden)
        x = layer_norm(n.node("Add", [x, f]), out="output" if i == layers - 1 else None)
    name = "transformer_l%d_h%d_s%d%s" % (layers, hidden, seq, "_ln17" if fused_ln else "")
    return n.finish(name, [1, seq, hidden], [1, seq, hidden], opset=17 if fused_ln else 13)


def matmul(size=1024):
    n = Net(4)
    b = n.rng.normal(0.0, 1.0 / np.sqrt(size), (size, size)).astype(F32)
    n.node("MatMul", ["A", n.weight(b, "B")], out="output")
    return n.finish("matmul_%d" % size, [size, size], [size, size], inp="A")


def torchvision_model(arch):
    import torch
    import torchvision
    torch.manual_seed(0)
    net = getattr(torchvision.models, arch)(weights=None).eval()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):   # folded weights then differ from the raw conv weights
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.1, 0.1)
    import io
    buf = io.BytesIO()
    torch.onnx.export(net, torch.randn(1, 3, 224, 224), buf, opset_version=13, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    return onnx.load_from_string(buf.getvalue())


BUILDERS = {
    "mobilenet_v2": lambda: torchvision_model("mobilenet_v2"),
    "resnet18": lambda: torchvision_model("resnet18"),
    "mobilenet_v2_helper": mobilenet_v2_helper,
    "resnet18_helper": resnet18_helper,
    "transformer_l4_h256_s128": transformer,
    "transformer_l4_h256_s128_ln17": lambda: transformer(fused_ln=True),
    "matmul_1024": matmul,
}


def build(name):
    if name in BUILDERS:
        return BUILDERS[name]()
    return torchvision_model(name)


def write(model, path):
    checker.check_model(model)
    model = onnx.shape_inference.infer_shapes(model)
    checker.check_model(model)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    onnx.save(model, path)
    print("%s: %.1f MB, ops %s" % (path, os.path.getsize(path) / 1e6, " ".join(sorted({n.op_type for n in model.graph.node}))))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    names = argv[2:] or list(BUILDERS)
    failed = 0
    for name in names:
        try:
            model = build(name)
        except ImportError as e:   # torchvision models without torch: the others are still written
            print("%s skipped: %s" % (name, e))
            failed += 1
            continue
        except AttributeError:
            sys.exit("unknown model %s (known: %s, or a torchvision.models name)" % (name, " ".join(BUILDERS)))
        write(model, os.path.join(argv[1], name + ".onnx"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
