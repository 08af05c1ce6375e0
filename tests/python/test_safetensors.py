"""qnn.safetensors, the Python twin of sdk/safetensors: its bytes against the format's layout, its refusals,
and against the C++ module (safetensors_cross, built beside the tests): a file written by one is read by
the other, both writers give the same bytes, both readers refuse a malformed file with the same message.
The cross checks need QNN_BUILD_DIR."""
import json
import os
import struct
import subprocess

import numpy as np
import pytest

from qnn import safetensors as st

BUILD = os.environ.get("QNN_BUILD_DIR", "")
CROSS = os.path.join(BUILD, "tests", "safetensors_cross")
needs_cross = pytest.mark.skipif(not os.path.isfile(CROSS), reason="QNN_BUILD_DIR has no tests/safetensors_cross")

# Values written with struct, independently of both modules.
TENSORS = {
    "w": st.Tensor("F32", [2, 3], struct.pack("<6f", 1.5, -2.0, 0.25, 3.0, -0.125, 7.0)),
    "h": st.Tensor("F16", [3], struct.pack("<3e", 0.5, -1.0, 2.0)),
    "b": st.Tensor("I8", [4], struct.pack("<4b", -128, -1, 0, 127)),
    "flag": st.Tensor("BOOL", [2], b"\x01\x00"),
    "big": st.Tensor("I64", [1], struct.pack("<q", -(1 << 40))),
    "scalar": st.Tensor("U16", [], struct.pack("<H", 65535)),
    "empty": st.Tensor("F32", [0, 4], b""),
    "gewicht_\u00e4": st.Tensor("U8", [1], b"\x09"),
}


def test_layout_is_the_formats():
    raw = st.to_bytes(TENSORS, {"format": "pt"})
    n = struct.unpack("<Q", raw[:8])[0]
    assert n % 8 == 0  # header padded with spaces: the data starts aligned
    text = raw[8:8 + n].decode("utf-8")
    header = json.loads(text)
    assert text.rstrip(" ") == json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert header["__metadata__"] == {"format": "pt"}
    data, offset = raw[8 + n:], 0
    for name in sorted(TENSORS):  # data back to back, in name order
        e = header[name]
        assert (e["dtype"], e["shape"]) == (TENSORS[name].dtype, TENSORS[name].shape)
        assert e["data_offsets"] == [offset, offset + len(TENSORS[name].data)]
        assert data[offset:offset + len(TENSORS[name].data)] == TENSORS[name].data
        offset += len(TENSORS[name].data)
    assert offset == len(data)


def test_read_back_and_arrays(tmp_path):
    path = tmp_path / "a.safetensors"
    st.write(path, TENSORS, {"format": "pt"})
    assert st.read(path) == TENSORS
    assert st.metadata(path.read_bytes()) == {"format": "pt"}
    np.testing.assert_array_equal(st.as_array(st.read(path)["w"]), [[1.5, -2.0, 0.25], [3.0, -0.125, 7.0]])
    a = np.arange(6, dtype=np.float16).reshape(2, 3)
    t = st.from_array(a)
    assert (t.dtype, t.shape, t.data) == ("F16", [2, 3], struct.pack("<6e", 0, 1, 2, 3, 4, 5))
    assert st.from_array(np.array([1, 2], dtype=">i4")).data == struct.pack("<2i", 1, 2)  # stored little-endian


def test_writer_refuses_inconsistent_tensors():
    with pytest.raises(st.SafetensorsError, match="tensor 'x' holds 3 bytes, which its dtype and shape do not give"):
        st.to_bytes({"x": st.Tensor("F32", [2], b"abc")})
    with pytest.raises(st.SafetensorsError, match="tensor 'x' has unknown dtype 'Q4'"):
        st.to_bytes({"x": st.Tensor("Q4", [1], b"a")})
    with pytest.raises(st.SafetensorsError, match="may not be named __metadata__"):
        st.to_bytes({"__metadata__": st.Tensor("U8", [1], b"a")})


def header_file(header, data=b""):
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


MALFORMED = {
    "tiny": b"\x01\x00\x00",
    "oversized": struct.pack("<Q", 100) + b"{}",
    "not_object": header_file([1, 2]),
    "nan": struct.pack("<Q", 26) + b'{"__metadata__":{"a":NaN}}',
    "no_dtype": header_file({"x": {"shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4),
    "bad_dtype": header_file({"x": {"dtype": "Q4", "shape": [1], "data_offsets": [0, 1]}}, b"\0"),
    "negative_dim": header_file({"x": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, b"\0" * 4),
    "too_large": header_file({"x": {"dtype": "U8", "shape": [1 << 30, 1 << 30], "data_offsets": [0, 1]}}, b"\0"),
    "float_offset": header_file({"x": {"dtype": "U8", "shape": [1], "data_offsets": [0.0, 1]}}, b"\0"),
    "huge_offset": header_file({"x": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1 << 64]}}, b"\0"),
    "outside": header_file({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, b"\0" * 7),
    "size_mismatch": header_file({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}, b"\0" * 8),
}
EXPECTED = {
    "tiny": "shorter than its 8-byte header size",
    "oversized": "header size 100 exceeds the file",
    "not_object": "the header is not a JSON object",
    "nan": "the header is not a JSON object",
    "no_dtype": "tensor 'x' needs dtype, shape and data_offsets [begin, end]",
    "bad_dtype": "tensor 'x' has dtype Q4, which is not supported",
    "negative_dim": "tensor 'x' has a shape entry that is not a non-negative integer",
    "too_large": "tensor 'x' is too large",
    "float_offset": "tensor 'x' has data_offsets that are not non-negative integers",
    "huge_offset": "tensor 'x' has data_offsets that are not non-negative integers",
    "outside": "tensor 'x' has data_offsets outside the file's data",
    "size_mismatch": "tensor 'x' holds 4 bytes, its dtype and shape need 8",
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_reader_refuses_malformed_files(tmp_path, case):
    path = tmp_path / case
    path.write_bytes(MALFORMED[case])
    with pytest.raises(st.SafetensorsError) as e:
        st.read(path)
    assert str(e.value) == f"safetensors file '{path}': {EXPECTED[case]}"


def cross(*args):
    return subprocess.run([CROSS, *map(str, args)], capture_output=True, text=True, timeout=60)


@needs_cross
def test_python_bytes_read_and_rewritten_by_cpp_identically(tmp_path):
    a, b = tmp_path / "py.safetensors", tmp_path / "cpp.safetensors"
    st.write(a, TENSORS, {"format": "pt"})
    p = cross("copy", a, b, "format=pt")
    assert p.returncode == 0, p.stderr
    assert b.read_bytes() == a.read_bytes()  # the C++ reader took every tensor, the C++ writer lays out the same
    p = cross("dump", a)
    assert p.returncode == 0, p.stderr
    want = [" ".join([name, t.dtype, *map(str, t.shape)]) + " :" + t.data.hex() for name, t in sorted(TENSORS.items())]
    assert p.stdout.splitlines() == want


@needs_cross
def test_cpp_bytes_read_by_python(tmp_path):
    # A file in another tensor order and spacing than either writer's, rewritten by C++ and read by Python.
    header, data = {}, b""
    for name in reversed(list(TENSORS)):
        t = TENSORS[name]
        header[name] = {"shape": t.shape, "data_offsets": [len(data), len(data) + len(t.data)], "dtype": t.dtype}
        data += t.data
    src, out = tmp_path / "src.safetensors", tmp_path / "out.safetensors"
    src.write_bytes(header_file(header, data))
    p = cross("copy", src, out)
    assert p.returncode == 0, p.stderr
    assert st.read(out) == TENSORS
    assert st.metadata(out.read_bytes()) == {}
    assert out.read_bytes() == st.to_bytes(TENSORS)


@needs_cross
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_both_readers_refuse_alike(tmp_path, case):
    path = tmp_path / case
    path.write_bytes(MALFORMED[case])
    p = cross("dump", path)
    assert p.returncode == 1
    assert p.stderr.strip() == f"safetensors file '{path}': {EXPECTED[case]}"
