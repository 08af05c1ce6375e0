"""ONNX Runtime contrib ops (domain com.microsoft) with a native QNN op.

com.microsoft.GroupQueryAttention -> GroupQueryAttention (op set 2.13, --target_op_set 2.13): inputs in the
QNN order query, seqlens_k, total_sequence_length, key, value, past_key, past_value, cos_cache, sin_cache,
position_ids; outputs output, present_key, present_value; num_heads / kv_num_heads / do_rotary as UINT_32,
scale as FLOAT_32. The contrib op's extensions the native op lacks are refused (local_window_size, softcap,
smooth_softmax, rotary_interleaved, qk_output, attention_bias, head_sink, quantized kv caches), and past and
present must have the same length (a max-length kv cache), as ONNX Runtime's QNN EP requires. The present
inputs must form a prefix of the QNN order: the converter does not emit NULL tensors for gaps.
"""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar
from .registry import converter

_QNN_ORDER = (0, 5, 6, 1, 2, 3, 4, 7, 8, 9)   # ONNX input index of each QNN input


@converter("com.microsoft.GroupQueryAttention")
def group_query_attention(ctx, node, a):
    where = f"node '{node.name}' (com.microsoft.GroupQueryAttention)"
    if not ctx.has_op_set(2, 13):
        raise ConverterError(f"{where}: the native GroupQueryAttention is op set 2.13 (API 2.39); "
                             "convert with --target_op_set 2.13 for backends that run it")
    for attr, neutral in (("local_window_size", -1), ("softcap", 0.0), ("smooth_softmax", 0),
                          ("rotary_interleaved", 0), ("qk_output", 0)):
        if attr in a and a[attr] != neutral:
            raise ConverterError(f"{where}: {attr} = {a[attr]} has no equivalent in the QNN op")
    for attr in ("k_quant_type", "v_quant_type", "kv_cache_bit_width"):
        if attr in a and a[attr] not in (b"NONE", "NONE"):
            raise ConverterError(f"{where}: {attr} (quantized kv caches) has no equivalent in the QNN op")
    if "num_heads" not in a or "kv_num_heads" not in a:
        raise ConverterError(f"{where}: num_heads and kv_num_heads are required")
    present = lambda i: len(node.input) > i and bool(node.input[i])
    if any(present(i) for i in range(10, len(node.input))):
        raise ConverterError(f"{where}: attention_bias, head_sink, k_scale and v_scale are not supported")
    if len(node.output) < 3 or not node.output[1] or not node.output[2]:
        raise ConverterError(f"{where}: present_key and present_value outputs are required")
    if len(node.output) > 3 and node.output[3]:
        raise ConverterError(f"{where}: the output_qk output is not supported")
    have = [present(i) for i in _QNN_ORDER]
    n_in = max(k + 1 for k, h in enumerate(have) if h)
    if not all(have[:n_in]):
        raise ConverterError(f"{where}: inputs {[node.input[i] if present(i) else '' for i in _QNN_ORDER[:n_in]]} "
                             "leave a gap in the QNN input order (NULL tensors are not emitted)")
    n, kv = int(a["num_heads"]), int(a["kv_num_heads"])
    b, s, width = ctx.shape(node.input[0])
    head = width // (n if present(1) else n + 2 * kv)
    if present(3):
        cache = ctx.shape(node.input[3])
    elif node.output[1] in ctx.m.shapes:
        cache = ctx.shape(node.output[1])
    else:
        raise ConverterError(f"{where}: without past_key the present_key shape must be in the model")
    if len(cache) != 4 or cache[0] != b or cache[1] != kv or cache[3] != head:
        raise ConverterError(f"{where}: past/present key {cache} is not [batch, kv_num_heads, max_seq, head_size]")
    for out in node.output[1:3]:
        if out in ctx.m.shapes and list(ctx.m.shapes[out]) != list(cache):
            raise ConverterError(f"{where}: present {ctx.m.shapes[out]} differs from past {cache}: the QNN op "
                                 "keeps one max-length kv cache")
    ctx.m.shapes[node.output[0]] = [b, s, n * head]
    ctx.m.shapes[node.output[1]] = ctx.m.shapes[node.output[2]] = list(cache)
    inputs = [ctx.get(node.input[i], "plain") for i in _QNN_ORDER[:n_in]]
    params = [scalar("num_heads", np.uint32, n), scalar("kv_num_heads", np.uint32, kv)]
    if "do_rotary" in a:
        params.append(scalar("do_rotary", np.uint32, int(a["do_rotary"])))
    if "scale" in a:
        params.append(scalar("scale", np.float32, float(a["scale"])))
    dt = ctx.dtype(node.input[0])
    outs = [ctx.out(o, "plain", dtype=dt) for o in node.output[:3]]
    ctx.g.add_op(node.name or node.output[0], "GroupQueryAttention", inputs, outs, params)
