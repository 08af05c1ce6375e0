"""Pattern fusions of decoder (LLM) exports, one module per fusion. Each rewrites the ONNX node list into
the standard ONNX op of the same meaning (opset 23's RMSNormalization, RotaryEmbedding), which the op
converters map to the native QNN op; a pattern that does not match exactly is left as it is."""


def run_all(model):
    from . import rmsnorm, rotary
    from ..loader import _prune
    hit = rmsnorm.fuse(model) + rotary.fuse(model)
    if hit:   # the rotary tables' Gathers / the patterns' constants may now feed nothing
        model.nodes = _prune(model.nodes, model.outputs)
