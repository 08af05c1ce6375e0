"""Command line of qairt-converter: the same ONNX front end as qnn-onnx-converter (cli.build_graph), a
DLC as output (qnn/dlc/writer.py, docs/dlc-format.md). As the reference guide describes it, the source model's
input/output layouts are kept by default (the legacy converter makes rank-4 inputs NHWC)."""
import argparse
import os
import sys

from qnn.errors import ConverterError, run_tool
from qnn.ir import NAME_RULE, sanitize

PROG = "qairt-converter"

EPILOG = f"""Output: OUTPUT_PATH (default: the input path with .dlc), one file holding the graph and its
weights (docs/dlc-format.md); run it with qnn-net-run --model libQnnModelDlc.so --dlc_path FILE.
Inputs and outputs keep the source model's layout; --source_model_input_layout NAME NHWC marks a rank-4
input given channel-last. Names: {NAME_RULE}
--quantization_overrides FILE (AIMET format, source-model tensor names) is resolved to the DLC's tensors
and cached in the float DLC; qairt-quantizer applies it.
--float_bitwidth 16 writes a float16 graph (FLOAT_16 tensors and weights; inputs/outputs stay float32).
--op_package_config XML...: custom ops of op-package configs (the DLC lists the packages it needs).
--target_op_set 2.13: emit op set 2.13's native ops (as qnn-onnx-converter's flag; default: API 2.32-era ops).
Not supported yet: TensorFlow, TFLite and PyTorch sources, --io_config, --converter_op_package_lib."""


def parse(argv):
    p = argparse.ArgumentParser(prog=PROG, description="Convert an ONNX model (float32) into a DLC.", epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-i", "--input_network", required=True, help="path to the source model (.onnx)")
    p.add_argument("-o", "--output_path", help="output DLC path (default: input path with .dlc)")
    p.add_argument("-d", "--desired_input_shape", nargs=2, action="append", default=[], metavar=("NAME", "DIMS"),
                   help="pin an input's shape, e.g. 'data' 1,3,224,224; repeat per input")
    p.add_argument("--out_tensor_node", "--out_tensor_name", action="append", default=[], dest="out_tensor_node",
                   help="graph output tensor name; repeat per output (default: the model's outputs)")
    p.add_argument("--source_model_input_datatype", nargs=2, action="append", default=[], metavar=("NAME", "DTYPE"),
                   help="source input data type; only float32 is supported")
    p.add_argument("-l", "--source_model_input_layout", nargs=2, action="append", default=[],
                   metavar=("NAME", "LAYOUT"), help="source layout of an input")
    p.add_argument("--float_bitwidth", type=int, choices=[32, 16], default=32)
    p.add_argument("--model_version", default="", help="model id stored in the DLC (first 64 bytes)")
    p.add_argument("--dry_run", nargs="?", const="info", default=None, help="report unsupported ops; write nothing")
    p.add_argument("--debug", nargs="?", const=True, default=False)
    p.add_argument("--quantization_overrides", help="AIMET-format encodings JSON, cached in the DLC for qairt-quantizer")
    p.add_argument("--op_package_config", nargs="+", action="extend", default=[], metavar="XML",
                   help="op package XML config(s): model nodes of their ops become custom-op nodes")
    p.add_argument("--target_op_set", default=None, metavar="MAJOR.MINOR",
                   help="the QNN op set the target backends run (2.13: native Erf, Identity, ThresholdedRelu, "
                        "com.microsoft.GroupQueryAttention); default: API 2.32-era ops only")
    for flag in ("--io_config", "--converter_op_package_lib"):
        p.add_argument(flag, help="not supported yet")
    return p.parse_args(argv)


def _legacy_args(args):
    """The same request in qnn-onnx-converter's flags, for the shared front end."""
    from .onnx import cli
    argv = ["-i", args.input_network, "--float_bitwidth", str(args.float_bitwidth), "--preserve_io"]
    for name, dims in args.desired_input_shape:
        argv += ["-d", name, dims]
    for name in args.out_tensor_node:
        argv += ["--out_node", name]
    for name, dt in args.source_model_input_datatype:
        argv += ["--input_dtype", name, dt]
    for name, layout in args.source_model_input_layout:
        argv += ["-l", name, layout]
    if args.dry_run is not None:
        argv += ["--dry_run", args.dry_run]
    if args.debug:
        argv += ["--debug"]
    if args.op_package_config:
        argv += ["--op_package_config", *args.op_package_config]
    if args.target_op_set:
        argv += ["--target_op_set", args.target_op_set]
    return cli.parse(argv)


def _cache_overrides(graph, overrides):
    """The overrides resolved to the graph's tensors (by the names the converter's quantizer knows the
    source model's tensors by), as the AIMET document the DLC caches for qairt-quantizer."""
    from qnn.quantization import overrides as O
    from qnn.quantization.assign import Assigner, Options
    act_over, param_over = overrides
    acts, params = Assigner(graph, graph.onnx_map, graph.model_consts, Options(), None, act_over, param_over,
                            onnx_nodes=graph.model_nodes).resolve_overrides()
    return {"version": "0.5.0",
            "activation_encodings": {q: O.to_aimet(ov) for q, ov in acts.items()},
            "param_encodings": {q: O.to_aimet(ov) for q, ov in params.items()}}


def run(args):
    from .onnx import cli
    from qnn.dlc.writer import write_dlc
    for flag in ("io_config", "converter_op_package_lib"):
        if getattr(args, flag):
            raise ConverterError(f"--{flag} is not supported yet")
    overrides = None
    if args.quantization_overrides:
        from qnn.quantization import overrides as O
        overrides = O.load(args.quantization_overrides)  # checked before the conversion starts
    out = args.output_path or os.path.splitext(args.input_network)[0] + ".dlc"
    legacy = _legacy_args(args)
    graph = cli.build_graph(legacy, sanitize(os.path.splitext(os.path.basename(out))[0]))
    if graph is None:
        return legacy.dry_run_status
    graph.model_version = args.model_version[:64]
    cached = _cache_overrides(graph, overrides) if overrides else None
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    size = write_dlc(graph, out, PROG, " ".join([PROG] + sys.argv[1:]), args.input_network,
                     quantization_overrides=cached)
    print(f"{PROG}: wrote {out} ({size} bytes, {len(graph.ops)} nodes; inputs "
          + ", ".join(f"{i}{graph.tensors[i].shape}" for i in graph.inputs) + "; outputs "
          + ", ".join(f"{o}{graph.tensors[o].shape}" for o in graph.outputs) + ")")
    return 0


def main(argv=None):
    return run_tool(PROG, run, parse(sys.argv[1:] if argv is None else argv))
