"""ONNX op converters. Each module registers functions f(ctx, node, a) with @converter('OpType', ...)."""
CONVERTERS = {}


def converter(*op_types):
    def deco(fn):
        for t in op_types:
            CONVERTERS[t] = fn
        return fn
    return deco


def load_all():
    from . import conv, elementwise, shape, nn, decomposed, indexing, quantized, rnn, selection, signal, text, control, contrib, llm  # noqa: F401  (registration side effects)
    return CONVERTERS
