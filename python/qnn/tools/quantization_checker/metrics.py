"""The checks a quantized tensor goes through, each a pass/fail against a threshold (the config's
{"algo_name": ..., "threshold": ...} entries override the defaults below):

  minmax      the quantized tensor's min and max against the float one's, as a percent of the float range
              (passes at or below; default 10)
  maxdiff     the largest absolute difference, as a percent of the float range (at or below; default 10)
  sqnr        signal to quantization-noise ratio in dB (at or above; default 26)
  stats       the shift of the mean, in float standard deviations (at or below; default 0.1)
  data_range  Bit-Width Range: the float range over the float standard deviation, in quantization steps of
              the bitwidth -- how many steps one standard deviation gets (at or above; default 8)
  clustering  the number of distinct quantized levels the tensor uses (at or above; default 16)
  symmetry    |min + max| / (max - min) of the float tensor: near 0 the data is symmetric and a symmetric
              quantizer loses nothing (informational: passes when the chosen encoding matches the data)

Weights and biases are compared before and after quantization; activations against the unquantized
model's run on the same input."""
import numpy as np

DEFAULTS = {"minmax": 10.0, "maxdiff": 10.0, "sqnr": 26.0, "stats": 0.1, "data_range": 8.0, "clustering": 16.0,
            "symmetry": 0.1}
HIGHER_IS_BETTER = {"sqnr", "data_range", "clustering"}
NAMES = {"minmax": "Min/Max Diff", "maxdiff": "Max Abs Diff", "sqnr": "SQNR", "stats": "Stats",
         "data_range": "Bit-Width Range", "clustering": "Clustering", "symmetry": "Symmetry"}


def _range(f):
    r = float(f.max() - f.min()) if f.size else 0.0
    return r if r > 0 else 1.0


def evaluate(algo, thr, float_values, quant_values, bitwidth=8, levels=None, symmetric_encoding=False):
    """(value, passed) of one check against threshold thr. levels: the distinct stored integers (clustering)."""
    f, q = np.asarray(float_values, np.float64).ravel(), np.asarray(quant_values, np.float64).ravel()
    if algo == "minmax":
        v = 100.0 * max(abs(q.min() - f.min()), abs(q.max() - f.max())) / _range(f)
    elif algo == "maxdiff":
        v = 100.0 * float(np.max(np.abs(q - f))) / _range(f)
    elif algo == "sqnr":
        noise = float(np.sum((f - q) ** 2))
        v = 200.0 if noise == 0 else (-200.0 if not np.any(f) else min(200.0, 10 * np.log10(np.sum(f ** 2) / noise)))
    elif algo == "stats":
        sd = float(f.std()) or 1.0
        v = abs(float(q.mean() - f.mean())) / sd
    elif algo == "data_range":
        step = _range(f) / (2 ** bitwidth - 1)
        v = float(f.std()) / step if step > 0 else float("inf")
    elif algo == "clustering":
        v = float(levels if levels is not None else np.unique(q).size)
    elif algo == "symmetry":
        asym = abs(float(f.max() + f.min())) / _range(f)
        # symmetric data under an asymmetric encoding is fine; asymmetric data under a symmetric one wastes range
        v = asym
        return v, not (symmetric_encoding and asym > thr)
    else:
        raise KeyError(algo)
    return v, (v >= thr) if algo in HIGHER_IS_BETTER else (v <= thr)
