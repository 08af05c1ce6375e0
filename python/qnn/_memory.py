"""Shared memory for graph inputs and outputs (QnnMem_register): a buffer the backend maps once and reads
and writes in place on every run, so nothing is copied between Python and the backend."""
import ctypes as C
import mmap
import os

import numpy as np

from . import _abi as A

MEM_TYPES = {"ion": 1, "dma_buf": 3, "htp_shared_buffer": 2}  # Qnn_MemType_t (CUSTOM for the HTP's struct)
_HTP_SHARED_BUFFER = 1  # QNN_HTP_MEM_SHARED_BUFFER


class SharedBuffer:
    """An anonymous shared-memory file (memfd) mapped into this process: one allocation that several tensors
    can be registered in at offsets (mem_type="htp_shared_buffer"), as rpcmem buffers are on a device."""

    def __init__(self, size):
        if not isinstance(size, int) or size <= 0:
            raise ValueError(f"a shared buffer's size must be a positive integer, got {size!r}")
        self.fd = os.memfd_create("qnn-shared-buffer", os.MFD_CLOEXEC)
        try:
            os.ftruncate(self.fd, size)
            self._map = mmap.mmap(self.fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except OSError:
            os.close(self.fd)
            raise
        self.size = size
        self._views = 0

    def view(self, shape, dtype, offset=0):
        """A numpy array over bytes [offset, offset + its size) of the buffer."""
        dtype = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
        if offset < 0 or offset + count * dtype.itemsize > self.size:
            raise ValueError(f"{count * dtype.itemsize} bytes at offset {offset} do not fit in a shared buffer of "
                             f"{self.size} bytes")
        return np.frombuffer(self._map, dtype=dtype, count=count, offset=offset).reshape(shape)

    def close(self):
        """Closes the file descriptor; the mapping goes when the last array viewing it does (memory the
        backend registered stays mapped on its side until deregistered)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            try:
                self._map.close()
            except BufferError:  # numpy views still use it
                pass

    def __del__(self):
        if getattr(self, "fd", None) is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RegisteredTensor:
    """Memory registered with a context for tensors of one shape and datatype (QnnMem_register): `.array` is
    the numpy view of it; pass the object itself as a graph input or output to run() and the backend reads
    or writes it in place. deregister() (or the context's close) releases the handle."""

    def __init__(self, context, dims, qnn_dtype, np_dtype, buffer, offset, mem_type):
        self.context, self.dims, self.qnn_dtype = context, tuple(dims), qnn_dtype
        self.buffer, self.offset, self.mem_type = buffer, offset, mem_type
        self.array = buffer.view(self.dims, np_dtype, offset)  # checks the bytes fit first
        if mem_type not in MEM_TYPES:
            raise ValueError(f"mem_type must be one of {sorted(MEM_TYPES)}, got {mem_type!r}")
        if mem_type != "htp_shared_buffer" and offset != 0:
            raise ValueError(f"an {mem_type} descriptor has no offset: its tensor starts at the fd's first byte "
                             "(use mem_type='htp_shared_buffer' for tensors at offsets)")
        self._dims = (C.c_uint32 * len(self.dims))(*self.dims)
        desc = A.MemDescriptor()
        desc.memShape = A.MemShape(len(self.dims), self._dims, None)
        desc.dataType, desc.memType = qnn_dtype, MEM_TYPES[mem_type]
        if mem_type == "ion":
            desc.ionFd = buffer.fd
        elif mem_type == "dma_buf":
            desc.dmaBufInfo = A.MemDmaBufInfo(buffer.fd, None)
        else:
            self._htp = A.MemHtpDescriptor(type=_HTP_SHARED_BUFFER, size=buffer.size)
            self._htp.sharedBufferConfig = A.HtpSharedBufferConfig(buffer.fd, offset)
            desc.customInfo = C.cast(C.pointer(self._htp), C.c_void_p)
        backend = context.backend
        handle = C.c_void_p()
        err = backend._lib.fn("memRegister")(context._handle, C.byref(desc), 1, C.byref(handle))
        backend._check(err, f"QnnMem_register of {mem_type} memory {list(self.dims)}")
        self.handle = handle

    @property
    def registered(self):
        return self.handle is not None

    def deregister(self):
        """QnnMem_deRegister; the buffer stays mapped for Python until closed."""
        if self.handle is not None:
            backend = self.context.backend
            h = self.handle
            self.handle = None
            self.context._registered.discard(self)
            backend._check(backend._lib.fn("memDeRegister")(C.byref(h), 1), "QnnMem_deRegister")

    def __repr__(self):
        state = "registered" if self.handle is not None else "deregistered"
        return f"RegisteredTensor({list(self.dims)}, {self.array.dtype}, {self.mem_type}, {state})"
