"""Command line of qnn-tflite-converter: a .tflite model translated to an ONNX graph (to_onnx.py), then
qnn-onnx-converter's front and back end. Inputs and outputs keep TFLite's NHWC order (the graph's raw input and
output files are laid out as TFLite's); quantized models keep their encodings. Flags: qnn-onnx-converter's
(quantizer flags included: --input_list re-quantizes a float model), plus --input_dim to pin an input's shape
and the TFLite ones of the reference guide."""
import argparse
import os
import sys
import tempfile

from qnn.errors import ConverterError, run_tool

PROG = "qnn-tflite-converter"


def _split(argv):
    p = argparse.ArgumentParser(prog=PROG, add_help=False)
    p.add_argument("--dump_relay")
    p.add_argument("--show_unconsumed_nodes", action="store_true")
    p.add_argument("--signature_name")
    return p.parse_known_args(argv)


def parse(argv):
    from qnn.converters.onnx import cli
    extra, rest = _split(argv)
    if "-h" in rest or "--help" in rest:
        print(f"usage: {PROG} -i MODEL.tflite [-d INPUT_NAME DIMS] [qnn-onnx-converter flags]\n{__doc__}\n"
              "qnn-onnx-converter's flags follow.\n")
    args = cli.parse(rest)
    args.tflite = extra
    return args


def run(args):
    from qnn.converters.onnx import cli
    from .to_onnx import to_onnx
    if args.tflite.dump_relay:
        raise ConverterError("--dump_relay: this converter goes through ONNX, not TVM Relay; there is no Relay to dump")
    if args.tflite.signature_name:
        raise ConverterError("--signature_name: only the model's first subgraph is converted")
    dims = {n: cli._dims(n, d) for n, d in args.input_dim}
    import onnx
    model, inputs, outputs = to_onnx(args.input_network, dims)
    if args.tflite.show_unconsumed_nodes:
        print(f"{PROG}: every operator of the model is converted (an unsupported one is an error)")
    out = args.output_path or os.path.splitext(args.input_network)[0] + ".cpp"
    with tempfile.TemporaryDirectory(prefix="qnn-tflite-") as tmp:
        path = os.path.join(tmp, os.path.splitext(os.path.basename(out))[0] + ".onnx")
        onnx.save(model, path)
        source = args.input_network
        args.output_path, args.input_network, args.input_dim = out, path, []
        # TFLite's own axis order at the graph's inputs and outputs (the translated graph is NHWC already).
        if args.preserve_io is None and not args.custom_io:
            args.preserve_io = ["layout"]
        status = cli.run(args, PROG)
        args.input_network = source
    return status


def main(argv=None):
    return run_tool(PROG, run, parse(sys.argv[1:] if argv is None else argv))
