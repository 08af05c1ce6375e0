"""Quantization encodings in the QNN convention, float = (q + offset) * scale, and the range modes.

Asymmetric (tf, enhanced, adjusted): unsigned storage (UFIXED_POINT_bw), offset = round(min/scale) <= 0,
scale = (max - min) / (2^bw - 1) after the range is widened to contain 0 and to span at least 1e-4.
Symmetric: signed storage (SFIXED_POINT_bw), offset 0, scale = max(|min|, |max|) / (2^(bw-1) - 1); the same
encoding written the AIMET way (unsigned view) has offset -2^(bw-1).
Rounding everywhere is round half to even (numpy), like the CPU backend's quantize (std::nearbyint).
"""
import numpy as np

from qnn.errors import ConverterError

MIN_RANGE = 1e-4
MODES = ("tf", "enhanced", "adjusted", "symmetric")


class Encoding:
    """One tensor's encoding. scale/offset are numpy arrays of shape [1] (per tensor) or [channels] (axis).

    Blockwise expansion (QNN's BLOCKWISE_EXPANSION, AIMET's LPBQ) adds block_scales, integers of shape
    [channels, blocks]: the channel's scale times its block's multiplier is the scale of the block, the
    blocks cutting block_axis (the weight's input channels) into equal parts. block_scale_bitwidth is
    what QNN's blockScaleBitwidth carries: the bits the values are expanded by (decompressed - compressed).
    """

    def __init__(self, bitwidth, scale, offset, signed, axis=None, is_float=False):
        self.bitwidth, self.signed, self.axis, self.is_float = int(bitwidth), bool(signed), axis, is_float
        self.scale = np.atleast_1d(np.asarray(scale, np.float32))
        self.offset = np.atleast_1d(np.asarray(offset, np.int64)).astype(np.int32)
        self.block_scales, self.block_axis, self.block_scale_bitwidth = None, None, 0

    @property
    def blockwise(self):
        return self.block_scales is not None

    @classmethod
    def float_(cls, bitwidth=32):
        return cls(bitwidth, [0.0], [0], False, is_float=True)

    @property
    def per_axis(self):
        return self.axis is not None

    def storage_bits(self):
        """Container width while converting: 4-bit values live unpacked in 8-bit containers (BW_* encodings);
        static 4-bit data is packed when written (packed_static below)."""
        return 8 if self.bitwidth <= 8 else self.bitwidth

    def qnn_dtype(self):
        return f"QNN_DATATYPE_{'S' if self.signed else 'U'}FIXED_POINT_{self.storage_bits()}"

    def np_dtype(self):
        return np.dtype(f"{'int' if self.signed else 'uint'}{self.storage_bits()}")

    def qrange(self):
        if self.signed:
            return -(1 << (self.bitwidth - 1)), (1 << (self.bitwidth - 1)) - 1
        return 0, (1 << self.bitwidth) - 1

    def bounds(self):
        """(min, max) float arrays represented by the lowest/highest integer."""
        lo, hi = self.qrange()
        s, o = self.scale.astype(np.float64), self.offset.astype(np.float64)
        return (lo + o) * s, (hi + o) * s

    def aimet_offset(self):
        """Offset of the unsigned view AIMET files use (signed storage shifts by -2^(bw-1))."""
        return self.offset - (1 << (self.bitwidth - 1)) if self.signed else self.offset

    def same_as(self, other):
        return (other is not None and self.is_float == other.is_float and self.bitwidth == other.bitwidth
                and self.signed == other.signed and self.axis == other.axis
                and np.array_equal(self.scale, other.scale) and np.array_equal(self.offset, other.offset)
                and self.blockwise == other.blockwise
                and (not self.blockwise or (self.block_axis == other.block_axis
                                            and np.array_equal(self.block_scales, other.block_scales))))

    def element_scales(self, shape):
        """Blockwise: the scale of every element of a tensor of `shape` (float64), per the definition."""
        c, nb = self.block_scales.shape
        blk = shape[self.block_axis] // nb
        per_block = self.scale.astype(np.float32)[:, None] * self.block_scales.astype(np.float32)   # [c, nb]
        grid = np.repeat(per_block, blk, axis=1).astype(np.float64)                                  # [c, in]
        order = [self.axis, self.block_axis]
        rest = [a for a in range(len(shape)) if a not in order]
        full = grid.reshape([c, shape[self.block_axis]] + [1] * len(rest))
        return np.broadcast_to(np.moveaxis(full, [0, 1], order), shape)

    def quantize(self, x):
        """float array -> stored integers (round half to even, saturate). Per-axis scales broadcast on self.axis."""
        x = np.asarray(x, np.float64)
        s, o = self.scale.astype(np.float64), self.offset.astype(np.float64)
        if self.blockwise:
            shape = [1] * x.ndim
            shape[self.axis] = -1
            s, o = self.element_scales(x.shape), o.reshape(shape)
        elif self.per_axis:
            shape = [1] * x.ndim
            shape[self.axis] = -1
            s, o = s.reshape(shape), o.reshape(shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.where(s > 0, np.rint(x / np.where(s > 0, s, 1.0)) - o, -o)
        lo, hi = self.qrange()
        return np.clip(q, lo, hi).astype(self.np_dtype())


def asymmetric(mn, mx, bw):
    """tf encoding of the range [mn, mx] (arrays for per-axis): contains 0, spans >= 1e-4, 0 exact."""
    mn = np.minimum(np.asarray(mn, np.float64), 0.0)
    mx = np.maximum(np.asarray(mx, np.float64), 0.0)
    mx = np.maximum(mx, mn + MIN_RANGE)
    steps = (1 << bw) - 1
    scale = (mx - mn) / steps
    offset = np.rint(mn / scale)   # from the exact scale, so ties (e.g. -127.5) round to even as documented
    return Encoding(bw, scale.astype(np.float32), offset, signed=False)


def symmetric(mn, mx, bw):
    """Symmetric encoding: offset 0 in signed storage, scale = max(|min|, |max|) / (2^(bw-1) - 1)."""
    m = np.maximum(np.abs(np.asarray(mn, np.float64)), np.abs(np.asarray(mx, np.float64)))
    m = np.maximum(m, MIN_RANGE / 2)
    scale = (m / ((1 << (bw - 1)) - 1)).astype(np.float32)
    return Encoding(bw, scale, np.zeros_like(scale, np.int64), signed=True)


def adjusted(mn, mx, bw):
    """TF Adjusted: like tf, but zero is made exact by widening the range (min lowered or max raised)
    instead of shifting it, so [mn, mx] stays fully representable."""
    mn = np.minimum(np.asarray(mn, np.float64), 0.0)
    mx = np.maximum(np.asarray(mx, np.float64), 0.0)
    mx = np.maximum(mx, mn + MIN_RANGE)
    steps = (1 << bw) - 1
    scale = (mx - mn) / steps
    for _ in range(64):
        s32 = scale.astype(np.float32).astype(np.float64)
        offset = np.floor(mn / s32 + 1e-9)
        top = (offset + steps) * s32
        short = top < mx
        if not np.any(short):
            break
        # widen just enough for the top to fit with the lowered min
        scale = np.where(short, (mx - offset * s32) / steps * (1 + 1e-7), scale)
    s32 = scale.astype(np.float32)
    return Encoding(bw, s32, np.floor(mn / s32.astype(np.float64) + 1e-9), signed=False)


def enhanced(values, mn, mx, bw, symmetric_storage=False):
    """Enhanced: pick the range that minimises the mean squared quantization error on `values`
    (clipping error plus rounding noise), searching shrunken versions of [mn, mx]. Per tensor.
    The error is evaluated on a 2048-bin histogram of the values (bin centres weighted by counts)."""
    values = np.asarray(values, np.float64).reshape(-1)
    make = symmetric if symmetric_storage else asymmetric
    best = make(mn, mx, bw)
    if values.size == 0 or mx <= mn:
        return best
    counts, edges = np.histogram(values, bins=2048, range=(min(mn, 0.0), max(mx, 0.0)))
    keep = counts > 0
    centres, weights = ((edges[:-1] + edges[1:]) / 2)[keep], counts[keep].astype(np.float64)
    best_err = _mse(centres, weights, best)
    fractions = np.linspace(1.0, 0.1, 19)
    for fl in fractions:
        for fh in (fl,) if symmetric_storage else fractions:
            enc = make(mn * fl, mx * fh, bw)
            err = _mse(centres, weights, enc)
            if err < best_err * (1 - 1e-9):
                best, best_err = enc, err
    return best


def _mse(centres, weights, enc):
    deq = (enc.quantize(centres).astype(np.float64) + enc.offset[0]) * float(enc.scale[0])
    return float(np.sum(weights * (deq - centres) ** 2) / np.sum(weights))


def compute(mode, mn, mx, bw, values=None):
    """Encoding of data with range [mn, mx] (scalars, or arrays per channel) in one of MODES."""
    if mode == "tf":
        return asymmetric(mn, mx, bw)
    if mode == "symmetric":
        return symmetric(mn, mx, bw)
    if mode == "adjusted":
        return adjusted(mn, mx, bw)
    if mode == "enhanced":
        if np.ndim(mn) > 0:   # per-channel ranges: enhanced falls back to symmetric min/max per channel
            return symmetric(mn, mx, bw)
        return enhanced(values if values is not None else [], float(mn), float(mx), bw)
    raise ConverterError(f"unknown quantizer '{mode}' (expected one of {', '.join(MODES)})")


def from_scale_offset(bw, scale, offset, is_symmetric, axis=None):
    """An encoding given as AIMET scale/offset. The unsigned offset is <= 0 (AIMET files write it with
    either sign; its magnitude is -min/scale); symmetric encodings are stored signed with offset 0."""
    scale = np.atleast_1d(np.asarray(scale, np.float64))
    if is_symmetric:
        return Encoding(bw, scale, np.zeros(scale.shape, np.int64), signed=True, axis=axis)
    offset = -np.abs(np.atleast_1d(np.asarray(offset, np.float64)))
    return Encoding(bw, scale, np.rint(offset), signed=False, axis=axis)


def from_min_max(bw, mn, mx, is_symmetric, axis=None):
    enc = symmetric(mn, mx, bw) if is_symmetric else asymmetric(mn, mx, bw)
    enc.axis = axis
    return enc


def blockwise_block_axis(rank, axis):
    """The axis a blockwise encoding on channel `axis` cuts into blocks (the runtime's rule,
    core/tensor_view.h blockwiseBlockAxis): rank-2 when axis is last, 1 when axis is 0, else None."""
    if rank < 2 or axis is None or axis < 0:
        return None
    if axis == rank - 1:
        return rank - 2
    return 1 if axis == 0 else None


def packs(t):
    """True for a static tensor of 4-bit quantized data: written packed as SFIXED_POINT_4 / UFIXED_POINT_4."""
    enc = getattr(t, "quant", None)
    return (t.kind == "static" and enc is not None and not enc.is_float and enc.bitwidth == 4
            and getattr(t, "data", None) is not None)


def packed_dtype(t):
    """The QNN datatype a static tensor is written with (see packs), else None."""
    return f"QNN_DATATYPE_{'S' if t.quant.signed else 'U'}FIXED_POINT_4" if packs(t) else None


def static_bytes(t):
    """The bytes a static tensor is written with: 4-bit values two per byte, the first element in the low
    nibble (QnnTypes.h's packing; an odd count leaves the last high nibble 0); others as they are."""
    data = np.ascontiguousarray(t.data)
    if not packs(t):
        return data.tobytes()
    nibbles = (data.reshape(-1).astype(np.int64) & 0xF).astype(np.uint8)
    if nibbles.size % 2:
        nibbles = np.append(nibbles, np.uint8(0))
    return (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8).tobytes()


def unpack4(raw, count, signed):
    """The inverse of static_bytes' packing: `count` 4-bit values from two per byte (low nibble first),
    sign-extended when `signed`, as int8 / uint8 containers."""
    b = np.frombuffer(raw, np.uint8)
    v = np.stack([b & 0xF, b >> 4], axis=1).reshape(-1)[:count]
    return np.where(v >= 8, v.astype(np.int16) - 16, v).astype(np.int8) if signed else v.astype(np.uint8)
