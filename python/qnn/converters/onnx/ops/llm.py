"""ONNX opset 23's decoder ops with a native QNN op (also what fusions/ rewrites torch / Hugging Face exports to).

RMSNormalization -> RmsNorm: inputs x, gamma (the scale broadcast to the normalized dims), a zero beta (as
ExecuTorch's Qualcomm backend passes it); FLOAT_32 epsilon, UINT_32 axes = axis..rank-1. A non-constant
scale is refused.
RotaryEmbedding -> RotaryEmbedding: X [batch, num_heads, seq, head_size] (rank 4; the rank-3 form with the
num_heads attribute is refused), cos_cache / sin_cache [max_position, rotary_dim/2] with position_ids or
[batch, seq, rotary_dim/2] without, the optional position_ids; BOOL_8 interleaved, UINT_32
rotary_embedding_dim (0 resolved to head_size)."""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from .registry import converter


@converter("RMSNormalization")
def rms_normalization(ctx, node, a):
    where = f"node '{node.name}' (RMSNormalization)"
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    axis = a.get("axis", -1)
    if not -rank <= axis < rank:
        raise ConverterError(f"{where}: axis {axis} is out of range for rank {rank}")
    axis %= rank
    if ctx.dtype(node.input[0]) != np.float32:
        raise ConverterError(f"{where}: only float tensors are supported")
    if len(node.input) < 2 or not ctx.is_const(node.input[1]):
        raise ConverterError(f"{where}: the scale must be a constant (QNN RmsNorm takes gamma as a static tensor)")
    norm_shape = shp[axis:]
    try:
        g = np.broadcast_to(ctx.const_value(node.input[1]).astype(np.float32), norm_shape)
    except ValueError:
        raise ConverterError(f"{where}: scale {list(ctx.const_value(node.input[1]).shape)} does not broadcast "
                             f"to the normalized dims {norm_shape}")
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "RmsNorm",
                 [x, ctx.new_const(node.input[1] + "_gamma", g),
                  ctx.new_const(node.output[0] + "_beta", np.zeros(norm_shape, np.float32))], [y],
                 [scalar("epsilon", np.float32, a.get("epsilon", 1e-5)),
                  tparam("axes", np.uint32, list(range(axis, rank)))])


@converter("RotaryEmbedding")
def rotary_embedding(ctx, node, a):
    where = f"node '{node.name}' (RotaryEmbedding)"
    shp = ctx.shape(node.input[0])
    if len(shp) != 4:
        raise ConverterError(f"{where}: X must be [batch, num_heads, seq, head_size] (the rank-3 form is not supported)")
    b, _, s, hs = shp
    dim = int(a.get("rotary_embedding_dim", 0)) or hs
    interleaved = int(a.get("interleaved", 0))
    if dim > hs or dim % 2:
        raise ConverterError(f"{where}: rotary_embedding_dim {dim} must be even and at most head_size {hs}")
    has_pos = len(node.input) > 3 and bool(node.input[3])
    cos = ctx.shape(node.input[1])
    want = "[max_position, rotary_dim/2]" if has_pos else "[batch, seq, rotary_dim/2]"
    if (has_pos and (len(cos) != 2 or cos[1] != dim // 2)) or \
            (not has_pos and (len(cos) != 3 or cos[0] not in (1, b) or cos[1] != s or cos[2] != dim // 2)):
        raise ConverterError(f"{where}: cos_cache {cos} is not {want}")
    if ctx.shape(node.input[2]) != cos:
        raise ConverterError(f"{where}: sin_cache {ctx.shape(node.input[2])} differs from cos_cache {cos}")
    ins = [ctx.get(node.input[k], "plain") for k in range(3)]
    if has_pos:
        if ctx.shape(node.input[3]) != [b, s]:
            raise ConverterError(f"{where}: position_ids {ctx.shape(node.input[3])} is not [batch, seq] = {[b, s]}")
        ins.append(ctx.get(node.input[3], "plain"))
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "RotaryEmbedding", ins, [y],
                 [scalar("interleaved", np.bool_, bool(interleaved)),
                  scalar("rotary_embedding_dim", np.uint32, dim)])
