"""qnn-quantization-checker: converts the model with every quantization option asked for (tf, enhanced,
adjusted, symmetric; each also with CLE and per-channel quantization), compares the quantized weights, biases
and activations with float, and reports the tensors that fail (html/, csv/, histograms).

usage: qnn-quantization-checker --config_file CONFIG [--model MODEL.onnx] [--input_list LIST]
       [--activation_width 8|16] [--bias_width 8|32] [--output_dir DIR] [--skip_building_model]
       [--skip_generator] [--skip_runner] [--generate_histogram] [--per_channel_histogram] [--output_csv]
Command-line values override the config file."""
import argparse
import os
import sys

from qnn.errors import ConverterError, run_tool

from .. import sdk_bin_dir
from . import report
from .checker import Checker, Tools
from .config import Config

PROG = "qnn-quantization-checker"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ConverterError(message + f" (see {PROG} --help)")


def parse(argv):
    p = _Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config_file", required=True, help="JSON with the vendor's keys (MODEL_PATH, ...)")
    p.add_argument("--model", help="the ONNX model (else MODEL_PATH)")
    p.add_argument("--input_list", help="calibration and comparison inputs (else INPUT_LIST_PATH)")
    p.add_argument("--activation_width", type=int, choices=[8, 16])
    p.add_argument("--bias_width", type=int, choices=[8, 32])
    p.add_argument("--output_dir", help="where everything goes (else OUTPUT_DIR_PATH, else ./qnn_qc)")
    p.add_argument("--skip_building_model", action="store_true", help="use the model libraries already built")
    p.add_argument("--skip_generator", action="store_true", help="use the converted models already there")
    p.add_argument("--skip_runner", action="store_true", help="compare weights and biases only")
    p.add_argument("--generate_histogram", action="store_true", help="PNG histograms of every weight and bias")
    p.add_argument("--per_channel_histogram", action="store_true", help="one histogram per output channel too")
    p.add_argument("--output_csv", action="store_true", help="CSV results under csv/")
    return p.parse_args(argv)


def run(argv):
    a = parse(argv)
    cfg = Config(a)
    bin_dir = cfg.bin_path or sdk_bin_dir("QNN_QUANTIZATION_CHECKER_BIN")
    os.makedirs(cfg.output_dir, exist_ok=True)
    logdir = os.path.join(cfg.output_dir, "qnn-quantization-checker-log")
    os.makedirs(logdir, exist_ok=True)
    checker = Checker(cfg, Tools(bin_dir, os.path.join(logdir, "log.txt")), a.skip_generator,
                      a.skip_building_model, a.skip_runner)
    checker.run()
    summary = report.write(cfg.output_dir, checker.results, checker.repairs, cfg.output_csv)
    for s in summary:
        print(f"{PROG}: {s['variation']:>16}: {s['failing_checks']} of {s['checks']} checks fail "
              f"({s['failing_tensors']} tensors)")
    for r in checker.repairs:
        print(f"{PROG}: repair round {r['round']}: {r['kind']} {r['tensor']} to 16 bits: failing checks "
              f"{r['failing_before']} -> {r['failing_after']}")
    print(f"{PROG}: report: {os.path.join(cfg.output_dir, 'html', 'index.html')}")
    return 0


def main(argv=None):
    return run_tool(PROG, run, sys.argv[1:] if argv is None else argv)
