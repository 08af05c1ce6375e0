"""Backend, context and graph configs from keyword arguments: each becomes the NULL-terminated array of
QnnBackend_Config_t / QnnContext_Config_t / QnnGraph_Config_t pointers the API takes, with the HTP backend's
custom structs (QnnHtpGraph_CustomConfig_t, QnnHtpContext_CustomConfig_t) for the `htp={...}` dicts. Unknown
names and values raise ValueError before anything reaches the backend."""
import ctypes as C

from . import _abi as A

BACKEND_ID_HTP = 6  # QNN_BACKEND_ID_HTP

# Qnn_Priority_t (API 2.39's scale: LOWEST 0 .. CRITICAL_PLUS 500 = HIGHEST).
PRIORITIES = {"lowest": 0, "low": 0, "normal_low": 50, "normal": 100, "default": 100, "normal_high": 150,
              "high": 200, "high_plus": 300, "critical": 400, "critical_plus": 500, "highest": 500}

# htp={...} of a graph: name -> (QNN_HTP_GRAPH_CONFIG_OPTION_*, union member, Python type). The names follow
# the HTP backend extension config of qnn-net-run where it has one (vtcm_mb, hvx_threads, O, dlbc).
_HTP_GRAPH = {
    "vtcm_mb": (3, "vtcmSizeInMB", int),
    "vtcm_bytes": (10, "vtcmSizeInBytes", int),
    "hvx_threads": (6, "numHvxThreads", int),
    "num_cores": (8, "numCores", int),
    "fold_relu_activation_into_conv_off": (4, "foldReluActivationIntoConvOff", bool),
    "short_depth_conv_on_hmx_off": (5, "shortDepthConvOnHmxOff", bool),
    "weights_packing": (12, "weightsPacking", bool),
    "assume_same_quant": (13, "assumeSameQuant", bool),
    "share_io_buffer": (14, "shareIOBuffer", bool),
    "advanced_activation_fusion": (15, "advancedActivationFusion", bool),
    "high_precision_sigmoid": (16, "highPrecisionSigmoid", bool),
    "monolithic_lstm": (17, "monolithicLstm", bool),
    "precision_compensation": (18, "precisionCompensation", bool),
    "enable_predication": (19, "enablePredication", bool),
    "fp16_clamp_overflow": (20, "fp16ClampOverflow", bool),
}
# QNN_HTP_GRAPH_CONFIG_OPTION_OPTIMIZATION: name -> QnnHtpGraph_OptimizationType_t.
_HTP_OPTIMIZATION = {"O": 3, "finalize_optimization_flag": 3, "schedule_threshold": 1, "finalize_retries": 2,
                     "dlbc": 4, "dlbc_weights": 5, "sparse_weights_compression": 6, "slc_allocator": 7,
                     "vtcm_retention": 8, "cached_weights": 9}
_PRECISION = {"float32": 0, "float16": 1}

# htp={...} of a context: name -> (QNN_HTP_CONTEXT_CONFIG_OPTION_*, union member, Python type).
_HTP_CONTEXT = {
    "weight_sharing_enabled": (1, "weightSharingEnabled", bool),
    "file_read_memory_budget_mb": (3, "fileReadMemoryBudgetInMb", int),
    "dsp_memory_profiling": (4, "dspMemoryProfilingEnabled", bool),
    "share_resources": (5, "shareResources", bool),
    "io_mem_estimation": (6, "ioMemEstimation", bool),
    "prepare_only": (7, "isPrepareOnly", bool),
    "init_acceleration": (8, "initAcceleration", bool),
    "skip_validation_on_binary_section": (9, "skipValidationOnBinarySection", bool),
    "use_extended_udma": (11, "useExtendedUdma", bool),
    "lora_weight_sharing_enabled": (13, "loraWeightSharingEnabled", bool),
}


class ConfigList:
    """A NULL-terminated array of config pointers and everything it points to, kept alive together."""

    def __init__(self, struct_type, entries, keep):
        self.entries, self._keep = entries, keep
        self.array = (C.POINTER(struct_type) * (len(entries) + 1))(*[C.pointer(e) for e in entries], None)

    def pointer(self):
        """The array as the API's `const Qnn..._Config_t**` (None when empty: the API's "no configs")."""
        return C.cast(self.array, C.c_void_p) if self.entries else None

    def typed(self, struct_type):
        return C.cast(self.array, C.POINTER(C.POINTER(struct_type)))


def _value(kind, name, value):
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def _priority(value, what):
    if value not in PRIORITIES:
        raise ValueError(f"{what} priority must be one of {sorted(PRIORITIES)}, got {value!r}")
    return PRIORITIES[value]


def _require_htp(backend_id, htp):
    if htp and backend_id != BACKEND_ID_HTP:
        raise ValueError(f"htp={{...}} configs are the HTP backend's (backend id {BACKEND_ID_HTP}); this backend's "
                         f"id is {backend_id}")
    if htp is not None and not isinstance(htp, dict):
        raise ValueError("htp must be a dict of HTP config names to values")


def _unknown(kind, names, known):
    raise ValueError(f"unknown {kind} config {sorted(names)}; known: {sorted(known)}")


def backend_configs(platform_options=None):
    """QnnBackend_Config_t list: platform_options is a list of "key:value" strings
    (QNN_BACKEND_CONFIG_OPTION_PLATFORM)."""
    entries, keep = [], []
    for opt in platform_options or []:
        if not isinstance(opt, str) or not opt:
            raise ValueError(f"platform options are non-empty strings, got {opt!r}")
        text = opt.encode()
        keep.append(text)
        entries.append(A.BackendConfig(option=2, platformOption=text))
    return ConfigList(A.BackendConfig, entries, keep)


def context_configs(backend_id, priority=None, oem_string=None, enable_graphs=None, memory_limit_hint=None,
                    persistent_binary=None, defer_graph_init=None, htp=None):
    """QnnContext_Config_t list. enable_graphs: the graph names a context binary is loaded with (the others are
    not); memory_limit_hint in MB; htp: {name: value} of QnnHtpContext_CustomConfig_t options (_HTP_CONTEXT)."""
    _require_htp(backend_id, htp)
    entries, keep = [], []
    if priority is not None:
        entries.append(A.ContextConfig(option=1, priority=_priority(priority, "context")))
    if oem_string is not None:
        text = str(oem_string).encode()
        keep.append(text)
        entries.append(A.ContextConfig(option=3, oemString=text))
    if enable_graphs is not None:
        if isinstance(enable_graphs, str) or not all(isinstance(n, str) and n for n in enable_graphs):
            raise ValueError("enable_graphs must be a list of graph names")
        names = (C.c_char_p * (len(enable_graphs) + 1))(*[n.encode() for n in enable_graphs], None)
        keep.append(names)
        entries.append(A.ContextConfig(option=5, enableGraphs=C.cast(names, C.POINTER(C.c_char_p))))
    if memory_limit_hint is not None:
        entries.append(A.ContextConfig(option=6, memoryLimitHint=_value(int, "memory_limit_hint", memory_limit_hint)))
    if persistent_binary is not None:
        entries.append(A.ContextConfig(option=7, isPersistentBinary=_value(bool, "persistent_binary",
                                                                             persistent_binary)))
    if defer_graph_init is not None:
        entries.append(A.ContextConfig(option=9, isGraphInitDeferred=_value(bool, "defer_graph_init",
                                                                              defer_graph_init)))
    for name, value in (htp or {}).items():
        if name not in _HTP_CONTEXT:
            _unknown("HTP context", [name], _HTP_CONTEXT)
        option, member, kind = _HTP_CONTEXT[name]
        custom = A.HtpContextCustomConfig(option=option)
        setattr(custom, member, _value(kind, name, value))
        keep.append(custom)
        entries.append(A.ContextConfig(option=0, customConfig=C.cast(C.pointer(custom), C.c_void_p)))
    return ConfigList(A.ContextConfig, entries, keep)


def graph_configs(backend_id, priority=None, htp=None):
    """QnnGraph_Config_t list. htp: {name: value}: "precision" ("float16" / "float32"), the optimization
    types ("O" = finalize optimization flag, "dlbc", "schedule_threshold", ...) and the names of _HTP_GRAPH."""
    _require_htp(backend_id, htp)
    entries, keep = [], []
    if priority is not None:
        entries.append(A.GraphConfig(option=3, priority=_priority(priority, "graph")))
    for name, value in (htp or {}).items():
        custom = A.HtpGraphCustomConfig()
        if name == "precision":
            if value not in _PRECISION:
                raise ValueError(f"precision must be one of {sorted(_PRECISION)}, got {value!r}")
            custom.option, custom.precision = 2, _PRECISION[value]
        elif name in _HTP_OPTIMIZATION:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{name} must be a number, got {value!r}")
            custom.option = 1
            custom.optimizationOption = A.HtpGraphOptimizationOption(_HTP_OPTIMIZATION[name], float(value))
        elif name in _HTP_GRAPH:
            option, member, kind = _HTP_GRAPH[name]
            custom.option = option
            setattr(custom, member, _value(kind, name, value))
        else:
            _unknown("HTP graph", [name], list(_HTP_GRAPH) + list(_HTP_OPTIMIZATION) + ["precision"])
        keep.append(custom)
        entries.append(A.GraphConfig(option=0, customConfig=C.cast(C.pointer(custom), C.c_void_p)))
    return ConfigList(A.GraphConfig, entries, keep)
