#!/usr/bin/python3
"""Writes the ONNX models the ONNX Runtime QNN EP harness runs (seeded, small).

  make_models.py OUT_DIR

float_cnn.onnx      Conv 3x3 -> Relu -> Add (residual 1x1 Conv) -> GlobalAveragePool -> Flatten -> Gemm -> Softmax
float_attention.onnx MatMul -> Transpose -> MatMul -> Softmax -> MatMul, LayerNormalization: the products
                     transformers are made of
qdq_u8_conv.onnx     the float CNN's first layers as a QDQ model, uint8 activations and weights
qdq_u16_conv.onnx    the same with uint16 activations (com.microsoft Q/DQ) and uint8 weights
lora_ctx.onnx        an EP context model over base.bin, the context binary qnn-context-binary-generator
                     makes of tests/tools/lora's graph "lora" (y = x*W + (x*lora_A)*lora_B), with
lora_base_ref.onnx / lora_one_ref.onnx  that graph as plain ONNX with the base weights and with
                     adapter "one" (the values tests/tools/lora/make_lora_data.py writes), the references
custom_softplus.onnx one ScaledSoftplus node (beta 2) in the custom domain openqnn.examples, for
                     the op_packages case (oppackages/ExampleElementwise); ONNX Runtime's CPU provider
                     has no kernel for it (the harness computes the reference)
Each model's inputs are drawn by the harness; the models have one input named "x".
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(20261128)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def save(graph, path, opset=17):
    # com.microsoft Q/DQ take 16-bit types at any opset (ONNX's own only from opset 21, newer than
    # Debian's onnx package); ONNX Runtime's quantizer writes them so for 16-bit activations.
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset),
                                                     helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def float_cnn(path):
    w1 = rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32)
    b1 = rng.normal(0, 0.1, 8).astype(np.float32)
    w2 = rng.normal(0, 0.3, (8, 3, 1, 1)).astype(np.float32)
    fc = rng.normal(0, 0.3, (8, 10)).astype(np.float32)
    fcb = rng.normal(0, 0.1, 10).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["x", "w2"], ["c2"]),
        helper.make_node("Add", ["r1", "c2"], ["s"]),
        helper.make_node("GlobalAveragePool", ["s"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "fc", "fcb"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["y"], axis=1),
    ]
    g = helper.make_graph(nodes, "float_cnn",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
                          [init("w1", w1), init("b1", b1), init("w2", w2), init("fc", fc), init("fcb", fcb)])
    save(g, path)


def float_attention(path):
    seq, width = 16, 32
    wq, wk, wv = (rng.normal(0, 0.2, (width, width)).astype(np.float32) for _ in range(3))
    gamma = rng.normal(1, 0.1, width).astype(np.float32)
    beta = rng.normal(0, 0.1, width).astype(np.float32)
    nodes = [
        helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["n"], axis=-1, epsilon=1e-5),
        helper.make_node("MatMul", ["n", "wq"], ["q"]),
        helper.make_node("MatMul", ["n", "wk"], ["k"]),
        helper.make_node("MatMul", ["n", "wv"], ["v"]),
        helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["q", "kt"], ["scores"]),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"]),
        helper.make_node("Softmax", ["scaled"], ["attn"], axis=-1),
        helper.make_node("MatMul", ["attn", "v"], ["ctx"]),
        helper.make_node("Add", ["ctx", "x"], ["y"]),
    ]
    g = helper.make_graph(nodes, "float_attention",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, seq, width])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, seq, width])],
                          [init("wq", wq), init("wk", wk), init("wv", wv), init("gamma", gamma),
                           init("beta", beta), init("scale", np.array(1 / np.sqrt(width), np.float32))])
    save(g, path)


def qdq_conv(path, act_type):
    """x -> Q -> DQ -> Conv(DQ(w), bias) -> Relu -> Q -> DQ -> y, as ONNX Runtime's quantizer writes QDQ
    (16-bit activations through the com.microsoft Q/DQ)."""
    domain = "" if act_type == TensorProto.UINT8 else "com.microsoft"
    act_np = np.uint8 if act_type == TensorProto.UINT8 else np.uint16
    act_max = float(np.iinfo(act_np).max)
    w = rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32)
    w_scale = np.float32(np.abs(w).max() / 127.0)
    w_q = np.clip(np.round(w / w_scale) + 128, 0, 255).astype(np.uint8)
    x_scale = np.float32(2.0 / act_max)       # inputs in [-1, 1]
    x_zero = act_np(round(act_max / 2))
    bias = rng.normal(0, 0.1, 8).astype(np.float32)
    bias_scale = x_scale * w_scale
    bias_q = np.round(bias / bias_scale).astype(np.int32)
    y_scale = np.float32(4.0 / act_max)       # Relu outputs in [0, 4]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zero"], ["xq"], domain=domain),
        helper.make_node("DequantizeLinear", ["xq", "x_scale", "x_zero"], ["xd"], domain=domain),
        helper.make_node("DequantizeLinear", ["wq", "w_scale", "w_zero"], ["wd"]),
        helper.make_node("DequantizeLinear", ["bq", "b_scale", "b_zero"], ["bd"]),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "y_scale", "y_zero"], ["yq"], domain=domain),
        helper.make_node("DequantizeLinear", ["yq", "y_scale", "y_zero"], ["y"], domain=domain),
    ]
    inits = [init("x_scale", x_scale), init("x_zero", np.array(x_zero, act_np)),
             init("wq", w_q), init("w_scale", w_scale), init("w_zero", np.array(128, np.uint8)),
             init("bq", bias_q), init("b_scale", np.float32(bias_scale)), init("b_zero", np.array(0, np.int32)),
             init("y_scale", y_scale), init("y_zero", np.array(0, act_np))]
    g = helper.make_graph(nodes, os.path.splitext(os.path.basename(path))[0],
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 16, 16])], inits)
    save(g, path)


def lora_models(out):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "lora"))
    from make_lora_data import values  # the adapters' values, by seed

    def reference(path, seeds):
        w, a, b = (np.array(values(n, s), np.float32).reshape(shape)
                   for (n, shape), s in zip(((16, (4, 4)), (8, (4, 2)), (8, (2, 4))), seeds))
        nodes = [helper.make_node("MatMul", ["x", "W"], ["xw"]), helper.make_node("MatMul", ["x", "A"], ["xa"]),
                 helper.make_node("MatMul", ["xa", "B"], ["xab"]), helper.make_node("Add", ["xw", "xab"], ["y"])]
        g = helper.make_graph(nodes, "lora", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
                              [init("W", w), init("A", a), init("B", b)])
        save(g, path)

    reference(os.path.join(out, "lora_base_ref.onnx"), (1, 2, 3))
    reference(os.path.join(out, "lora_one_ref.onnx"), (1, 4, 5))
    # The EPContext node as the EP writes it: named after the QNN graph, binary beside the model.
    node = helper.make_node("EPContext", ["x"], ["y"], name="lora", domain="com.microsoft", embed_mode=0,
                            ep_cache_context="base.bin", main_context=1, source="QNN", partition_name="lora")
    g = helper.make_graph([node], "lora_ctx", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    save(g, os.path.join(out, "lora_ctx.onnx"))


def custom_softplus(path):
    node = helper.make_node("ScaledSoftplus", ["x"], ["y"], domain="openqnn.examples", beta=2.0)
    g = helper.make_graph([node], "custom_softplus",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 8])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                                 helper.make_opsetid("openqnn.examples", 1)])
    model.ir_version = 8
    onnx.save(model, path)  # no schema for the custom op: the checker would refuse it


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    float_cnn(os.path.join(out, "float_cnn.onnx"))
    float_attention(os.path.join(out, "float_attention.onnx"))
    qdq_conv(os.path.join(out, "qdq_u8_conv.onnx"), TensorProto.UINT8)
    qdq_conv(os.path.join(out, "qdq_u16_conv.onnx"), TensorProto.UINT16)
    lora_models(out)
    custom_softplus(os.path.join(out, "custom_softplus.onnx"))


if __name__ == "__main__":
    main()
