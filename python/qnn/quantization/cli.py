"""Command line of qairt-quantizer: a float DLC (qairt-converter) in, a quantized DLC out, with the
converter's quantization code (qnn/quantization: calibration on the --input_list files on libQnnCpu.so or the numpy
evaluator, encodings, Convert/Quantize/Dequantize at precision boundaries). The same flags give
the same encodings as qnn-onnx-converter --input_list on the same model (docs/dlc-format.md)."""
import argparse
import os
import sys

from qnn import quantization as quant
from qnn.errors import ConverterError, run_tool

PROG = "qairt-quantizer"

EPILOG = """Calibration inputs: --input_list FILE, one line per inference, raw float32 files in the DLC's
input layout (the files qnn-net-run takes for it), or 'name:=path' pairs by source-model input name.
Quantization overrides given to qairt-converter (--quantization_overrides) are cached in the DLC and
applied here before calibrated encodings (--ignore_encodings leaves them out); with --float_fallback
and no --input_list, only they quantize and every other tensor stays float.
Not supported: --quantization_overrides here (give it to qairt-converter), --algorithms cle (it
rewrites the source model's weights before conversion)."""


def parse(argv):
    p = argparse.ArgumentParser(prog=PROG, description="Quantize a float DLC into a fixed-point DLC.", epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input_dlc", "-i", required=True, help="float DLC written by qairt-converter")
    p.add_argument("--output_dlc", "-o", help="quantized DLC (default: <input>_quantized.dlc)")
    p.add_argument("--enable_float_fallback", action="store_true", dest="float_fallback_alias",
                   help="same as --float_fallback")
    p.add_argument("--debug", nargs="?", const=True, default=False)
    quant.add_arguments(p)
    return p.parse_args(argv)


def run(args):
    from qnn.dlc.reader import read_dlc
    from qnn.dlc.writer import write_dlc
    args.float_fallback = args.float_fallback or args.float_fallback_alias
    if args.quantization_overrides:
        raise ConverterError("--quantization_overrides belongs to qairt-converter, which caches the overrides in "
                             "the float DLC; qairt-quantizer applies them")
    if args.algorithms:
        raise ConverterError("--algorithms: cross-layer equalization rewrites the source model before conversion; "
                             "it is not available on a DLC")
    if not args.input_list and not args.float_fallback:
        raise ConverterError("--input_list is required: the calibration inputs the encodings come from "
                             "(or --float_fallback to quantize only what the cached overrides name)")
    plan = quant.Plan(args)
    dlc = read_dlc(args.input_dlc)
    out = args.output_dlc or os.path.splitext(args.input_dlc)[0] + "_quantized.dlc"
    if len(dlc.graphs) != 1:
        raise ConverterError(f"{args.input_dlc} holds {len(dlc.graphs)} graphs; qairt-quantizer quantizes one")
    graph = dlc.graphs[0]
    if graph.cached_overrides and not args.ignore_encodings:
        from . import overrides
        plan.act_over, plan.param_over = overrides.parse(graph.cached_overrides,
                                                         f"{args.input_dlc}: cached quantization overrides")
    elif args.float_fallback and not args.input_list:
        raise ConverterError(f"--float_fallback without --input_list needs overrides cached in the DLC; "
                             f"{args.input_dlc} has none")
    # What the quantization code knows the source model by: input names and activation names.
    graph.model_inputs = [graph.source_names.get(i, i) for i in graph.inputs]
    graph.onnx_map = {src: {"dlc": q} for q, src in graph.source_names.items()}
    graph.model_consts, graph.model_nodes = {}, ()
    quant.quantize(plan, graph)
    if args.debug:
        for op in graph.ops:
            print(f"{op.type:22s} {op.name}: {op.inputs} -> {op.outputs}", file=sys.stderr)
    meta = dict(dlc.metadata)
    meta["quantizer"] = PROG
    meta["quantizer_command"] = " ".join([PROG] + sys.argv[1:])
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    size = write_dlc(graph, out, PROG, "", None, metadata=meta)
    quantized = sum(1 for t in graph.tensors.values() if getattr(t, "quant", None) is not None
                    and not t.quant.is_float)
    print(f"{PROG}: wrote {out} ({size} bytes, {len(graph.ops)} nodes, {quantized} quantized tensors)")
    return 0


def main(argv=None):
    return run_tool(PROG, run, parse(sys.argv[1:] if argv is None else argv))
