"""--op_package_config: custom ops from op-package XML configs (the format qnn-op-package-generator reads).

An ONNX node whose op_type is the name of an OpDef in a config (any ONNX domain) becomes a node of that
package: its inputs by position (constants become static tensors), its params from the node's
attributes by name (enumerations by their names; the config's defaults where the node has none), its
outputs with the shapes and types the model declares for them (graph outputs or value_info: the
converter cannot infer what a custom op computes). Tensors keep the source model's layout.
"""
import xml.etree.ElementTree as ET

import numpy as np

from qnn.errors import ConverterError
from qnn.ir import Param, qnn_dtype

_PARAM_DTYPES = {"QNN_DATATYPE_FLOAT_32": np.float32, "QNN_DATATYPE_UINT_32": np.uint32,
                 "QNN_DATATYPE_INT_32": np.int32, "QNN_DATATYPE_UINT_16": np.uint16, "QNN_DATATYPE_INT_16": np.int16,
                 "QNN_DATATYPE_UINT_8": np.uint8, "QNN_DATATYPE_INT_8": np.int8, "QNN_DATATYPE_BOOL_8": np.bool_}


class OpDef:
    def __init__(self, package, name):
        self.package, self.name = package, name
        self.inputs, self.outputs, self.params = [], [], []   # dicts


class Package:
    def __init__(self, name, domain, version, path):
        self.name, self.domain, self.version, self.path = name, domain, version, path


def _text(el, tag, default=None):
    child = el.find(tag)
    return child.text.strip() if child is not None and child.text is not None else default


def load_configs(paths):
    """-> ({op type: OpDef}, {package name: Package}) from the XML configs."""
    ops, packages = {}, {}
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except OSError as e:
            raise ConverterError(f"--op_package_config: cannot read '{path}': {e.strerror}")
        except (ET.ParseError, LookupError, UnicodeError, ValueError) as e:  # LookupError: unknown encoding
            raise ConverterError(f"--op_package_config {path}: malformed XML: {e}")
        if root.tag != "OpDefCollection" or not root.get("PackageName"):
            raise ConverterError(f"--op_package_config {path}: not an op package config "
                                 "(an <OpDefCollection PackageName=...> root)")
        pkg = root.get("PackageName")
        packages[pkg] = Package(pkg, root.get("Domain", ""), root.get("Version", ""), path)
        for od in root.iter("OpDef"):
            name = _text(od, "Name")
            if not name:
                raise ConverterError(f"--op_package_config {path}: an OpDef has no Name")
            if name in ops:
                raise ConverterError(f"--op_package_config: op '{name}' is defined by packages "
                                     f"'{ops[name].package}' and '{pkg}'")
            d = OpDef(pkg, name)
            for kind, target in (("Input", d.inputs), ("Output", d.outputs)):
                for el in od.findall(kind):
                    target.append({"name": _text(el, "Name"), "mandatory": _text(el, "Mandatory", "true") == "true"})
            for el in od.findall("Parameter"):
                dtype = _text(el, "Datatype", "")
                rank = _text(el.find("Shape") if el.find("Shape") is not None else el, "Rank", "SCALAR")
                d.params.append({"name": _text(el, "Name"), "dtype": dtype, "rank": rank,
                                 "mandatory": _text(el, "Mandatory", "false") == "true",
                                 "default": _text(el, "Default"),
                                 "enum": [e.text.strip() for e in el.iter("Enum") if e.text]})
            ops[name] = d
    return ops, packages


def _param(op, p, node, attrs):
    where = f"node '{node.name}' ({op.name} of package '{op.package}'): param '{p['name']}'"
    value = attrs.get(p["name"])
    if value is None:
        if p["default"] is None:
            if p["mandatory"]:
                raise ConverterError(f"{where} is mandatory and the node has no attribute of that name")
            return None
        value = p["default"]
    if isinstance(value, bytes):
        value = value.decode()
    if p["enum"]:
        if isinstance(value, str):
            if value not in p["enum"]:
                raise ConverterError(f"{where}: '{value}' is not one of {p['enum']}")
            value = p["enum"].index(value)
        elif not (isinstance(value, int) and 0 <= value < len(p["enum"])):
            raise ConverterError(f"{where}: {value!r} is not an index of {p['enum']}")
    dtype = _PARAM_DTYPES.get(p["dtype"])
    if dtype is None:
        raise ConverterError(f"{where}: datatype {p['dtype'] or '(none)'} is not one a param can have here")
    try:
        if isinstance(value, str):
            value = [float(v) for v in value.replace(",", " ").split()] if p["rank"] != "SCALAR" else float(value)
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ConverterError(f"{where}: {value!r} is not a {p['dtype']} value")
    if p["rank"] == "SCALAR":
        if arr.size != 1:
            raise ConverterError(f"{where}: expects one value, got {arr.size}")
        v = arr.reshape(-1)[0]
        return Param(p["name"], "scalar", dtype, bool(v) if dtype == np.bool_ else
                     (float(v) if dtype == np.float32 else int(v)))
    return Param(p["name"], "tensor", dtype, np.atleast_1d(arr).astype(dtype))


def convert_node(ctx, node, attrs, op):
    """Adds `node` as a node of op's package."""
    known = {p["name"] for p in op.params}
    unknown = sorted(set(attrs) - known)
    if unknown:
        raise ConverterError(f"node '{node.name}' ({op.name} of package '{op.package}'): attribute(s) {unknown} "
                             f"are not params of the op (it has {sorted(known)})")
    if len(node.input) > len(op.inputs):
        raise ConverterError(f"node '{node.name}': {len(node.input)} inputs, op {op.name} takes {len(op.inputs)}")
    inputs = []
    for k, spec in enumerate(op.inputs):
        name = node.input[k] if k < len(node.input) else ""
        if not name:
            if spec["mandatory"]:
                raise ConverterError(f"node '{node.name}': input '{spec['name']}' of {op.name} is mandatory")
            continue
        inputs.append(ctx.get(name, "plain"))
    params = [p for p in (_param(op, spec, node, attrs) for spec in op.params) if p is not None]
    outputs = []
    for k, name in enumerate(node.output):
        if not name:
            continue
        if k >= len(op.outputs):
            raise ConverterError(f"node '{node.name}': output {k} is not an output of {op.name}")
        if name not in ctx.m.shapes:
            raise ConverterError(f"node '{node.name}' ({op.name}): the shape of its output '{name}' is not in the "
                                 "model; declare it (graph output or value_info): the converter cannot infer what "
                                 "a custom op computes")
        outputs.append(ctx.out(name, "plain", dtype=qnn_dtype(ctx.m.dtypes.get(name, np.float32))))
    ctx.g.add_op(node.name or node.output[0], op.name, inputs, outputs, params)
    ctx.g.ops[-1].package = op.package
