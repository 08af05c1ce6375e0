"""Backends, contexts and graphs over the QNN C API, through ctypes (see __init__.py for the overview)."""
import ctypes as C
import logging
import os

import numpy as np

from . import _abi as A
from ._build import GraphBuilder
from ._config import backend_configs, context_configs
from ._dlc import Dlc
from ._graph import Graph, TensorInfo
from ._memory import RegisteredTensor, SharedBuffer
from ._types import DTYPE_NAMES, DTYPES, QnnError  # noqa: F401  (qnn._core.QnnError, as before)

_log = logging.getLogger("qnn")

_LOG_LEVELS = {"error": 1, "warn": 2, "info": 3, "verbose": 4, "debug": 5}
_PY_LEVEL = {1: logging.ERROR, 2: logging.WARNING, 3: logging.INFO, 4: logging.DEBUG, 5: logging.DEBUG}

_libc = C.CDLL(None)
_libc.vsnprintf.argtypes = [C.c_char_p, C.c_size_t, C.c_char_p, C.c_void_p]


def _format(fmt, args):
    buf = C.create_string_buffer(2048)
    _libc.vsnprintf(buf, len(buf), fmt, args)
    return buf.value.decode("utf-8", "replace")


class _Library:
    """A dlopen'ed QNN library and its chosen provider's function table."""

    def __init__(self, path, system=False):
        try:
            self.dll = C.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        except OSError as e:
            raise QnnError(f"cannot load '{path}': {e}") from None
        self.path = path
        entry = "QnnSystemInterface_getProviders" if system else "QnnInterface_getProviders"
        try:
            get = getattr(self.dll, entry)
        except AttributeError:
            raise QnnError(f"'{path}' is not a QNN {'system library' if system else 'backend'}: no {entry}") from None
        kind = A.SystemInterface if system else A.Interface
        get.argtypes = [C.POINTER(C.POINTER(C.POINTER(kind))), C.POINTER(C.c_uint32)]
        get.restype = C.c_uint64
        providers, count = C.POINTER(C.POINTER(kind))(), C.c_uint32()
        # An OpenQNN backend is asked for its API 2.39 provider (the 75-member table: the calls 2.39
        # added are reachable too); any other backend for its providers.
        for_api = None if system else getattr(self.dll, "OpenQnn_getProvidersForClientApi", None)
        if for_api is not None:
            for_api.argtypes = [C.c_uint32, C.c_uint32, C.POINTER(C.POINTER(C.POINTER(A.Interface2_39))),
                                C.POINTER(C.c_uint32)]
            for_api.restype = C.c_uint64
            newest = C.POINTER(C.POINTER(A.Interface2_39))()
            if for_api(A.API_MAJOR, 39, C.byref(newest), C.byref(count)) == 0 and count.value:
                self.provider = newest[0].contents
                return
        err = get(C.byref(providers), C.byref(count))
        if err or count.value == 0:
            raise QnnError(f"{entry} of '{path}' failed (error {err})", err)
        # The API's version rule: the provider's major equals ours and its minor is at least ours.
        self.provider = None
        for i in range(count.value):
            p = providers[i].contents
            v = p.systemApiVersion if system else p.apiVersion.coreApiVersion
            want_major, want_minor = (A.SYSTEM_API_MAJOR, 0) if system else (A.API_MAJOR, A.API_MINOR)
            if v.major == want_major and v.minor >= want_minor:
                # A provider of 2.39 or newer holds the 75-member table.
                self.provider = (C.cast(providers[i], C.POINTER(A.Interface2_39)).contents
                                 if not system and v.minor >= 39 else p)
                break
        if self.provider is None:
            raise QnnError(f"'{path}' has no provider of {'system API 1.x' if system else 'core API 2.32+'}")

    def table_2_32(self):
        """The 2.32 table (QNN_INTERFACE_VER_TYPE of include/QNN): the first 71 members of the provider's."""
        t = self.provider.table
        return A.InterfaceTable.from_buffer_copy(C.string_at(C.addressof(t), C.sizeof(A.InterfaceTable)))

    def fn(self, name):
        ptr = getattr(self.provider.table, name, None)
        if not ptr:
            raise QnnError(f"{os.path.basename(self.path)} does not implement {name}")
        return A.FN[name](ptr)


_UNITS = {1: "us", 2: "bytes", 3: "cycles", 4: "count", 5: "object", 6: "none"}


class ProfileEvent:
    """One profiling event: type (QnnProfile_EventType_t), unit ("us", "cycles", ...), value, identifier
    (e.g. "conv (Conv2d)" for a node), and its sub-events (the nodes of a graph execute, at detailed level)."""

    def __init__(self, type_, unit, value, identifier, sub_events):
        self.type, self.unit, self.value, self.identifier, self.sub_events = type_, unit, value, identifier, sub_events

    def __repr__(self):
        return f"ProfileEvent({self.identifier!r}, {self.value} {self.unit}, {len(self.sub_events)} sub-events)"


class Context:
    """A context: loaded from a context binary (.graphs {name: Graph}) or new and empty (graph() builds
    graphs into it, save() writes it as a context binary). Free with close() (or a with block)."""

    def __init__(self, backend, binary=None, configs=None):
        self.backend, self._handle, self.graphs, self._sysctx = backend, None, {}, None
        self._registered = set()
        configs = configs or {}
        self._configs = context_configs(backend.backend_id, **configs)  # alive as long as the context
        if binary is None:
            handle = C.c_void_p()
            backend._check(backend._lib.fn("contextCreate")(backend._handle, backend._device, self._configs.pointer(),
                                                            C.byref(handle)), "QnnContext_create")
            self._handle = handle
            return
        enabled = configs.get("enable_graphs")
        self._binary = C.create_string_buffer(bytes(binary), len(binary))
        sys_lib = backend._system()
        sysctx = C.c_void_p()
        backend._check(sys_lib.fn("systemContextCreate")(C.byref(sysctx)), "QnnSystemContext_create")
        self._sysctx, self._sys = sysctx, sys_lib
        try:
            info_p, size = C.POINTER(A.BinaryInfo)(), C.c_uint64()
            err = sys_lib.fn("systemContextGetBinaryInfo")(sysctx, C.cast(self._binary, C.c_void_p), len(binary),
                                                            C.byref(info_p), C.byref(size))
            backend._check(err, "QnnSystemContext_getBinaryInfo (not a context binary of this SDK?)")
            # V1 and V2 share the leading fields up to the graphs; V3 (HTP binaries) lays them out without
            # the hardware-info blob
            version = info_p.contents.version
            if version not in (1, 2, 3):
                raise QnnError(f"unknown binary info version {version}")
            info = info_p.contents.contextBinaryInfoV3 if version == 3 else info_p.contents.contextBinaryInfoV1
            handle = C.c_void_p()
            err = backend._lib.fn("contextCreateFromBinary")(backend._handle, backend._device, self._configs.pointer(),
                                                              C.cast(self._binary, C.c_void_p), len(binary),
                                                              C.byref(handle), None)
            backend._check(err, "QnnContext_createFromBinary")
            self._handle = handle
            for g in range(info.numGraphs):
                gi = info.graphs[g].graphInfoV1
                name = gi.graphName.decode()
                if enabled is not None and name not in enabled:
                    continue  # not loaded (QNN_CONTEXT_CONFIG_ENABLE_GRAPHS)
                gh = C.c_void_p()
                backend._check(backend._lib.fn("graphRetrieve")(handle, gi.graphName, C.byref(gh)),
                               f"QnnGraph_retrieve of graph '{name}'")
                self.graphs[name] = Graph(self, gh, name,
                                          [TensorInfo(gi.graphInputs[i]) for i in range(gi.numGraphInputs)],
                                          [TensorInfo(gi.graphOutputs[i]) for i in range(gi.numGraphOutputs)])
        except Exception:
            self.close()
            raise

    def _check_open(self):
        if self._handle is None:
            raise QnnError("the context was closed")

    def graph(self, name, priority=None, htp=None):
        """A new graph in this context to build (see GraphBuilder): inputs, constants, ops, finalize().
        priority and htp={...} are its graph configs (see set_config of Graph)."""
        self._check_open()
        return GraphBuilder(self, name, priority=priority, htp=htp)

    def set_config(self, **configs):
        """QnnContext_setConfig with the keyword configs Backend.context takes."""
        self._check_open()
        cfg = context_configs(self.backend.backend_id, **configs)
        if cfg.entries:
            self.backend._check(self.backend._lib.fn("contextSetConfig")(self._handle, cfg.typed(A.ContextConfig)),
                                "QnnContext_setConfig")

    def register(self, dims, dtype, mem_type="ion", buffer=None, offset=0):
        """Registers shared memory for tensors of `dims` and QNN datatype name `dtype` ("FLOAT_32",
        "UFIXED_POINT_8", ...) with this context: a RegisteredTensor (its .array is the memory). mem_type:
        "ion" or "dma_buf" (the tensor starts at the buffer's first byte) or "htp_shared_buffer" (the HTP's
        QnnMemHtp_Descriptor_t: a tensor at `offset` of a buffer several tensors share). Without `buffer` a
        new SharedBuffer of the tensor's size is made."""
        self._check_open()
        values = {v: k for k, v in DTYPE_NAMES.items()}
        if dtype not in values or values[dtype] not in DTYPES:
            raise ValueError(f"unknown datatype {dtype!r}; one of {sorted(values)}")
        qnn_dtype = values[dtype]
        dims = tuple(int(d) for d in dims)
        if not dims or min(dims) <= 0:
            raise ValueError(f"registered memory needs positive dims, got {list(dims)}")
        own = buffer is None
        if own:
            buffer = SharedBuffer(int(np.prod(dims, dtype=np.int64)) * np.dtype(DTYPES[qnn_dtype]).itemsize)
        elif not isinstance(buffer, SharedBuffer) or buffer.fd is None:
            raise ValueError("buffer must be an open qnn.SharedBuffer")
        try:
            mem = RegisteredTensor(self, dims, qnn_dtype, DTYPES[qnn_dtype], buffer, offset, mem_type)
        except Exception:
            if own:
                buffer.close()
            raise
        self._registered.add(mem)
        return mem

    def binary(self):
        """The context as a context binary (bytes): QnnContext_getBinary."""
        self._check_open()
        lib = self.backend._lib
        size = C.c_uint64()
        self.backend._check(lib.fn("contextGetBinarySize")(self._handle, C.byref(size)), "QnnContext_getBinarySize")
        buf, written = C.create_string_buffer(size.value), C.c_uint64()
        self.backend._check(lib.fn("contextGetBinary")(self._handle, C.cast(buf, C.c_void_p), size.value,
                                                       C.byref(written)), "QnnContext_getBinary")
        return buf.raw[:written.value]

    def add_to_dlc(self, dlc):
        """QnnContext_addToDlc (API 2.39): this context's finalized graphs, and its binary as a cache
        record, into a qnn.Dlc of this backend's system library (backend.dlc())."""
        self._check_open()
        dlc._check_open()
        self.backend._check(self.backend._lib.fn("contextAddToDlc")(self._handle, dlc._handle), "QnnContext_addToDlc")

    def save(self, path):
        """Writes the context binary to path (loadable by load_context and qnn-net-run --retrieve_context)."""
        data = self.binary()
        with open(path, "wb") as f:
            f.write(data)

    def close(self):
        for mem in list(self._registered):  # the backend releases them with the context; say so here
            mem.handle = None
        self._registered.clear()
        if self._handle is not None:
            self.backend._lib.fn("contextFree")(self._handle, None)
            self._handle = None
        if self._sysctx:
            self._sys.fn("systemContextFree")(self._sysctx)
            self._sysctx = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Backend:
    """A QNN backend library (path, or a name such as 'libQnnCpu.so' found on the loader's path), with a
    backend handle. Backend log messages go to the Python logger 'qnn' at the chosen level."""

    def __init__(self, path, log_level="warn", system_library=None, profile=None, saver_backend=None,
                 output_dir=None, device=False, platform_options=None):
        """profile: None, "basic" or "detailed" (each run's events in graph.profile). saver_backend: with
        the Saver (libQnnSaver.so) as path, the backend it records calls to (QNN_SAVER_BACKEND), its
        recording written to output_dir (QnnSaver_initialize). device: create a device
        (QnnDevice_create with default configs) that every context of this backend is made on.
        platform_options: ["key:value", ...] given as QNN_BACKEND_CONFIG_OPTION_PLATFORM configs."""
        if log_level not in _LOG_LEVELS:
            raise ValueError(f"log_level must be one of {list(_LOG_LEVELS)}")
        if profile not in (None, "basic", "detailed"):
            raise ValueError("profile must be None, 'basic' or 'detailed'")
        self._profile, self._seen_events, self._device = None, set(), None
        if saver_backend:
            os.environ["QNN_SAVER_BACKEND"] = saver_backend  # read by the Saver when it creates its backend
        self._lib = _Library(path)
        if output_dir:
            init = getattr(self._lib.dll, "QnnSaver_initialize", None)
            if init is None:
                raise QnnError(f"output_dir is for the Saver; '{path}' has no QnnSaver_initialize")
            os.makedirs(output_dir, exist_ok=True)
            cfg = A.SaverConfig(0, output_dir.encode(), None)  # QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY
            self._saver_dir = cfg.outputDirectory
            cfgs = (C.POINTER(A.SaverConfig) * 2)(C.pointer(cfg), None)
            init.argtypes, init.restype = [C.c_void_p], C.c_uint64
            err = init(C.cast(cfgs, C.c_void_p))
            if err:
                raise QnnError(f"QnnSaver_initialize failed with error {err}", err)
        self._system_path = system_library
        self._sys_lib = None
        self._log = C.c_void_p()
        self._last_error_log = None
        self._callback = A.LOG_CALLBACK(self._on_log)  # kept alive as long as the backend
        self._handle = None
        self._check(self._lib.fn("logCreate")(self._callback, _LOG_LEVELS[log_level], C.byref(self._log)),
                    "QnnLog_create")
        self.backend_id = self._lib.provider.backendId
        configs = backend_configs(platform_options)
        handle = C.c_void_p()
        self._check(self._lib.fn("backendCreate")(self._log, configs.pointer(), C.byref(handle)), "QnnBackend_create")
        self._handle = handle
        if device:
            dev = C.c_void_p()
            self._check(self._lib.fn("deviceCreate")(self._log, None, C.byref(dev)), "QnnDevice_create")
            self._device = dev
        if profile:
            p = C.c_void_p()
            self._check(self._lib.fn("profileCreate")(handle, 1 if profile == "basic" else 2, C.byref(p)),
                        "QnnProfile_create")
            self._profile = p
        build = C.c_char_p()
        self.build_id = (build.value.decode() if self._lib.fn("backendGetBuildId")(C.byref(build)) == 0
                         and build.value else "")

    def _on_log(self, fmt, level, _timestamp, args):
        try:
            text = _format(fmt, args)
            if level == 1:  # QNN_LOG_LEVEL_ERROR: the reason a failing call gives, for its QnnError
                self._last_error_log = text
            _log.log(_PY_LEVEL.get(level, logging.DEBUG), "%s", text)
        except Exception:  # a callback must never raise into C
            pass

    def _read_event(self, eid, depth=0):
        data = A.ProfileEventData()
        self._check(self._lib.fn("profileGetEventData")(eid, C.byref(data)), "QnnProfile_getEventData")
        subs = []
        ids, n = C.POINTER(C.c_uint64)(), C.c_uint32()
        if depth < 8 and self._lib.fn("profileGetSubEvents")(eid, C.byref(ids), C.byref(n)) == 0 and ids:
            subs = [self._read_event(ids[i], depth + 1) for i in range(n.value)]
        return ProfileEvent(data.type, _UNITS.get(data.unit, "backend"), data.value,
                            (data.identifier or b"").decode("utf-8", "replace"), subs)

    def _new_profile_events(self):
        """The top-level events added to the profile since the last call.

        The backend reports each event once; an event listed again is skipped."""
        if not self._profile:
            return []
        ids, n = C.POINTER(C.c_uint64)(), C.c_uint32()
        self._check(self._lib.fn("profileGetEvents")(self._profile, C.byref(ids), C.byref(n)), "QnnProfile_getEvents")
        fresh = [ids[i] for i in range(n.value) if ids[i] not in self._seen_events] if ids else []
        self._seen_events.update(fresh)
        return [self._read_event(eid) for eid in fresh]

    def _check(self, err, what):
        logged, self._last_error_log = self._last_error_log, None
        if err:
            text = C.c_char_p()
            msg = ""
            try:
                if self._lib.fn("errorGetMessage")(err, C.byref(text)) == 0 and text.value:
                    msg = ": " + text.value.decode("utf-8", "replace")
            except QnnError:
                pass
            if logged:  # the backend's own words (its log at error level during the call)
                msg += f" ({logged})"
            raise QnnError(f"{what} failed with error {err}{msg}", err)

    def dlc(self, destination_dir=None):
        """An empty System DLC (QnnSystemDlc_createWithDestinationDir) to add contexts to."""
        return Dlc(self, destination_dir=destination_dir)

    def open_dlc(self, source):
        """A System DLC opened from a path or bytes (QnnSystemDlc_createFromFile / createFromBinary)."""
        return Dlc(self, source)

    def _system(self):
        if self._sys_lib is None:
            path = self._system_path or os.path.join(os.path.dirname(os.path.abspath(self._lib.path)),
                                                     "libQnnSystem.so")
            if not os.path.exists(path):
                path = "libQnnSystem.so"
            self._sys_lib = _Library(path, system=True)
        return self._sys_lib

    def set_config(self, platform_options=None):
        """QnnBackend_setConfig with platform options ("key:value" strings)."""
        self._check_open()
        configs = backend_configs(platform_options)
        if configs.entries:
            self._check(self._lib.fn("backendSetConfig")(self._handle, configs.typed(A.BackendConfig)),
                        "QnnBackend_setConfig")

    def context(self, **configs):
        """A new, empty context to build graphs in. Keyword configs (QnnContext_Config_t): priority ("low",
        "normal", "normal_high", "high"), oem_string, memory_limit_hint (MB), persistent_binary,
        defer_graph_init, and htp={...} for the HTP backend (weight_sharing_enabled,
        file_read_memory_budget_mb, share_resources, ...; see _config._HTP_CONTEXT)."""
        self._check_open()
        return Context(self, configs=configs)

    def load_model_library(self, path, dlc_path=None, prefix="QnnModel"):
        """A Context with the graphs of a model library (a converter's model .so, or libQnnModelDlc.so with
        dlc_path) composed and finalized in it: QnnModel_composeGraphs[FromDlc] through this backend."""
        self._check_open()
        try:
            lib = C.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        except OSError as e:
            raise QnnError(f"cannot load model library '{path}': {e}") from None
        entry = "QnnModel_composeGraphsFromDlc" if dlc_path else f"{prefix}_composeGraphs"
        compose = getattr(lib, entry, None)
        free = getattr(lib, "QnnModel_freeGraphsInfo" if dlc_path else f"{prefix}_freeGraphsInfo", None)
        if compose is None or free is None:
            raise QnnError(f"'{path}' is not a model library: no {entry}")
        ctx = Context(self)
        infos, count = C.POINTER(C.POINTER(A.ModelGraphInfo))(), C.c_uint32()
        compose.restype = C.c_int32
        common = [C.c_void_p, A.InterfaceTable, C.c_void_p, C.c_void_p]
        tail = [C.POINTER(C.POINTER(C.POINTER(A.ModelGraphInfo))), C.POINTER(C.c_uint32), C.c_bool, C.c_void_p,
                C.c_int32]
        if dlc_path:
            compose.argtypes = common + [C.c_char_p, C.c_uint32] + tail
            err = compose(self._handle, self._lib.table_2_32(), ctx._handle, None, dlc_path.encode(), 0,
                          C.byref(infos), C.byref(count), False, None, 1)
        else:
            compose.argtypes = common + [C.c_uint32] + tail
            err = compose(self._handle, self._lib.table_2_32(), ctx._handle, None, 0, C.byref(infos),
                          C.byref(count), False, None, 1)
        if err:
            ctx.close()
            raise QnnError(f"{entry} of '{os.path.basename(path)}' failed with model error {err} (the backend's "
                           "log says why)", err)
        try:
            for g in range(count.value):
                gi = infos[g].contents
                name = gi.graphName.decode()
                self._check(self._lib.fn("graphFinalize")(gi.graph, None, None), f"QnnGraph_finalize of '{name}'")
                ctx.graphs[name] = Graph(ctx, C.c_void_p(gi.graph), name,
                                         [TensorInfo(gi.inputTensors[i]) for i in range(gi.numInputTensors)],
                                         [TensorInfo(gi.outputTensors[i]) for i in range(gi.numOutputTensors)])
        except Exception:
            ctx.close()
            raise
        finally:
            free.argtypes, free.restype = [C.c_void_p, C.c_uint32], C.c_int32
            free(C.byref(infos), count.value)  # TensorInfo copied names and dims
        ctx._model_library = lib
        return ctx

    def load_context(self, path_or_bytes, **configs):
        """A Context from a context binary file path or its bytes. Keyword configs as context() takes, and
        enable_graphs=[names]: only those graphs are loaded (QNN_CONTEXT_CONFIG_ENABLE_GRAPHS)."""
        self._check_open()
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(path_or_bytes)
        else:
            with open(path_or_bytes, "rb") as f:
                data = f.read()
        if not data:
            raise ValueError("the context binary is empty")
        return Context(self, data, configs=configs)

    def register_op_package(self, package, interface_provider, target=None):
        """Registers an op package: `package` is its library's path (QnnBackend_registerOpPackage) or
        its bytes (QnnBackend_registerOpPackageFromBinary, API 2.39)."""
        self._check_open()
        provider = interface_provider.encode()
        tgt = target.encode() if target else None
        if isinstance(package, (bytes, bytearray, memoryview)):
            data = bytes(package)
            buf = C.create_string_buffer(data, len(data))
            self._check(self._lib.fn("backendRegisterOpPackageFromBinary")(self._handle, C.cast(buf, C.c_void_p),
                                                                           len(data), provider, tgt),
                        "QnnBackend_registerOpPackageFromBinary")
        else:
            self._check(self._lib.fn("backendRegisterOpPackage")(self._handle, os.fsencode(package), provider, tgt),
                        f"QnnBackend_registerOpPackage of '{package}'")

    def _check_open(self):
        if self._handle is None:
            raise QnnError("the backend was closed")

    def platform_info(self):
        """The hardware the backend reports (QnnDevice_getPlatformInfo): a list of
        {"device_id", "device_type", "cores": [(core_id, core_type), ...]}. Raises QnnError where the
        backend does not report it (the CPU backend, as the vendor's)."""
        self._check_open()
        info = C.POINTER(A.PlatformInfo)()
        self._check(self._lib.fn("deviceGetPlatformInfo")(self._log, C.byref(info)), "QnnDevice_getPlatformInfo")
        try:
            v = info.contents.v1
            out = []
            for i in range(v.numHwDevices):
                d = v.hwDevices[i].v1
                out.append({"device_id": d.deviceId, "device_type": d.deviceType,
                            "cores": [(d.cores[k].v1.coreId, d.cores[k].v1.coreType) for k in range(d.numCores)]})
            return out
        finally:
            self._lib.fn("deviceFreePlatformInfo")(self._log, info)

    def close(self):
        if self._profile:
            self._lib.fn("profileFree")(self._profile)
            self._profile = None
        if self._device:
            self._lib.fn("deviceFree")(self._device)
            self._device = None
        if self._handle is not None:
            self._lib.fn("backendFree")(self._handle)
            self._handle = None
        if self._log:
            self._lib.fn("logFree")(self._log)
            self._log = C.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
