"""TfIdfVectorizer on integer tokens as comparisons against its static n-gram pool (ONNX nodes through
ops/expand.py).

For each n-gram length n in [min_gram_length, max_gram_length] and each skip s (0..max_skip_count; 1-grams
only once), the n token columns X[:, j(s+1) : j(s+1) + L] are compared with column j of every pooled
n-gram of that length at once ([B, L, G] equalities, ANDed over j), and the matches summed over the
positions: the TF counts in pool order. IDF keeps (count > 0) * weight, TFIDF count * weight; a constant
0/1 matrix then places each pooled n-gram at its ngram_indexes output slot.
"""
import numpy as np

from qnn.errors import ConverterError
from .registry import converter
from .expand import Expansion


@converter("TfIdfVectorizer")
def tfidf_vectorizer(ctx, node, a):
    if "pool_strings" in a or "pool_int64s" not in a:
        raise ConverterError(f"node '{node.name}' (TfIdfVectorizer): only integer pools (pool_int64s) are supported")
    mode = a.get("mode", b"TF")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if mode not in ("TF", "IDF", "TFIDF"):
        raise ConverterError(f"node '{node.name}' (TfIdfVectorizer): mode '{mode}' is not supported")
    pool = [int(v) for v in a["pool_int64s"]]
    starts = [int(v) for v in a["ngram_counts"]]
    indexes = [int(v) for v in a["ngram_indexes"]]
    lo, hi, skips = int(a["min_gram_length"]), int(a["max_gram_length"]), int(a["max_skip_count"])
    weights = np.asarray(a.get("weights", [1.0] * len(indexes)), np.float32)
    shp = ctx.shape(node.input[0])
    if len(shp) not in (1, 2):
        raise ConverterError(f"node '{node.name}' (TfIdfVectorizer): the input must be [C] or [B, C], got {shp}")
    b, c = ([1] + shp)[-2:]
    out_dim = ctx.shape(node.output[0])[-1]
    e = Expansion(ctx, node)
    x = e.cast(node.input[0], np.int32)
    if len(shp) == 1:
        x = e.add("Reshape", [x, e.const(np.array([1, c], np.int64), np.int64)], [1, c], np.int32)
    i64 = lambda v: e.const(np.array(v, np.int64), np.int64)
    counts = []   # [B, G_n] per n-gram length, in pool order
    ranges = starts + [len(pool)]
    placed = []   # pool-order position of every n-gram counted
    position = 0
    for n in range(1, len(starts) + 1):
        begin, end = ranges[n - 1], ranges[n]
        g = (end - begin) // n
        grams = np.array(pool[begin:end], np.int32).reshape(g, n) if g else np.zeros((0, n), np.int32)
        ids = list(range(position, position + g))
        position += g
        if g == 0 or n < lo or n > hi:
            continue
        total = None
        for s in range(skips + 1 if n > 1 else 1):
            span = (n - 1) * (s + 1)
            length = c - span
            if length <= 0:
                continue
            match = None
            for j in range(n):
                cols = e.add("Slice", [x, i64([j * (s + 1)]), i64([j * (s + 1) + length]), i64([1])], [b, length], np.int32)
                cols = e.add("Unsqueeze", [cols, i64([2])], [b, length, 1], np.int32)
                eq = e.add("Equal", [cols, e.const(grams[:, j].reshape(1, 1, g), np.int32)], [b, length, g], np.bool_)
                match = eq if match is None else e.add("And", [match, eq], [b, length, g], np.bool_)
            hits = e.add("ReduceSum", [e.cast(match, np.float32), i64([1])], [b, g], np.float32, keepdims=0)
            total = hits if total is None else e.add("Add", [total, hits], [b, g], np.float32)
        if total is not None:
            counts.append(total)
            placed += ids
    if not counts:
        raise ConverterError(f"node '{node.name}' (TfIdfVectorizer): no pooled n-gram fits the input length")
    tf = counts[0] if len(counts) == 1 else e.add("Concat", counts, [b, len(placed)], np.float32, axis=1)
    w = weights[placed]
    if mode == "IDF":
        present = e.cast(e.add("Greater", [tf, e.const(np.zeros(1, np.float32))], [b, len(placed)], np.bool_), np.float32)
        tf = e.add("Mul", [present, e.const(w.reshape(1, -1))], [b, len(placed)], np.float32)
    elif mode == "TFIDF":
        tf = e.add("Mul", [tf, e.const(w.reshape(1, -1))], [b, len(placed)], np.float32)
    place = np.zeros((len(placed), out_dim), np.float32)
    for row, p in enumerate(placed):
        if indexes[p] >= out_dim:
            raise ConverterError(f"node '{node.name}' (TfIdfVectorizer): ngram_indexes {indexes[p]} is outside the "
                                 f"output's {out_dim} columns")
        place[row, indexes[p]] = 1.0
    out_shape = ctx.shape(node.output[0])
    if len(shp) == 1:
        y = e.add("MatMul", [tf, e.const(place)], [1, out_dim], np.float32)
        e.add("Reshape", [y, i64([out_dim])], out_shape, np.float32, out=node.output[0])
    else:
        e.add("MatMul", [tf, e.const(place)], out_shape, np.float32, out=node.output[0])
    e.run()
