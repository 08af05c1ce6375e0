"""--quantization_overrides: the AIMET encodings JSON (activation_encodings / param_encodings).

{"activation_encodings": {"<tensor>": [{"bitwidth": 8, "min": f, "max": f, "scale": f, "offset": i,
                                         "is_symmetric": "True|False", "dtype": "int|float"}]},
 "param_encodings": {"<weight or bias>": [{...}] or [{ch0}, {ch1}, ...]}, "version": "0.5.0"}
Both sections must be present (either may be empty). An entry needs scale+offset or min+max
(scale/offset win when both are given); dtype "float" marks the tensor float (mixed precision).
A list of N entries on a weight is per-channel along its output channels.

The AIMET 1.0.0 form is read too: {"version": "1.0.0", "activation_encodings": [entry, ...],
"param_encodings": [entry, ...]}, entry = {"name", "enc_type": PER_TENSOR|PER_CHANNEL|LPBQ|PER_BLOCK,
"dtype": INT|FLOAT, "bw", "is_sym", "scale": [...], "offset": [...]} and for LPBQ "block_size",
"compressed_bw" and "per_block_int_scale" (channels x blocks, channel-major). PER_TENSOR and
PER_CHANNEL become the entries above; LPBQ becomes QNN's BLOCKWISE_EXPANSION encoding (weights of
compressed_bw bits, each block's scale = the channel's scale x its integer); PER_BLOCK (QNN's BLOCK
encoding, one free scale per block) is refused: no backend here runs it.
"""
import json

import numpy as np

from qnn.errors import ConverterError
from . import encodings as E

_BITWIDTHS = (4, 8, 16, 32)


class Override:
    """One tensor's parsed override: entries normalised, turned into an Encoding by resolve()."""

    def __init__(self, name, entries, where, lpbq=None):
        self.name, self.entries, self.where, self.lpbq = name, entries, where, lpbq

    @property
    def is_float(self):
        return self.entries[0]["dtype"] == "float"

    def resolve(self, channels=None, axis=None, shape=None):
        """Encoding for a tensor; channels/axis given for per-channel weights (len(entries) > 1),
        and the weight's shape for an LPBQ encoding."""
        if self.lpbq is not None:
            return self._resolve_lpbq(channels, axis, shape)
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


    def _resolve_lpbq(self, channels, axis, shape):
        lp = self.lpbq
        if axis is None or channels is None or shape is None:
            raise ConverterError(f"{self.where}: an LPBQ encoding applies to the weights of Conv, Gemm or "
                                 "MatMul (FullyConnected) only")
        block_axis = E.blockwise_block_axis(len(shape), axis)
        n = len(lp["scale"])
        if block_axis is None or n != channels:
            raise ConverterError(f"{self.where}: {n} LPBQ channel scales, but the weight has {channels} output channels")
        blocks = len(lp["per_block_int_scale"]) // n
        if blocks * n != len(lp["per_block_int_scale"]) or blocks * lp["block_size"] != shape[block_axis]:
            raise ConverterError(f"{self.where}: {len(lp['per_block_int_scale'])} per_block_int_scale values do not "
                                 f"cut {n} channels of {shape[block_axis]} inputs into blocks of {lp['block_size']}")
        enc = E.Encoding(lp["compressed_bw"], lp["scale"], np.zeros(n, np.int64), signed=True, axis=axis)
        enc.block_scales = np.asarray(lp["per_block_int_scale"], np.uint16).reshape(n, blocks)
        enc.block_axis = block_axis
        enc.block_scale_bitwidth = lp["bw"] - lp["compressed_bw"]
        return enc


def _num(v, field, where, integer=False):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ConverterError(f"{where}: '{field}' must be a number, got {json.dumps(v)}")
    if integer and float(v) != int(v):
        raise ConverterError(f"{where}: '{field}' must be an integer, got {v}")
    if not np.isfinite(v):
        raise ConverterError(f"{where}: '{field}' must be finite")
    return int(v) if integer else float(v)


def _known_fields(e, allowed, where):
    unknown = {k for k in e if not k.startswith("qnn_")} - set(allowed)
    if unknown:
        raise ConverterError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")


def _choice(e, field, allowed, default, where):
    v = e.get(field, default)
    if v not in allowed:
        raise ConverterError(f"{where}: '{field}' must be one of {', '.join(allowed)}, got {json.dumps(v)}")
    return v


def _bitwidth(e, field, where):
    if field not in e:
        raise ConverterError(f"{where}: '{field}' is missing")
    return _num(e[field], field, where, integer=True)


def _entry(e, where):
    if not isinstance(e, dict):
        raise ConverterError(f"{where}: an encoding must be an object, got {json.dumps(e)[:40]}")
    _known_fields(e, ("bitwidth", "min", "max", "scale", "offset", "is_symmetric", "dtype"), where)
    dtype = _choice(e, "dtype", ("int", "float"), "int", where)
    bw = _bitwidth(e, "bitwidth", where)
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


_ENC_TYPES = ("PER_TENSOR", "PER_CHANNEL", "LPBQ", "PER_BLOCK")


def _v1_entry(e, where):
    """One AIMET 1.0.0 entry -> (0.x-style entries, lpbq dict or None)."""
    _known_fields(e, ("name", "enc_type", "dtype", "bw", "is_sym", "scale", "offset", "block_size", "compressed_bw",
                      "per_block_int_scale"), where)
    kind = _choice(e, "enc_type", _ENC_TYPES, "PER_TENSOR", where)
    dtype = _choice(e, "dtype", ("INT", "FLOAT"), "INT", where)
    bw = _bitwidth(e, "bw", where)
    if dtype == "FLOAT":
        return [_entry({"dtype": "float", "bitwidth": bw}, where)], None
    if kind == "PER_BLOCK":
        raise ConverterError(f"{where}: enc_type PER_BLOCK (QNN's BLOCK encoding) is not supported by the "
                             "backends; LPBQ (BLOCKWISE_EXPANSION) is")
    sym = e.get("is_sym", False)
    if not isinstance(sym, bool):
        raise ConverterError(f"{where}: 'is_sym' must be true or false, got {json.dumps(sym)}")
    scales, offsets = e.get("scale"), e.get("offset")
    if not isinstance(scales, list) or not scales or not isinstance(offsets, list) or len(offsets) != len(scales):
        raise ConverterError(f"{where}: 'scale' and 'offset' must be non-empty lists of the same length")
    if kind == "PER_TENSOR" and len(scales) != 1:
        raise ConverterError(f"{where}: a PER_TENSOR encoding has one scale, got {len(scales)}")
    if kind != "LPBQ":
        return [_entry({"bitwidth": bw, "is_symmetric": sym, "scale": sc, "offset": o}, where)
                for sc, o in zip(scales, offsets)], None
    if not sym:
        raise ConverterError(f"{where}: an LPBQ encoding must be symmetric (is_sym true)")
    for field in ("block_size", "compressed_bw", "per_block_int_scale"):
        if field not in e:
            raise ConverterError(f"{where}: LPBQ needs '{field}'")
    cbw = _num(e["compressed_bw"], "compressed_bw", where, integer=True)
    block = _num(e["block_size"], "block_size", where, integer=True)
    if cbw not in (4, 8) or not cbw < bw <= 16:
        raise ConverterError(f"{where}: LPBQ needs compressed_bw 4 or 8 below bw (at most 16), got {cbw} and {bw}")
    if block < 1:
        raise ConverterError(f"{where}: 'block_size' must be >= 1, got {block}")
    ints = e["per_block_int_scale"]
    if not isinstance(ints, list) or not ints:
        raise ConverterError(f"{where}: 'per_block_int_scale' must be a non-empty list")
    ints = [_num(v, "per_block_int_scale", where, integer=True) for v in ints]
    top = 1 << (bw - cbw)
    if any(v < 1 or v > top for v in ints):
        raise ConverterError(f"{where}: per_block_int_scale values must lie in 1..{top} (2^(bw - compressed_bw))")
    chan = [_num(v, "scale", where) for v in scales]
    if any(not v > 0 for v in chan):
        raise ConverterError(f"{where}: LPBQ channel scales must be > 0")
    entry = _entry({"bitwidth": cbw, "is_symmetric": True, "scale": chan[0], "offset": 0}, where)
    return [entry], {"scale": chan, "per_block_int_scale": ints, "block_size": block, "compressed_bw": cbw, "bw": bw,
                     "source": dict(e)}


def _sections_v1(doc, origin):
    """AIMET 1.0.0 lists of named entries -> the 0.x shape {name: entry-or-list}."""
    out = {}
    for section in ("activation_encodings", "param_encodings"):
        sec = doc.get(section)
        if not isinstance(sec, list):
            raise ConverterError(f"{origin}: '{section}' must be a list in version 1.0.0")
        named = {}
        for k, e in enumerate(sec):
            if not isinstance(e, dict) or not isinstance(e.get("name"), str):
                raise ConverterError(f"{origin}: {section}[{k}] must be an object with a 'name'")
            named[e["name"]] = dict(e, enc_type=e.get("enc_type", "PER_TENSOR"))
        out[section] = named
    return out


def parse(doc, origin):
    """The overrides of an AIMET document (a loaded file, or the cache in a DLC) -> (activation
    overrides, param overrides); `origin` names it in errors."""
    if not isinstance(doc, dict):
        raise ConverterError(f"{origin}: the top level must be an object")
    if doc.get("version") == "1.0.0" and any(isinstance(doc.get(s), list) for s in ("activation_encodings",
                                                                                  "param_encodings")):
        doc = _sections_v1(doc, origin)
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
            if isinstance(entries, dict) and "enc_type" in entries:   # a 1.0.0 entry
                parsed_entries, lpbq = _v1_entry(entries, where)
                if lpbq is not None and section == "activation_encodings":
                    raise ConverterError(f"{where}: LPBQ encodings apply to params (weights) only")
                if len(parsed_entries) > 1 and section == "activation_encodings":
                    raise ConverterError(f"{where}: per-channel encodings are only supported for params")
                parsed[name] = Override(name, parsed_entries, where, lpbq)
                continue
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
    if override.lpbq is not None:
        return dict(override.lpbq["source"], enc_type="LPBQ")
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
