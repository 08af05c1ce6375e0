"""Graph input/output layouts, as the vendor's legacy converters choose them.

Rank-4 inputs are taken to be NCHW in the source model (override with --input_layout NAME LAYOUT)
and become NHWC (spatial-first) graph inputs. A rank-4 output the graph computes in NHWC stays NHWC;
one it computes in ONNX order (e.g. after a Reshape) keeps that order. --preserve_io [layout] [NAMES]
keeps the ONNX layout for the named (or all) inputs and outputs, and a --custom_io YAML entry
(Layout: {Model, Custom}) picks the layout of one tensor explicitly; --custom_io wins over --preserve_io.
"""
from qnn.errors import ConverterError, first_line

LAYOUTS = ("NCDHW", "NDHWC", "NCHW", "NHWC", "NFC", "NCF", "NTF", "TNF", "NF", "NC", "F", "NONTRIVIAL")
IDENTITY = [0, 1, 2, 3]
NCHW_TO_NHWC = [0, 2, 3, 1]
NHWC_TO_NCHW = [0, 3, 1, 2]


def _perm(src, dst):
    """Permutation taking a rank-4 tensor in layout src to layout dst (both NCHW/NHWC)."""
    if src == dst:
        return IDENTITY
    return NCHW_TO_NHWC if src == "NCHW" else NHWC_TO_NCHW


class IoLayout:
    """Decides, per ONNX graph input/output name, how its graph tensor is permuted from the ONNX shape."""

    def __init__(self, input_layouts=(), preserve_io=None, custom_io=None):
        self.source = {}                        # name -> source layout (--input_layout / Model)
        for name, lay in input_layouts:
            lay = lay.upper()
            if lay not in LAYOUTS:
                raise ConverterError(f"--input_layout {name} {lay}: expected one of {', '.join(LAYOUTS)}")
            self.source[name] = lay
        self.preserve_all, self.preserve = False, set()
        if preserve_io is not None:
            words = list(preserve_io)
            kind = words.pop(0) if words and words[0] in ("layout", "datatype") else None
            if kind in (None, "layout"):
                self.preserve_all = not words
                self.preserve = set(words)
        self.custom = {}                        # name -> (model layout, custom layout)
        if custom_io:
            self._read_custom_io(custom_io)

    def _read_custom_io(self, path):
        try:
            import yaml
        except ImportError:
            raise ConverterError("--custom_io needs python3-yaml")
        try:
            with open(path) as f:
                entries = yaml.safe_load(f) or []
        except (OSError, yaml.YAMLError) as e:
            raise ConverterError(f"--custom_io {path}: {first_line(e)}")
        if not isinstance(entries, list):
            raise ConverterError(f"--custom_io {path}: expected a list of entries with IOName")
        for e in entries:
            if not isinstance(e, dict) or "IOName" not in e:
                raise ConverterError(f"--custom_io {path}: every entry needs IOName")
            name = str(e["IOName"])
            dt = e.get("Datatype")
            if dt is not None and str(dt) != "float32":
                raise ConverterError(f"--custom_io {path}: {name}: Datatype {dt} is not supported by the float "
                                     "converter (float32 only)")
            lay = e.get("Layout") or {}
            model, custom = str(lay.get("Model", "")).upper(), str(lay.get("Custom", "")).upper()
            if not custom:
                continue
            if custom not in ("NCHW", "NHWC") or (model and model not in ("NCHW", "NHWC")):
                raise ConverterError(f"--custom_io {path}: {name}: only NCHW/NHWC layouts can be converted "
                                     f"(Model {model or '-'}, Custom {custom})")
            if model and name in self.source:
                raise ConverterError(f"--custom_io {path}: {name}: Layout Model and --input_layout cannot both be given")
            self.custom[name] = (model or None, custom)

    def _preserved(self, name):
        return self.preserve_all or name in self.preserve

    def input_perm(self, name, rank):
        """Permutation from the ONNX input shape to the graph input's shape."""
        if rank != 4:
            return list(range(rank))  # any rank other than 4 keeps its order
        model = self.source.get(name, "NCHW")
        if name in self.custom:
            m, custom = self.custom[name]
            return _perm(m or model, custom) if (m or model) in ("NCHW", "NHWC") else IDENTITY
        if self._preserved(name) or model != "NCHW":
            return IDENTITY
        return NCHW_TO_NHWC

    def output_perm(self, name, rank, computed_nhwc):
        """Permutation from the ONNX output shape to the graph output's shape."""
        if rank != 4:
            return list(range(rank))  # any rank other than 4 keeps its order
        if name in self.custom:
            m, custom = self.custom[name]
            return _perm(m or "NCHW", custom)
        if self._preserved(name) or not computed_nhwc:
            return IDENTITY
        return NCHW_TO_NHWC

    def input_format(self, name, perm):
        """Axis format of a graph input (recorded in model_net.json): NHWC, NCHW, the declared layout, or ANY."""
        if len(perm) != 4:
            return "ANY"
        if perm == NCHW_TO_NHWC:
            return "NHWC"
        return self.custom.get(name, (None, None))[1] or self.source.get(name, "NCHW")

    @staticmethod
    def output_format(perm):
        return "ANY" if len(perm) != 4 else ("NHWC" if perm == NCHW_TO_NHWC else "NCHW")

    def check_names(self, inputs, outputs):
        known = set(inputs) | set(outputs)
        for what, names in (("--preserve_io", self.preserve), ("--custom_io", self.custom)):
            bad = sorted(n for n in names if n not in known)
            if bad:
                raise ConverterError(f"{what} names no graph input or output: {', '.join(bad)}")
        bad = sorted(n for n in self.source if n not in inputs)
        if bad:
            raise ConverterError(f"--input_layout names no graph input: {', '.join(bad)}")
