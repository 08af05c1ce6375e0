"""Command line of qnn-pytorch-converter: a TorchScript file (or a pickled torch.nn.Module) exported to ONNX
with torch.onnx.export at the --input_dim shapes, then the ONNX front end and back end of qnn-onnx-converter
(one graph IR, no op conversion of its own). Flags: qnn-onnx-converter's, plus the PyTorch ones of the
reference guide; --input_dim is required for every input, in the module's argument order."""
import argparse
import json
import os
import sys
import tempfile

from qnn.errors import ConverterError, first_line, run_tool

PROG = "qnn-pytorch-converter"
OPSET = 13


def _split(argv):
    p = argparse.ArgumentParser(prog=PROG, add_help=False)
    p.add_argument("-pcl", "--pytorch_custom_op_lib")
    p.add_argument("--dump_relay")
    p.add_argument("--dump_out_names", action="store_true")
    p.add_argument("--opset", type=int, default=OPSET)
    return p.parse_known_args(argv)


def parse(argv):
    from qnn.converters.onnx import cli
    extra, rest = _split(argv)
    if "-h" in rest or "--help" in rest:
        print(f"usage: {PROG} -i MODEL.pt -d INPUT_NAME DIMS [-d ...] [qnn-onnx-converter flags] [--dump_out_names]\n"
              f"{__doc__}\n--dump_out_names writes model_output_names.json (QNN output name -> PyTorch output "
              f"name) beside the output; --opset N picks the ONNX opset of the export (default {OPSET}).\n"
              f"qnn-onnx-converter's flags follow.\n")
    args = cli.parse(rest)
    args.pytorch = extra
    return args


def _load(path, torch):
    if not os.path.isfile(path):
        raise ConverterError(f"{path} does not exist")
    try:
        return torch.jit.load(path, map_location="cpu")
    except Exception as jit_error:  # not TorchScript: maybe a pickled module
        try:
            m = torch.load(path, map_location="cpu", weights_only=False)
        except (AttributeError, ModuleNotFoundError) as e:   # a pickle whose class cannot be imported here
            raise ConverterError(f"{path} is a pickled module whose class is not importable ({e}): put its module "
                                 "on PYTHONPATH, or save a TorchScript trace (torch.jit.trace(...).save)")
        except Exception:
            first = first_line(jit_error)
            raise ConverterError(f"{path} is neither a TorchScript file nor a pickled torch.nn.Module ({first})")
        if not isinstance(m, torch.nn.Module):
            raise ConverterError(f"{path} holds a {type(m).__name__}, not a torch.nn.Module (a state_dict needs "
                                 "its model class: save the module or a TorchScript trace instead)")
        return m


def run(args):
    from qnn.converters.onnx import cli
    extra = args.pytorch
    if extra.pytorch_custom_op_lib:
        raise ConverterError("--pytorch_custom_op_lib: custom PyTorch ops are not supported yet")
    if extra.dump_relay:
        raise ConverterError("--dump_relay: this converter goes through ONNX, not TVM Relay; there is no Relay to dump")
    if not args.input_dim:
        raise ConverterError("--input_dim NAME DIMS is required for every input of a PyTorch model")
    try:
        import torch
    except ImportError:
        raise ConverterError("PyTorch is not installed (Debian: python3-torch)")
    module = _load(args.input_network, torch)
    module.eval()
    names = [n for n, _ in args.input_dim]
    examples = tuple(torch.zeros(cli._dims(n, d)) for n, d in args.input_dim)
    try:
        with torch.no_grad():
            result = module(*examples)
    except Exception as e:
        raise ConverterError(f"the model does not run on inputs of the --input_dim shapes: {first_line(e)}")
    n_out = len(result) if isinstance(result, (tuple, list)) else 1
    outputs = list(args.out_node) if args.out_node else (["output"] if n_out == 1 else
                                                         [f"output_{i}" for i in range(n_out)])
    if len(outputs) != n_out:
        raise ConverterError(f"--out_node names {len(outputs)} outputs, the model returns {n_out}")
    out = args.output_path or os.path.splitext(args.input_network)[0] + ".cpp"
    with tempfile.TemporaryDirectory(prefix="qnn-pytorch-") as tmp:
        onnx_path = os.path.join(tmp, os.path.splitext(os.path.basename(out))[0] + ".onnx")
        try:
            import warnings
            with warnings.catch_warnings():   # the exporter's notes on TorchScript signatures are not the user's business
                warnings.simplefilter("ignore")
                torch.onnx.export(module, examples, onnx_path, opset_version=extra.opset, input_names=names,
                                  output_names=outputs, do_constant_folding=True)
        except Exception as e:
            raise ConverterError(f"torch.onnx.export failed: {first_line(e)}")
        args.output_path, source = out, args.input_network
        args.input_network, args.out_node = onnx_path, []
        status = cli.run(args, PROG)
        args.input_network = source
    if status == 0 and extra.dump_out_names:
        from qnn.ir import sanitize
        path = os.path.join(os.path.dirname(os.path.abspath(out)), "model_output_names.json")
        with open(path, "w") as f:
            json.dump({sanitize(o): o for o in outputs}, f, indent=1)
    return status


def main(argv=None):
    return run_tool(PROG, run, parse(sys.argv[1:] if argv is None else argv))
