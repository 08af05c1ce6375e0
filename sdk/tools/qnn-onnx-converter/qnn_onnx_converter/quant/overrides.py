"""--quantization_overrides: the AIMET encodings JSON (activation_encodings / param_encodings).

{"activation_encodings": {"<tensor>": [{"bitwidth": 8, "min": f, "max": f, "scale": f, "offset": i,
                                         "is_symmetric": "True|False", "dtype": "int|float"}]},
 "param_encodings": {"<weight or bias>": [{...}] or [{ch0}, {ch1}, ...]}, "version": "0.5.0"}
Both sections must be present (either may be empty). An entry needs scale+offset or min+max
(scale/offset win when both are given); dtype "float" marks the tensor float (mixed precision).
A list of N entries on a weight is per-channel along its output channels.
"""
import json

import numpy as np

from ..errors import ConverterError
from . import encodings as E

_BITWIDTHS = (4, 8, 16, 32)


class Override:
    """One tensor's parsed override: entries normalised, turned into an Encoding by resolve()."""

    def __init__(self, name, entries, where):
        self.name, self.entries, self.where = name, entries, where

    @property
    def is_float(self):
        return self.entries[0]["dtype"] == "float"

    def resolve(self, channels=None, axis=None):
        """Encoding for a tensor; channels/axis given for per-channel weights (len(entries) > 1)."""
        e0 = self.entries[0]
        if e0["dtype"] == "float":
            return E.Encoding.float_(e0["bitwidth"])
        n = len(self.entries)
        if n > 1 and (channels is None or n != channels):
            raise ConverterError(f"{self.where}: {n} per-channel encodings, but the tensor has "
                                 f"{channels if channels is not None else 'no'} output channels")
        bw, sym = e0["bitwidth"], e0["is_symmetric"]
        if any(e["bitwidth"] != bw or e["is_symmetric"] != sym for e in self.entries):
            raise ConverterError(f"{self.where}: per-channel entries must share bitwidth and is_symmetric")
        ax = axis if n > 1 else None
        if all(e["scale"] is not None for e in self.entries):
            return E.from_scale_offset(bw, [e["scale"] for e in self.entries],
                                       [e["offset"] for e in self.entries], sym, ax)
        return E.from_min_max(bw, np.array([e["min"] for e in self.entries]),
                              np.array([e["max"] for e in self.entries]), sym, ax)


def _num(v, field, where, integer=False):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ConverterError(f"{where}: '{field}' must be a number, got {json.dumps(v)}")
    if integer and float(v) != int(v):
        raise ConverterError(f"{where}: '{field}' must be an integer, got {v}")
    if not np.isfinite(v):
        raise ConverterError(f"{where}: '{field}' must be finite")
    return int(v) if integer else float(v)


def _entry(e, where):
    if not isinstance(e, dict):
        raise ConverterError(f"{where}: an encoding must be an object, got {json.dumps(e)[:40]}")
    unknown = {k for k in e if not k.startswith("qnn_")} - {"bitwidth", "min", "max", "scale", "offset",
                                                           "is_symmetric", "dtype"}
    if unknown:
        raise ConverterError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    dtype = e.get("dtype", "int")
    if dtype not in ("int", "float"):
        raise ConverterError(f"{where}: 'dtype' must be \"int\" or \"float\", got {json.dumps(dtype)}")
    if "bitwidth" not in e:
        raise ConverterError(f"{where}: 'bitwidth' is missing")
    bw = _num(e["bitwidth"], "bitwidth", where, integer=True)
    if dtype == "float":
        if bw not in (16, 32):
            raise ConverterError(f"{where}: a float encoding needs bitwidth 16 or 32, got {bw}")
        return {"dtype": "float", "bitwidth": bw, "is_symmetric": False, "scale": None, "offset": None}
    if bw not in _BITWIDTHS:
        raise ConverterError(f"{where}: bitwidth {bw} is not one of {', '.join(map(str, _BITWIDTHS))}")
    sym = e.get("is_symmetric", "False")
    if isinstance(sym, str) and sym.lower() in ("true", "false"):
        sym = sym.lower() == "true"
    if not isinstance(sym, bool):
        raise ConverterError(f"{where}: 'is_symmetric' must be \"True\" or \"False\", got {json.dumps(sym)}")
    out = {"dtype": "int", "bitwidth": bw, "is_symmetric": sym, "scale": None, "offset": None, "min": None, "max": None}
    if "scale" in e or "offset" in e:
        if "scale" not in e or "offset" not in e:
            raise ConverterError(f"{where}: 'scale' and 'offset' must be given together")
        out["scale"] = _num(e["scale"], "scale", where)
        out["offset"] = _num(e["offset"], "offset", where, integer=True)
        if not out["scale"] > 0:
            raise ConverterError(f"{where}: 'scale' must be > 0, got {out['scale']}")
        if abs(out["offset"]) > (1 << bw) - 1:
            raise ConverterError(f"{where}: offset {out['offset']} is outside the {bw}-bit range")
    elif "min" in e and "max" in e:
        out["min"], out["max"] = _num(e["min"], "min", where), _num(e["max"], "max", where)
        if out["min"] > out["max"]:
            raise ConverterError(f"{where}: min {out['min']} > max {out['max']}")
    else:
        raise ConverterError(f"{where}: needs 'scale' and 'offset', or 'min' and 'max'")
    return out


def load(path):
    """-> (activation overrides, param overrides): dicts tensor name -> Override."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise ConverterError(f"--quantization_overrides: cannot read '{path}': {e.strerror}")
    except UnicodeDecodeError as e:
        raise ConverterError(f"--quantization_overrides {path}: not UTF-8 text (byte {e.start})")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConverterError(f"--quantization_overrides {path}: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}")
    return parse(doc, f"--quantization_overrides {path}")


def parse(doc, origin):
    """The overrides of an AIMET document (a loaded file, or the cache in a DLC) -> (activation
    overrides, param overrides); `origin` names it in errors."""
    if not isinstance(doc, dict):
        raise ConverterError(f"{origin}: the top level must be an object")
    result = []
    for section in ("activation_encodings", "param_encodings"):
        if section not in doc:
            raise ConverterError(f"{origin}: section '{section}' is missing "
                                 "(both sections must be present; either may be empty)")
        sec = doc[section]
        if not isinstance(sec, dict):
            raise ConverterError(f"{origin}: '{section}' must be an object")
        parsed = {}
        for name, entries in sec.items():
            where = f"{origin}: {section}['{name}']"
            if isinstance(entries, dict):
                entries = [entries]
            if not isinstance(entries, list) or not entries:
                raise ConverterError(f"{where}: expected a non-empty list of encodings")
            parsed[name] = Override(name, [_entry(e, f"{where}[{k}]") for k, e in enumerate(entries)], where)
            if len(entries) > 1 and section == "activation_encodings":
                raise ConverterError(f"{where}: per-channel encodings are only supported for params")
        result.append(parsed)
    return result[0], result[1]


def to_aimet(override):
    """An Override's entries back in the AIMET form parse() reads (what a DLC caches)."""
    out = []
    for e in override.entries:
        d = {"bitwidth": e["bitwidth"], "dtype": e["dtype"]}
        if e["dtype"] == "int":
            d["is_symmetric"] = "True" if e["is_symmetric"] else "False"
            for k in ("scale", "offset", "min", "max"):
                if e.get(k) is not None:
                    d[k] = e[k]
        out.append(d)
    return out
