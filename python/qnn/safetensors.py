"""The safetensors format (LoRA adapter weights), reader and writer side by side: the Python twin of
sdk/safetensors (the C++ module qnn-context-binary-generator reads adapters with). Layout: u64
little-endian header size N, N bytes of JSON {"name": {"dtype", "shape", "data_offsets": [begin, end]},
"__metadata__": {str: str}}, then the data, offsets relative to its start.

The writer lays out the bytes exactly as the C++ writer does (tensors in name order, data back to back,
compact JSON with sorted keys, padded with spaces to a multiple of 8 bytes), and the reader makes the
C++ reader's checks with the same messages. Standard library only (numpy for as_array alone), so build
scripts can load this file without the rest of the package.

    tensors = {"w": Tensor("F32", [2], struct.pack("<2f", 1, 2))}
    write(path, tensors, metadata={"format": "pt"})
    read(path)["w"].data"""
import collections
import json

# Bytes per element of each dtype both modules know.
DTYPE_SIZES = {"F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2, "I16": 2, "U16": 2,
               "I8": 1, "U8": 1, "BOOL": 1}
# numpy's names of the dtypes as_array / from_array convert.
_NUMPY = {"F64": "<f8", "I64": "<i8", "U64": "<u8", "F32": "<f4", "I32": "<i4", "U32": "<u4", "F16": "<f2",
          "I16": "<i2", "U16": "<u2", "I8": "i1", "U8": "u1", "BOOL": "?"}
_MAX_ELEMENTS = 1 << 40  # no adapter comes near it; the C++ reader's bound

Tensor = collections.namedtuple("Tensor", "dtype shape data")
Tensor.__doc__ = "One tensor: dtype name ('F32', ...), shape (list of ints), data (bytes, little-endian)."


class SafetensorsError(ValueError):
    """A malformed file or an inconsistent tensor; the message names the file and what is wrong."""


def _elements(shape):
    n = 1
    for d in shape:
        if d and n > _MAX_ELEMENTS // d:
            return None
        n *= d
    return n


def _is_uint(v):
    """A JSON integer the C++ reader takes as unsigned 64-bit."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 64


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python's json takes them, JSON does not


def parse(raw, label="<bytes>"):
    """{name: Tensor} of the file's bytes (metadata skipped); SafetensorsError naming `label` otherwise."""
    def bad(why):
        return SafetensorsError(f"safetensors file '{label}': {why}")
    raw = bytes(raw)
    if len(raw) < 8:
        raise bad("shorter than its 8-byte header size")
    n = int.from_bytes(raw[:8], "little")
    if n > len(raw) - 8:
        raise bad(f"header size {n} exceeds the file")
    try:
        header = json.loads(raw[8:8 + n].decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError):
        header = None
    if not isinstance(header, dict):
        raise bad("the header is not a JSON object")
    data, out = raw[8 + n:], {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        who = f"tensor '{name}'"
        if (not isinstance(e, dict) or not isinstance(e.get("dtype"), str) or not isinstance(e.get("shape"), list)
                or not isinstance(e.get("data_offsets"), list) or len(e["data_offsets"]) != 2):
            raise bad(f"{who} needs dtype, shape and data_offsets [begin, end]")
        size = DTYPE_SIZES.get(e["dtype"])
        if not size:
            raise bad(f"{who} has dtype {e['dtype']}, which is not supported")
        if not all(_is_uint(d) for d in e["shape"]):
            raise bad(f"{who} has a shape entry that is not a non-negative integer")
        elements = _elements(e["shape"])
        if elements is None:
            raise bad(f"{who} is too large")
        begin, end = e["data_offsets"]
        if not _is_uint(begin) or not _is_uint(end):
            raise bad(f"{who} has data_offsets that are not non-negative integers")
        if begin > end or end > len(data):
            raise bad(f"{who} has data_offsets outside the file's data")
        if end - begin != elements * size:
            raise bad(f"{who} holds {end - begin} bytes, its dtype and shape need {elements * size}")
        out[name] = Tensor(e["dtype"], list(e["shape"]), data[begin:end])
    return out


def metadata(raw):
    """The file's __metadata__ ({} when it has none); the bytes are not otherwise checked."""
    n = int.from_bytes(bytes(raw[:8]), "little")
    return dict(json.loads(bytes(raw[8:8 + n]).decode("utf-8")).get("__metadata__", {}))


def read(path):
    """{name: Tensor} of the file at `path`."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        raise SafetensorsError(f"cannot open safetensors file '{path}'") from None
    return parse(raw, str(path))


def to_bytes(tensors, metadata=None):
    """The file's bytes for {name: Tensor (or a numpy array)} and {str: str} metadata."""
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    blobs, offset = [], 0
    for name in sorted(tensors):
        t = tensors[name]
        if not isinstance(t, Tensor):
            t = from_array(t)
        if name == "__metadata__":
            raise SafetensorsError("safetensors: a tensor may not be named __metadata__")
        size = DTYPE_SIZES.get(t.dtype)
        if not size:
            raise SafetensorsError(f"safetensors: tensor '{name}' has unknown dtype '{t.dtype}'")
        elements = _elements(t.shape)
        if elements is None or elements * size != len(t.data):
            raise SafetensorsError(f"safetensors: tensor '{name}' holds {len(t.data)} bytes, "
                                   "which its dtype and shape do not give")
        header[name] = {"dtype": t.dtype, "shape": [int(d) for d in t.shape],
                        "data_offsets": [offset, offset + len(t.data)]}
        blobs.append(bytes(t.data))
        offset += len(t.data)
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text + b"".join(blobs)


def write(path, tensors, metadata=None):
    """Writes to_bytes(tensors, metadata) to `path`."""
    raw = to_bytes(tensors, metadata)
    with open(path, "wb") as f:
        f.write(raw)


def from_array(a):
    """A Tensor of a numpy array (its dtype one of DTYPE_SIZES'), data little-endian and contiguous."""
    import numpy as np
    a = np.asarray(a)
    for name, np_name in _NUMPY.items():
        if (a.dtype.kind, a.dtype.itemsize) == (np.dtype(np_name).kind, np.dtype(np_name).itemsize):
            return Tensor(name, list(a.shape), np.ascontiguousarray(a, dtype=np_name).tobytes())
    raise SafetensorsError(f"safetensors: numpy dtype {a.dtype} has no safetensors dtype")


def as_array(t):
    """A Tensor's values as a numpy array of its shape (BF16 is not converted: SafetensorsError)."""
    import numpy as np
    if t.dtype not in _NUMPY:
        raise SafetensorsError(f"safetensors: dtype {t.dtype} has no numpy dtype")
    return np.frombuffer(t.data, _NUMPY[t.dtype]).reshape(t.shape)
