"""The verifiers of the accuracy debugger: each compares a golden tensor with a target tensor and
returns (passed, value, description). Names and hyperparameters as the vendor's --default_verifier
takes them, e.g. "rtolatol,rtolmargin,0.01,atolmargin,0.01" or "sqnr,sqnrthreshold,20"."""
import numpy as np

from .errors import DebuggerError


def _f64(a):
    return np.asarray(a, dtype=np.float64).reshape(-1)


class Verifier:
    name = ""
    params = {}          # hyperparameter -> default
    higher_is_better = False

    def __init__(self, **kw):
        self.p = dict(self.params)
        for k, v in kw.items():
            if k not in self.p:
                raise DebuggerError(f"verifier {self.name}: unknown parameter '{k}' "
                                    f"(it takes {', '.join(self.p) or 'none'})")
            self.p[k] = type(self.p[k])(v) if not isinstance(self.p[k], bool) else str(v).lower() in ("1", "true")

    def metric(self, golden, target):
        raise NotImplementedError

    def passes(self, value):
        raise NotImplementedError

    def verify(self, golden, target):
        g, t = _f64(golden), _f64(target)
        if g.size != t.size:
            raise DebuggerError(f"{self.name}: golden has {g.size} elements, target {t.size}")
        value = float(self.metric(g, t))
        return bool(self.passes(value)), value


class RtolAtol(Verifier):
    """Share of elements outside atol + rtol*|golden| (percent); passes at or below the margin."""
    name, params = "RtolAtol", {"rtolmargin": 0.01, "atolmargin": 0.01, "passmargin": 0.0}

    def metric(self, g, t):
        bad = np.abs(t - g) > self.p["atolmargin"] + self.p["rtolmargin"] * np.abs(g)
        return 100.0 * bad.mean() if g.size else 0.0

    def passes(self, v):
        return v <= self.p["passmargin"]


class AdjustedRtolAtol(RtolAtol):
    """RtolAtol with the tolerances widened by one quantization step of the golden range at the
    target's bit width (what a correct quantized layer can differ by)."""
    name = "AdjustedRtolAtol"
    params = {"rtolmargin": 0.01, "atolmargin": 0.01, "passmargin": 0.0, "bitwidth": 8}

    def metric(self, g, t):
        step = (g.max() - g.min()) / (2 ** self.p["bitwidth"] - 1) if g.size else 0.0
        bad = np.abs(t - g) > self.p["atolmargin"] + step + self.p["rtolmargin"] * np.abs(g)
        return 100.0 * bad.mean() if g.size else 0.0


class TopK(Verifier):
    """Share (percent) of the golden top-k indices found in the target's top-k; passes at 100 with
    ordered=False, or when the k indices agree in order with ordered=True."""
    name, params, higher_is_better = "TopK", {"k": 1, "ordered": False}, True

    def metric(self, g, t):
        k = max(1, min(int(self.p["k"]), g.size))
        gi, ti = np.argsort(-g, kind="stable")[:k], np.argsort(-t, kind="stable")[:k]
        if self.p["ordered"]:
            return 100.0 * float(np.mean(gi == ti))
        return 100.0 * len(set(gi.tolist()) & set(ti.tolist())) / k

    def passes(self, v):
        return v >= 100.0


class MeanIOU(Verifier):
    """Mean intersection over union of class maps: argmax over the last axis (or thresholded at 0.5
    for one channel) -- the segmentation verifier; passes at or above the threshold."""
    name, params, higher_is_better = "MeanIOU", {"threshold": 0.5}, True

    def verify(self, golden, target):
        g, t = np.asarray(golden, np.float64), np.asarray(target, np.float64)
        if g.size != t.size:
            raise DebuggerError(f"{self.name}: golden has {g.size} elements, target {t.size}")
        t = t.reshape(g.shape)
        if g.ndim >= 2 and g.shape[-1] > 1:
            gl, tl = g.argmax(-1).reshape(-1), t.argmax(-1).reshape(-1)
        else:
            gl, tl = (g.reshape(-1) > 0.5).astype(int), (t.reshape(-1) > 0.5).astype(int)
        ious = []
        for c in np.union1d(gl, tl):
            inter, union = np.sum((gl == c) & (tl == c)), np.sum((gl == c) | (tl == c))
            ious.append(inter / union)
        v = float(np.mean(ious)) if ious else 1.0
        return v >= self.p["threshold"], v


class L1Error(Verifier):
    """Mean absolute error over the mean absolute golden value (relative L1); passes at or below."""
    name, params = "L1Error", {"threshold": 0.1}

    def metric(self, g, t):
        scale = np.mean(np.abs(g))
        return np.mean(np.abs(t - g)) / scale if scale > 0 else np.mean(np.abs(t - g))

    def passes(self, v):
        return v <= self.p["threshold"]


class CosineSimilarity(Verifier):
    name, params, higher_is_better = "CosineSimilarity", {"threshold": 0.9}, True

    def metric(self, g, t):
        ng, nt = np.linalg.norm(g), np.linalg.norm(t)
        if ng == 0 and nt == 0:
            return 1.0
        if ng == 0 or nt == 0:
            return 0.0
        return float(np.dot(g, t) / (ng * nt))

    def passes(self, v):
        return v >= self.p["threshold"]


class MSE(Verifier):
    name, params = "MSE", {"threshold": 0.01}

    def metric(self, g, t):
        return np.mean((t - g) ** 2) if g.size else 0.0

    def passes(self, v):
        return v <= self.p["threshold"]


class MAE(Verifier):
    name, params = "MAE", {"threshold": 0.05}

    def metric(self, g, t):
        return np.mean(np.abs(t - g)) if g.size else 0.0

    def passes(self, v):
        return v <= self.p["threshold"]


class SQNR(Verifier):
    """Signal to quantization-noise ratio in dB: 10 log10(sum g^2 / sum (g - t)^2); passes at or above
    the threshold (an exact match is reported as 200 dB)."""
    name, params, higher_is_better = "SQNR", {"sqnrthreshold": 20.0}, True

    def metric(self, g, t):
        noise, signal = np.sum((g - t) ** 2), np.sum(g ** 2)
        if noise == 0:
            return 200.0
        if signal == 0:
            return -200.0
        return min(200.0, 10.0 * np.log10(signal / noise))

    def passes(self, v):
        return v >= self.p["sqnrthreshold"]


class ScaledDiff(Verifier):
    """Largest absolute difference over the golden range (max - min); passes at or below."""
    name, params = "ScaledDiff", {"threshold": 0.1}

    def metric(self, g, t):
        rng = g.max() - g.min() if g.size else 0.0
        d = np.max(np.abs(t - g)) if g.size else 0.0
        return d / rng if rng > 0 else d

    def passes(self, v):
        return v <= self.p["threshold"]


VERIFIERS = {cls.name.lower(): cls for cls in
             (RtolAtol, AdjustedRtolAtol, TopK, MeanIOU, L1Error, CosineSimilarity, MSE, MAE, SQNR, ScaledDiff)}


def parse_verifier(spec):
    """'name[,param,value,...]' (case-insensitive name) -> a Verifier."""
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not parts:
        raise DebuggerError("empty verifier")
    cls = VERIFIERS.get(parts[0].lower())
    if cls is None:
        raise DebuggerError(f"unknown verifier '{parts[0]}' (known: {', '.join(c.name for c in VERIFIERS.values())})")
    rest = parts[1:]
    if len(rest) % 2:
        raise DebuggerError(f"verifier '{spec}': parameters come as name,value pairs")
    kw = {rest[i].lower(): rest[i + 1] for i in range(0, len(rest), 2)}
    try:
        return cls(**kw)
    except ValueError as e:
        raise DebuggerError(f"verifier '{spec}': {e}")
