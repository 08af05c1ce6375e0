"""ONNX op converters, one module per op family; load_all() imports them all (registration in registry.py)."""


def load_all():
    from . import conv, elementwise, shape, nn, decomposed, indexing, quantized, rnn, selection, signal, text, control, contrib, llm  # noqa: F401  (registration side effects)
    from .registry import CONVERTERS
    return CONVERTERS
