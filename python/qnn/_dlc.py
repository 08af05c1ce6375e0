"""System DLCs of libQnnSystem.so (system API 1.14): a DLC made empty and filled with a context's
graphs (Context.add_to_dlc, QnnContext_addToDlc of the 2.39 table), or opened from a file or bytes;
saved, read as bytes, its records and graph names listed. The 1.14 functions are called by their
exported names (the default provider's table is 1.7's)."""
import ctypes as C

from ._types import QnnError

_P = C.c_void_p


class Dlc:
    """A QnnSystemDlc handle. backend.dlc(destination_dir=None) makes an empty one,
    backend.open_dlc(path_or_bytes) opens one; close() (or a with block) frees it."""

    def __init__(self, backend, source=None, destination_dir=None):
        self.backend, self._handle = backend, None
        self._dll = backend._system().dll
        handle = _P()
        if source is None:
            err = self._fn("createWithDestinationDir", _P, C.c_char_p, C.POINTER(_P))(
                None, destination_dir.encode() if destination_dir else None, C.byref(handle))
            what = "QnnSystemDlc_createWithDestinationDir"
        elif isinstance(source, (bytes, bytearray)):
            buf = C.create_string_buffer(bytes(source), len(source))
            err = self._fn("createFromBinary", _P, _P, C.c_uint64, C.POINTER(_P))(None, C.cast(buf, _P), len(source),
                                                                                C.byref(handle))
            what = "QnnSystemDlc_createFromBinary"
        else:
            err = self._fn("createFromFile", _P, C.c_char_p, C.POINTER(_P))(None, str(source).encode(), C.byref(handle))
            what = "QnnSystemDlc_createFromFile"
        backend._check(err, what)
        self._handle = handle

    def _fn(self, name, *argtypes):
        f = getattr(self._dll, "QnnSystemDlc_" + name, None)
        if f is None:
            raise QnnError(f"the system library has no QnnSystemDlc_{name} (system API 1.14)")
        f.argtypes, f.restype = list(argtypes), C.c_uint64
        return f

    def _check_open(self):
        if self._handle is None:
            raise QnnError("the DLC was closed")

    def binary(self):
        """The DLC's bytes (QnnSystemDlc_getBinarySize / getBinary)."""
        self._check_open()
        size = C.c_uint64()
        self.backend._check(self._fn("getBinarySize", _P, C.POINTER(C.c_uint64))(self._handle, C.byref(size)),
                            "QnnSystemDlc_getBinarySize")
        buf, written = C.create_string_buffer(size.value), C.c_uint64()
        self.backend._check(self._fn("getBinary", _P, _P, C.c_uint64, C.POINTER(C.c_uint64))(
            self._handle, C.cast(buf, _P), size.value, C.byref(written)), "QnnSystemDlc_getBinary")
        return buf.raw[:written.value]

    def save(self, path):
        """QnnSystemDlc_save (a relative path goes under the destination directory, when one was given)."""
        self._check_open()
        self.backend._check(self._fn("save", _P, C.c_char_p)(self._handle, str(path).encode()), "QnnSystemDlc_save")

    def record(self, name):
        """A record's bytes by name ("model", "model.raw_weights", "htp_cache.0", ...; docs/dlc-format.md),
        or None when the DLC has none of that name."""
        self._check_open()
        rec = _P()
        self.backend._check(self._fn("getRecordByName", _P, C.c_char_p, C.POINTER(_P))(
            self._handle, name.encode(), C.byref(rec)), "QnnSystemDlc_getRecordByName")
        if not rec.value:
            return None
        data, size = C.POINTER(C.c_uint8)(), C.c_uint64()
        try:
            self.backend._check(self._fn("readRecordDataMemoryMapped", _P, C.POINTER(C.POINTER(C.c_uint8)),
                                         C.POINTER(C.c_uint64))(rec, C.byref(data), C.byref(size)),
                                "QnnSystemDlc_readRecordDataMemoryMapped")
            return C.string_at(data, size.value)
        finally:
            self._fn("freeRecord", _P)(rec)

    def graph_names(self):
        """The names of the DLC's composable graphs, in the DLC's order."""
        self._check_open()
        handles, count = C.POINTER(_P)(), C.c_uint32()
        self.backend._check(self._fn("getComposableGraphInfoHandles", _P, C.POINTER(C.POINTER(_P)),
                                     C.POINTER(C.c_uint32))(self._handle, C.byref(handles), C.byref(count)),
                            "QnnSystemDlc_getComposableGraphInfoHandles")
        get_name = self._fn("getComposableGraphInfoGraphName", _P, C.POINTER(C.c_char_p))
        names = []
        for i in range(count.value):
            name = C.c_char_p()
            self.backend._check(get_name(handles[i], C.byref(name)), "QnnSystemDlc_getComposableGraphInfoGraphName")
            names.append(name.value.decode())
        return names

    def close(self):
        if self._handle is not None:
            self._fn("free", _P)(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
