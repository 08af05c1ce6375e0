"""Load an ONNX model: parse, pin dynamic input dims, infer static shapes, fold constants."""
import os

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference

from qnn.errors import ConverterError, first_line, onnx_np_dtype
from . import fold


class OnnxModel:
    """What the op converters see: nodes in order, constants, shapes and dtypes by tensor name."""
    def __init__(self):
        self.nodes = []
        self.consts = {}       # name -> numpy array
        self.shapes = {}       # name -> list of ints
        self.dtypes = {}       # name -> numpy dtype
        self.inputs = []       # graph input names (not initializers)
        self.outputs = []      # graph output names
        # Graph inputs with dynamic dims -> the error to give if a converter needs them: an input only read
        # for values the static shapes already fix (e.g. Reduce axes) never becomes a QNN graph input.
        self.dynamic_inputs = {}
        self.opset = 0


def _elem_dtype(elem_type):
    return onnx_np_dtype(elem_type)


def _collect_value_info(m, model):
    vis = list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output)
    for vi in vis:
        t = vi.type.tensor_type
        if not t.HasField("elem_type") or t.elem_type == 0:
            continue
        model.dtypes[vi.name] = _elem_dtype(t.elem_type)
        if t.HasField("shape"):
            dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
            if all(d is not None and d >= 0 for d in dims):
                model.shapes[vi.name] = dims


def _pin_inputs(m, input_dims, init_names):
    """Applies --input_dim; returns {input: error} for the inputs left with dynamic dims."""
    pinned, dynamic = set(), {}
    for vi in m.graph.input:
        if vi.name in init_names:
            continue
        dims = vi.type.tensor_type.shape.dim
        if vi.name in input_dims:
            want = input_dims[vi.name]
            if len(want) != len(dims):
                raise ConverterError(f"--input_dim {vi.name}: {len(want)} dims given, the model's input has rank {len(dims)}")
            for d, v in zip(dims, want):
                if d.HasField("dim_value") and d.dim_value > 0 and d.dim_value != v:
                    raise ConverterError(f"--input_dim {vi.name}: dim {v} differs from the model's static dim {d.dim_value}")
                d.ClearField("dim_param")
                d.dim_value = v
            pinned.add(vi.name)
        elif any(not d.HasField("dim_value") or d.dim_value <= 0 for d in dims):
            shown = ",".join(str(d.dim_value) if d.HasField("dim_value") and d.dim_value > 0 else (d.dim_param or "?") for d in dims)
            dynamic[vi.name] = f"input '{vi.name}' has dynamic dims [{shown}]; pin them with --input_dim {vi.name} N,C,H,W"
    unknown = set(input_dims) - pinned
    if unknown:
        raise ConverterError(f"--input_dim names no graph input: {', '.join(sorted(unknown))}")
    return dynamic


def load(path, input_dims, out_nodes, keep_disconnected):
    try:
        m = onnx.load(path)
    except Exception as e:  # protobuf DecodeError, OSError, ...
        raise ConverterError(f"cannot read ONNX model '{path}': {first_line(e)}")
    if len(m.graph.node) == 0 and len(m.graph.output) == 0:
        raise ConverterError(f"'{path}' is not an ONNX model (no graph)")
    try:
        onnx.checker.check_model(m)
    except Exception as e:
        raise ConverterError(f"invalid ONNX model '{path}': {first_line(e)}")
    model = OnnxModel()
    model.opset = max([o.version for o in m.opset_import if o.domain in ("", "ai.onnx")] or [0])
    if m.functions:
        m = onnx.inliner.inline_local_functions(m) if hasattr(onnx, "inliner") else m
    init_names = {i.name for i in m.graph.initializer}
    model.dynamic_inputs = _pin_inputs(m, input_dims, init_names)
    for init in m.graph.initializer:
        try:
            model.consts[init.name] = numpy_helper.to_array(init)
        except Exception as e:  # data that does not fit its dims, an unknown data type, ...
            raise ConverterError(f"invalid ONNX model '{path}': initializer '{init.name}' is malformed "
                                 f"({first_line(e)})")
    model.inputs = [vi.name for vi in m.graph.input if vi.name not in init_names]
    model.outputs = list(out_nodes) if out_nodes else [vi.name for vi in m.graph.output]
    _check_size_attributes(m.graph, path)
    m = _infer_with_contrib(m)
    _collect_value_info(m, model)
    nodes = list(m.graph.node)
    # fold everything computable from constants and static shapes, then infer again
    remaining = fold.fold_constants(nodes, model)
    if len(remaining) != len(nodes):
        del m.graph.node[:]
        m.graph.node.extend(remaining)
        del m.graph.initializer[:]
        for name, arr in model.consts.items():
            m.graph.initializer.extend([numpy_helper.from_array(np.asarray(arr), name)])
        m = _infer_with_contrib(m)
        _collect_value_info(m, model)
    known = set(model.consts) | set(model.inputs) | {o for n in remaining for o in n.output}
    for o in model.outputs:
        if o not in known:
            raise ConverterError(f"--out_node '{o}' is not a tensor of the model")
    model.nodes = remaining if keep_disconnected else _prune(remaining, model.outputs)
    return model


# Attributes ONNX's shape inference divides by (in C++: a 0 there ends the process with SIGFPE
# instead of an error): strides, dilations, kernel sizes, groups, block sizes.
_SIZE_ATTRIBUTES = ("strides", "dilations", "kernel_shape", "group", "blocksize")


def _check_size_attributes(graph, path):
    for node in graph.node:
        for a in node.attribute:
            if a.name in _SIZE_ATTRIBUTES:
                values = list(a.ints) if a.type == onnx.AttributeProto.INTS else [a.i]
                if any(v <= 0 for v in values):
                    label = node.name or (node.output[0] if node.output else node.op_type)
                    raise ConverterError(f"invalid ONNX model '{path}': node '{label}' ({node.op_type}) has "
                                         f"{a.name} {values}: every value must be positive")
            if a.type == onnx.AttributeProto.GRAPH:
                _check_size_attributes(a.g, path)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for g in a.graphs:
                    _check_size_attributes(g, path)


def _infer(m):
    """ONNX's shape inference, in a forked child: on some malformed models its C++ code crashes
    (a Conv whose input has fewer dims than its weight reads past the input's shape: SIGSEGV),
    which would end the converter with no message; the crash becomes the converter's error."""
    try:
        read_end, write_end = os.pipe()
        pid = os.fork()
    except OSError:  # no fork here: run it in this process
        return _infer_here(m)
    if pid == 0:  # the child: the inferred model (b"K" + bytes) or the error (b"E" + text) into the pipe
        try:
            os.close(read_end)
            try:
                reply = b"K" + _infer_here(m).SerializeToString()
            except ConverterError as e:
                reply = b"E" + str(e).encode("utf-8", "replace")
            except Exception as e:  # e.g. a result too large for one protobuf message
                reply = b"E" + f"ONNX shape inference failed: {first_line(e)}".encode("utf-8", "replace")
            with os.fdopen(write_end, "wb") as f:
                f.write(reply)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        reply = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or not reply:
        why = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else "no result"
        raise ConverterError(f"ONNX shape inference crashed on this model ({why}): it is malformed, e.g. an "
                             "input with fewer dims than its node needs")
    if reply[:1] == b"E":
        raise ConverterError(reply[1:].decode("utf-8", "replace"))
    inferred = onnx.ModelProto()
    inferred.ParseFromString(reply[1:])
    return inferred


def _infer_with_contrib(m):
    """_infer(), plus the output shapes of com.microsoft.GroupQueryAttention nodes, which ONNX's shape
    inference does not know: each pass adds those whose inputs are known, then infers again (one pass per
    chained node at most)."""
    m = _infer(m)
    for _ in range(sum(n.domain == "com.microsoft" and n.op_type == "GroupQueryAttention" for n in m.graph.node)):
        if not _gqa_value_info(m):
            break
        m = _infer(m)
    return m


def _gqa_value_info(m):
    """Value infos for the outputs of GroupQueryAttention nodes whose inputs have static shapes: output
    [B, S, num_heads * head_size], present_key / present_value past's shape (or [B, kv_num_heads,
    total_sequence_length, head_size] without a past, the total a constant). Returns how many were added."""
    info = {}
    for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
        t = vi.type.tensor_type
        if t.elem_type and t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
            info[vi.name] = (t.elem_type, [d.dim_value for d in t.shape.dim])
    consts = {i.name: i for i in m.graph.initializer}
    for i in m.graph.initializer:
        info.setdefault(i.name, (i.data_type, list(i.dims)))
    added = 0
    for node in m.graph.node:
        if node.domain != "com.microsoft" or node.op_type != "GroupQueryAttention" or not node.output \
                or node.output[0] in info or node.input[0] not in info:
            continue
        attrs = {a.name: a.i for a in node.attribute}
        n, kv = attrs.get("num_heads", 0), attrs.get("kv_num_heads", 0)
        elem, q = info[node.input[0]]
        packed = len(node.input) < 2 or not node.input[1]
        if len(q) != 3 or n <= 0 or kv <= 0 or q[2] % (n + 2 * kv if packed else n):
            continue
        head = q[2] // (n + 2 * kv if packed else n)
        shapes = {node.output[0]: [q[0], q[1], n * head]}
        if len(node.input) > 3 and node.input[3] in info:
            cache = info[node.input[3]][1]
        elif len(node.input) > 6 and node.input[6] in consts:
            cache = [q[0], kv, int(numpy_helper.to_array(consts[node.input[6]]).reshape(-1)[0]), head]
        else:
            cache = None
        if cache is not None:
            shapes.update({o: cache for o in node.output[1:3] if o})
        for name, dims in shapes.items():
            if name not in info:
                m.graph.value_info.append(onnx.helper.make_tensor_value_info(name, elem, dims))
                added += 1
    return added


def _infer_here(m):
    try:
        return shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
    except Exception as e:
        raise ConverterError(f"ONNX shape inference failed: {first_line(e)}")


def _prune(nodes, outputs):
    """Drop nodes that do not contribute to the outputs."""
    need = set(outputs)
    keep = []
    for n in reversed(nodes):
        if any(o in need for o in n.output):
            keep.append(n)
            need.update(i for i in n.input if i)
    return list(reversed(keep))
