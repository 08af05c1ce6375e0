"""Cosine similarity of quantized logits to the float model's, shared by the quantization and HTP model tests."""
import sys

import numpy as np


def cosine_report(got, want, label, threshold, what="cosine to float"):
    """Prints min/mean cosine per held-out input (plus the input-dependent part) and exits FAIL below threshold."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    cos = np.array([g @ w / (np.linalg.norm(g) * np.linalg.norm(w)) for g, w in zip(got, want)])
    # the logits of random-weight models are mostly an input-independent vector; also report the cosine
    # of the input-dependent parts (each side minus its own mean over the held-out set)
    gc, wc = got - got.mean(axis=0), want - want.mean(axis=0)
    ccos = np.array([g @ w / max(np.linalg.norm(g) * np.linalg.norm(w), 1e-30) for g, w in zip(gc, wc)])
    spread = np.linalg.norm(wc, axis=1).mean() / np.linalg.norm(want.mean(axis=0))
    top1 = np.mean([np.argmax(g) == np.argmax(w) for g, w in zip(got, want)])
    print(f"{label}: {what} over {len(got)} held-out inputs: min {cos.min():.6f} mean {cos.mean():.6f}"
          f" (threshold {threshold}); input-dependent part (|float logit spread| / |mean logits| = {spread:.2g}):"
          f" cosine mean {ccos.mean():.4f} min {ccos.min():.4f}; top-1 agreement {top1:.2f}")
    if not cos.min() >= threshold:
        sys.exit(f"FAIL: {label}: cosine {cos.min():.6f} < {threshold}")
