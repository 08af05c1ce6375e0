"""Command line of qnn-onnx-converter (vendor flag names; float32 only)."""
import argparse
import os
import sys

from qnn.errors import ConverterError, run_tool
from qnn.ir import NAME_RULE, sanitize

PROG = "qnn-onnx-converter"
from qnn import quantization as quant

EPILOG = f"""Outputs: OUTPUT_PATH (model.cpp), the same path with .bin (ustar tar of NAME.raw weight files,
one per BINVARSTART(NAME)) and _net.json. The graph is named after the .cpp base name.
Layout: rank-4 NCHW activations are NHWC inside the graph (Conv filters HWIO, depthwise
[kh,kw,1,C*m]). As in the vendor's legacy converters, rank-4 inputs become NHWC graph inputs
(raw input files in N,H,W,C order) and rank-4 outputs computed in NHWC stay NHWC; --preserve_io
layout [NAMES] keeps the ONNX layout, --input_layout NAME NHWC|NONTRIVIAL marks a rank-4 input that
is not NCHW, --custom_io YAML sets Layout {{Model, Custom}} per tensor. Transposes are inserted only
where a layout is needed. BatchNormalization after Conv is folded; the
Erf-based Gelu and the decomposed LayerNorm patterns become Gelu / LayerNorm.
Names: {NAME_RULE}
{quant.FLAG_HELP}
--float_bitwidth 16: every float tensor inside the graph FLOAT_16 (inputs/outputs stay float32, joined by
Cast ops); such graphs run on the HTP backend.
--op_package_config XML...: nodes of the ops an op-package config defines become nodes of that package
(inputs by position, params from attributes by name, outputs as the model declares them).
--lora_weight_list FILE: the named ONNX constants (one name a line; blank lines and '#' comments skipped)
become QNN_TENSOR_TYPE_UPDATEABLE_STATIC tensors of their own (never merged into another constant). A MatMul
weight among them stays a MatMul input in its ONNX layout (not a transposed FullyConnected weight), so the
tensor's name is the ONNX name (sanitized) and an adapter's values are the framework's tensors as they are;
qnn-context-binary-generator --adapter_weight_config then writes adapters as binary sections.
Not supported yet: --restrict_quantization_steps, --converter_op_package_lib."""


def parse(argv):
    p = argparse.ArgumentParser(prog=PROG, description="Convert an ONNX model (float32) into a QNN model.cpp/model.bin.",
                                epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-i", "--input_network", required=True, help="path to the source .onnx model")
    p.add_argument("-o", "--output_path", help="output model.cpp path (default: input path with .cpp)")
    p.add_argument("-d", "--input_dim", nargs=2, action="append", default=[], metavar=("INPUT_NAME", "INPUT_DIM"),
                   help="pin an input's dims, e.g. 'data' 1,3,224,224; repeat per input")
    p.add_argument("--out_node", "--out_name", action="append", default=[], dest="out_node",
                   help="graph output tensor name; repeat per output (default: the model's outputs)")
    p.add_argument("--input_dtype", nargs=2, action="append", default=[], metavar=("INPUT_NAME", "INPUT_DTYPE"),
                   help="input data type; only float32 is supported for float inputs")
    p.add_argument("-l", "--input_layout", nargs=2, action="append", default=[], metavar=("INPUT_NAME", "LAYOUT"),
                   help="source layout of an input (NCHW is assumed for rank 4 and made NHWC)")
    p.add_argument("--preserve_io", nargs="*", default=None, metavar="layout|datatype NAME",
                   help="keep the ONNX layout of the named (default: all) inputs and outputs")
    p.add_argument("--custom_io", help="YAML list of {IOName, Layout: {Model, Custom}, Datatype: float32}")
    p.add_argument("--float_bitwidth", "--float_bw", type=int, choices=[32, 16], default=32)
    p.add_argument("--target_op_set", type=parse_op_set, default=None, metavar="MAJOR.MINOR",
                   help="the QNN op set the target backends run; 2.13 (API 2.39, QAIRT 2.50) emits its native Erf, "
                        "Identity, ThresholdedRelu and com.microsoft.GroupQueryAttention. Default: only ops API "
                        "2.32-era backends run (Erf and ThresholdedRelu decomposed, Identity folded away)")
    p.add_argument("--keep_disconnected_nodes", action="store_true", help="keep ops not connected to the outputs")
    p.add_argument("--disable_batchnorm_folding", action="store_true")
    p.add_argument("--overwrite_model_prefix", action="store_true", help="name functions <ModelName>_composeGraphs")
    p.add_argument("--dry_run", nargs="?", const="info", default=None, help="report unsupported ops; write nothing")
    p.add_argument("--debug", nargs="?", const=True, default=False)
    p.add_argument("--lora_weight_list", metavar="FILE",
                   help="text file of ONNX constant names, one a line: those weights become UPDATEABLE_STATIC tensors "
                        "(LoRA adapters' A/B), keeping their ONNX name and layout")
    p.add_argument("--op_package_config", "-opc", nargs="+", action="extend", default=[], metavar="XML",
                   help="op package XML config(s): model nodes of their ops become custom-op nodes")
    quant.add_arguments(p)
    return p.parse_args(argv)


def _dims(name, text):
    try:
        dims = [int(v) for v in text.replace(" ", "").split(",")]
    except ValueError:
        raise ConverterError(f"--input_dim {name}: '{text}' is not a comma-separated list of integers")
    if any(d <= 0 for d in dims):
        raise ConverterError(f"--input_dim {name}: dims must be positive")
    return dims


def parse_op_set(text):
    """--target_op_set MAJOR.MINOR as a tuple (2, 13)."""
    try:
        major, minor = (int(v) for v in text.split("."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an op set MAJOR.MINOR (e.g. 2.13)")
    return major, minor


def read_lora_weight_list(path):
    """The ONNX constant names of --lora_weight_list (one a line; blank lines and '#' comments skipped)."""
    if not path:
        return []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ConverterError(f"--lora_weight_list {path}: {e.strerror}")
    names = [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]
    if not names:
        raise ConverterError(f"--lora_weight_list {path}: no tensor names")
    return names


def build_graph(args, graph_name):
    """The converted (and, with quantization flags, quantized) graph; None after a --dry_run report
    (its exit status in args.dry_run_status)."""
    plan = quant.Plan(args)
    for name, dt in args.input_dtype:
        if dt not in ("float32", "float"):
            raise ConverterError(f"--input_dtype {name} {dt}: only float32 is supported")
    from . import loader, patterns, convert
    dims = {n: _dims(n, d) for n, d in args.input_dim}
    custom_ops, packages = {}, {}
    if args.op_package_config:
        from .custom_ops import load_configs
        custom_ops, packages = load_configs(args.op_package_config)
    model = loader.load(args.input_network, dims, args.out_node, args.keep_disconnected_nodes)
    quant.prepare_model(plan, model)
    patterns.run_all(model, fold_bn=not args.disable_batchnorm_folding)
    quant.equalize(plan, model)
    plan.unused_flags_warning(args)
    if args.dry_run is not None:
        bad = convert.unsupported(model, custom_ops)
        for n in bad:
            print(f"unsupported: {n.op_type} (node '{n.name}', opset {model.opset})")
        print(f"{len(model.nodes)} nodes, {len(bad)} unsupported")
        args.dry_run_status = 1 if bad else 0
        return None
    from .io_layout import IoLayout
    io = IoLayout(args.input_layout, args.preserve_io, args.custom_io)
    updateable = read_lora_weight_list(getattr(args, "lora_weight_list", None))
    graph = convert.convert(model, graph_name, io, custom_ops, packages, getattr(args, "target_op_set", None),
                            updateable)
    graph.model_inputs, graph.model_consts, graph.model_nodes = model.inputs, model.consts, model.nodes
    if args.float_bitwidth == 16:
        if quant.active(plan):
            raise ConverterError("--float_bitwidth 16 makes a float16 graph; it cannot be combined with quantization "
                                 "(--input_list, --float_fallback or QDQ encodings in the model)")
        from qnn.converters.float16 import to_float16
        to_float16(graph)
    if quant.active(plan):
        quant.quantize(plan, graph)
    graph.quantized = quant.active(plan)
    if args.debug:
        for op in graph.ops:
            print(f"{op.type:22s} {op.name}: {op.inputs} -> {op.outputs}", file=sys.stderr)
    return graph


def run(args, prog=PROG):
    from qnn.converters.emit_cpp import write_cpp
    from qnn.converters.emit_bin import write_bin
    from qnn.converters.emit_json import write_json
    out = args.output_path or os.path.splitext(args.input_network)[0] + ".cpp"
    base = os.path.splitext(out)[0]
    graph = build_graph(args, sanitize(os.path.basename(base)))
    if graph is None:
        return args.dry_run_status
    prefix = graph.name + "_" if args.overwrite_model_prefix else "QnnModel_"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    write_cpp(graph, out, os.path.basename(args.input_network), prefix)
    write_bin(graph, base + ".bin")
    write_json(graph, base + "_net.json", " ".join(sys.argv))
    if graph.quantized:
        quant.write_encodings(graph, base + "_encodings.json")
    print(f"{prog}: wrote {out}, {base}.bin, {base}_net.json ({len(graph.ops)} nodes; inputs "
          + ", ".join(f"{i}{graph.tensors[i].shape}" for i in graph.inputs) + "; outputs "
          + ", ".join(f"{o}{graph.tensors[o].shape}" for o in graph.outputs) + ")")
    return 0


def main(argv=None):
    return run_tool(PROG, run, parse(sys.argv[1:] if argv is None else argv))
