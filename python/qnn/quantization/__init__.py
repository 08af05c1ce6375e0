"""Quantization for qnn-onnx-converter: flags, the pipeline hooks cli.run calls, the encodings file.

Pipeline: prepare_model() on the loaded ONNX model (QDQ pairs -> carried encodings), equalize() after
the graph rewrites (--algorithms cle), then quantize() on the converted QNN graph (calibration with
the graph on libQnnCpu.so or the numpy evaluator, encodings, Convert/Quantize/Dequantize at precision boundaries).
"""
import argparse
import json

import numpy as np

from qnn.errors import ConverterError
from . import encodings as E

FLAG_HELP = """Quantization (vendor flags): --input_list FILE quantizes with calibration on the listed raw
inputs: float32 (or the inputs' own dtype with --use_native_input_files) in the converted graph's
input layout, i.e. the same files qnn-net-run takes.
Activations are asymmetric unsigned (UFIXED_POINT_8/16); weights 8-bit (or 4-bit, written packed two per
byte as SFIXED/UFIXED_POINT_4 with BW encodings); biases 8-bit, or 32-bit signed with scale = input scale *
weight scale. Per-channel / per-row weights are symmetric (SFIXED_POINT_8, offset 0, i.e. -2^(bw-1) in the AIMET view).
Encodings follow the API: float = (q + offset) * scale, offset = -zero_point. A file
<output>_encodings.json (AIMET format, QNN tensor names) is written beside model.cpp."""


def add_arguments(p):
    g = p.add_argument_group("quantizer options")
    g.add_argument("--input_list", help="calibration inputs: one line per inference, raw files (quantizes the model)")
    g.add_argument("--quantization_overrides", help="AIMET-format JSON with activation_encodings / param_encodings")
    g.add_argument("--keep_quant_nodes", action="store_true", help="keep QDQ activation pairs as Quantize/Dequantize ops")
    g.add_argument("--param_quantizer", choices=E.MODES, default=None, help="weight/bias quantizer (default tf)")
    g.add_argument("--act_quantizer", choices=E.MODES, default=None, help="activation quantizer (default tf)")
    g.add_argument("--algorithms", nargs="+", default=[], help="'cle': cross layer equalization")
    g.add_argument("--bias_bw", "--bias_bitwidth", type=int, default=None, dest="bias_bw", help="8 (default) or 32")
    g.add_argument("--act_bw", "--act_bitwidth", type=int, default=None, dest="act_bw", help="8 (default) or 16")
    g.add_argument("--weight_bw", "--weights_bitwidth", type=int, default=None, dest="weight_bw", help="8 (default) or 4")
    g.add_argument("--ignore_encodings", action="store_true", help="ignore encodings carried by the model (QDQ)")
    g.add_argument("--use_per_row_quantization", action="store_true", help="per-row weights for FullyConnected")
    g.add_argument("--use_per_channel_quantization", nargs="*", default=None,
                   help="per-channel weights for convolutions ('--use_per_channel_quantization false' disables)")
    g.add_argument("--use_native_input_files", "--use_native_dtype", action="store_true", dest="use_native_input_files",
                   help="--input_list files hold the inputs' own data type instead of float32")
    g.add_argument("--float_fallback", action="store_true",
                   help="no calibration: use the overrides/QDQ encodings, keep other tensors in float")
    g.add_argument("--use_native_output_files", action="store_true", help=argparse.SUPPRESS)
    g.add_argument("--restrict_quantization_steps", help=argparse.SUPPRESS)


class Plan:
    """What the quantizer will do, from the flags."""

    def __init__(self, args):
        from .assign import Options
        self.input_list = args.input_list
        self.float_fallback = args.float_fallback
        self.keep_quant_nodes = args.keep_quant_nodes
        self.ignore_encodings = args.ignore_encodings
        self.native_inputs = args.use_native_input_files
        self.overrides_path = args.quantization_overrides
        pc = args.use_per_channel_quantization
        per_channel = pc is not None and (not pc or pc[-1].lower() not in ("false", "0", "no"))
        self.cle = False
        for a in args.algorithms:
            if a != "cle":
                raise ConverterError(f"--algorithms: unknown algorithm '{a}' (only 'cle' is available)")
            self.cle = True
        act_bw, weight_bw, bias_bw = args.act_bw or 8, args.weight_bw or 8, args.bias_bw or 8
        if act_bw not in (8, 16):
            raise ConverterError(f"--act_bw {act_bw}: must be 8 or 16")
        if weight_bw not in (4, 8):
            raise ConverterError(f"--weight_bw {weight_bw}: must be 8 (or 4)")
        if bias_bw not in (8, 32):
            raise ConverterError(f"--bias_bw {bias_bw}: must be 8 or 32")
        if args.restrict_quantization_steps is not None:
            raise ConverterError("--restrict_quantization_steps is not supported yet")
        if args.use_native_output_files:
            raise ConverterError("--use_native_output_files is a qnn-net-run option; the converter does not write outputs")
        if self.ignore_encodings and self.overrides_path:
            raise ConverterError("--ignore_encodings cannot be combined with --quantization_overrides")
        if self.float_fallback and self.input_list:
            raise ConverterError("--float_fallback cannot be combined with --input_list")
        self.opts = Options(act_bw, weight_bw, bias_bw, args.act_quantizer or "tf", args.param_quantizer or "tf",
                            per_channel, args.use_per_row_quantization)
        self.requested = bool(self.input_list or self.float_fallback)
        self.act_over, self.param_over = {}, {}
        if self.overrides_path:
            from . import overrides
            self.act_over, self.param_over = overrides.load(self.overrides_path)
        self.carried_acts, self.carried_params = {}, {}

    def unused_flags_warning(self, args):
        set_flags = [f for f in ("quantization_overrides", "param_quantizer", "act_quantizer", "bias_bw", "act_bw",
                                 "weight_bw", "use_per_row_quantization", "use_native_input_files")
                     if getattr(args, f) not in (None, False)]
        if set_flags and not self.requested and not self.carried_acts:
            from .assign import warn
            warn(f"--{set_flags[0]} has no effect without --input_list (or --float_fallback); the model stays float")


def prepare_model(plan, model):
    """Before the graph rewrites: strip QDQ pairs into carried encodings."""
    from . import qdq
    if not any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in model.nodes):
        return
    acts, params = qdq.strip(model, plan.keep_quant_nodes)
    if not plan.ignore_encodings:
        plan.carried_acts, plan.carried_params = acts, params


def equalize(plan, model):
    if plan.cle:
        from . import cle
        from .assign import warn
        n = cle.equalize(model)
        if n == 0:
            warn("--algorithms cle: no Conv -> Relu -> Conv pattern found; nothing equalized")


def active(plan):
    return plan.requested or bool(plan.carried_acts) or bool(plan.carried_params)


def quantize(plan, graph):
    """Encodings for the converted graph (calibrating when --input_list is given)."""
    from .assign import Assigner
    stats = None
    if plan.input_list:
        from .calibrate import read_input_list, calibrate
        sets = read_input_list(plan.input_list, graph, graph.model_inputs, plan.native_inputs)
        stats = calibrate(graph, sets, plan.opts.act_quantizer == "enhanced")
    Assigner(graph, graph.onnx_map, graph.model_consts, plan.opts, stats, plan.act_over, plan.param_over,
             plan.carried_acts, plan.carried_params, graph.model_nodes).run()


def _entries(enc):
    lo, hi = enc.bounds()
    out = []
    for k in range(enc.scale.size):
        out.append({"bitwidth": enc.bitwidth, "dtype": "int", "is_symmetric": "True" if enc.signed else "False",
                    "min": float(lo[k]), "max": float(hi[k]), "scale": float(enc.scale[k]),
                    "offset": int(enc.aimet_offset()[k])})
    return out


def write_encodings(graph, path):
    """AIMET-format encodings of the generated tensors, keyed by QNN tensor name; entries also carry the
    QNN data type and the API offset (float = (q + qnn_offset) * scale) for inspection."""
    doc = {"version": "0.5.0", "activation_encodings": {}, "param_encodings": {}}
    for t in graph.tensors.values():
        enc = getattr(t, "quant", None)
        if enc is None:
            if t.kind != "static" and t.dtype == np.float32:
                doc["activation_encodings"][t.name] = [{"bitwidth": 32, "dtype": "float"}]
            continue
        if enc.blockwise:   # LPBQ: the AIMET 1.0.0 entry the overrides parser reads back
            c, nb = enc.block_scales.shape
            bw = enc.bitwidth + enc.block_scale_bitwidth
            doc["param_encodings"][t.name] = {
                "name": t.name, "enc_type": "LPBQ", "dtype": "INT", "bw": bw, "compressed_bw": enc.bitwidth,
                "block_size": int(t.shape[enc.block_axis]) // nb, "is_sym": True,
                "scale": [float(v) for v in enc.scale], "offset": [-(1 << (bw - 1))] * c,
                "per_block_int_scale": [int(v) for v in enc.block_scales.reshape(-1)]}
            continue
        entries = _entries(enc)
        for k, e in enumerate(entries):
            e["qnn_data_type"] = E.packed_dtype(t) or enc.qnn_dtype()
            e["qnn_offset"] = int(enc.offset[k])
            if enc.per_axis:
                e["qnn_axis"] = int(enc.axis)
        doc["param_encodings" if t.kind == "static" else "activation_encodings"][t.name] = entries
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
