"""qnn-accuracy-debugger: finds the layer where a model on a QNN backend departs from the framework.

Modes (one at most): --framework_diagnosis (alias --framework_runner), --inference_engine,
--verification, --compare_encodings, --tensor_inspection. Without a mode the wrapper runs framework
diagnosis, inference engine and verification in turn (oneshot-layerwise)."""
import argparse
import json
import os
import sys

from . import framework_runner, inference_engine, sdk_tools, verification
from .errors import DebuggerError
from .tensors import inputs_from_list, parse_input_tensors

PROG = "qnn-accuracy-debugger"
MODES = ("framework_diagnosis", "inference_engine", "verification", "compare_encodings", "tensor_inspection")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise DebuggerError(message + f" (see {PROG} --help)")


def parse(argv):
    p = _Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    m = p.add_argument_group("mode (at most one)")
    m.add_argument("--framework_diagnosis", "--framework_runner", action="store_true", dest="framework_diagnosis",
                   help="golden outputs of every layer from the framework")
    m.add_argument("--inference_engine", action="store_true", help="every layer's output on a QNN backend")
    m.add_argument("--verification", action="store_true", help="compare golden and inference outputs per layer")
    m.add_argument("--compare_encodings", action="store_true", help="QNN encodings vs an AIMET encodings file")
    m.add_argument("--tensor_inspection", action="store_true", help="compare two raw tensors in detail")
    c = p.add_argument_group("common")
    c.add_argument("-w", "--working_dir", default="working_directory", help="where the stage folders go")
    c.add_argument("--output_dirname", help="folder name under working_dir/<stage> (default: a timestamp)")
    c.add_argument("-v", "--verbose", action="store_true")
    f = p.add_argument_group("framework diagnosis")
    f.add_argument("-f", "--framework", nargs="+", metavar="FRAMEWORK", help="onnx [VERSION] (the only framework)")
    f.add_argument("-m", "--model_path", help="the source model (.onnx)")
    f.add_argument("-i", "--input_tensor", nargs="+", action="append", default=[], metavar="ARG",
                   help="NAME DIMS FILE.raw [DTYPE]; repeat per input (default with -l: the list's first line, "
                        "dims and dtypes from the model)")
    f.add_argument("-o", "--output_tensor", action="append", default=[],
                   help="graph output name (accepted; every tensor is dumped)")
    f.add_argument("--framework_engine", choices=["auto", "onnxruntime", "qnn_cpu"], default="auto",
                   help="golden from ONNX Runtime (node + onnxruntime-node) or this SDK's CPU backend in float32; "
                        "auto: ONNX Runtime where it is installed")
    f.add_argument("--disable_graph_optimization", action="store_true", help="accepted (ONNX Runtime always runs "
                   "unoptimized here, so every tensor exists)")
    e = p.add_argument_group("inference engine")
    e.add_argument("-r", "--runtime", default="cpu", help="cpu, htp, dsp, dspv68 ... dspv79 (the HTP simulator)")
    e.add_argument("-a", "--architecture", default="x86_64-linux-clang", help="x86_64-linux-clang only")
    e.add_argument("-l", "--input_list", help="qnn-net-run input list (also the calibration list when quantizing)")
    e.add_argument("--stage", choices=["source", "converted", "compiled"], default="source")
    e.add_argument("-qmcpp", "--qnn_model_cpp_path")
    e.add_argument("-qmbin", "--qnn_model_bin_path")
    e.add_argument("-qmb", "--qnn_model_binary_path")
    e.add_argument("--qnn_model_net_json")
    e.add_argument("--precision", help="inference engine: int8 (quantize; the HTP's default), fp16 or fp32; "
                                       "compare encodings: decimal digits compared (default 17)")
    e.add_argument("-bbw", "--bias_bitwidth", type=int, choices=[8, 32])
    e.add_argument("-abw", "--act_bitwidth", type=int, choices=[8, 16])
    e.add_argument("-wbw", "--weights_bitwidth", type=int, choices=[8])
    e.add_argument("-pq", "--param_quantizer", choices=["tf", "enhanced", "adjusted", "symmetric"])
    e.add_argument("--act_quantizer", choices=["tf", "enhanced", "adjusted", "symmetric"])
    e.add_argument("-qo", "--quantization_overrides")
    e.add_argument("--algorithms", choices=["cle"])
    e.add_argument("--ignore_encodings", action="store_true")
    e.add_argument("--per_channel_quantization", action="store_true")
    e.add_argument("--extra_converter_args", help="'flag=value;flag' passed to qnn-onnx-converter")
    e.add_argument("--engine", nargs="+", default=["QNN"], help="QNN [VERSION]")
    e.add_argument("-p", "--engine_path", help="accepted: the debugger runs the SDK it is installed in")
    e.add_argument("--deviceId", help="ignored: runs on this host")
    e.add_argument("--host_device", choices=["x86"], default="x86")
    v = p.add_argument_group("verification")
    v.add_argument("--default_verifier", action="append", default=[],
                   help="RtolAtol, AdjustedRtolAtol, TopK, MeanIOU, L1Error, CosineSimilarity, MSE, MAE, SQNR, "
                        "ScaledDiff, with name,value parameters (e.g. sqnr,sqnrthreshold,15); repeatable, the first "
                        "decides pass/fail (default SQNR, 20 dB)")
    v.add_argument("--golden_output_reference_directory", "--framework_results", dest="golden_dir",
                   help="a framework_diagnosis result (skips framework diagnosis in the wrapper)")
    v.add_argument("--inference_results", help="an inference_engine result (its mapped_outputs folder or itself)")
    v.add_argument("--qnn_model_json_path", "--graph_struct", dest="qnn_model_json_path",
                   help="model_net.json (layer names and types)")
    v.add_argument("--tensor_mapping", help="tensor_mapping.json of the inference engine")
    ce = p.add_argument_group("compare encodings")
    ce.add_argument("--input", dest="input_json", help="the converter's model_net.json (quantized)")
    ce.add_argument("--aimet_encodings_json", help="AIMET encodings (the --quantization_overrides format)")
    ce.add_argument("--params_only", action="store_true")
    ce.add_argument("--activations_only", action="store_true")
    ce.add_argument("--specific_node", help="compare this tensor only")
    ti = p.add_argument_group("tensor inspection")
    ti.add_argument("--golden_data", help="a golden .raw (float32) or a folder of them")
    ti.add_argument("--target_data", help="the target .raw or a folder with the same file names")
    ti.add_argument("--data_type", choices=["int8", "uint8", "int16", "uint16", "float32"], default="float32",
                    help="the target's data type (fixed point needs --target_encodings)")
    ti.add_argument("--target_encodings", help='JSON {"scale": S, "offset": O} of a fixed-point target')
    wr = p.add_argument_group("wrapper")
    wr.add_argument("--debugging_algorithm", default="oneshot-layerwise",
                    choices=["oneshot-layerwise", "layerwise", "cumulative-layerwise"])
    return p.parse_args(argv)


def _inference_opts(a):
    opts = {k: getattr(a, k) for k in ("model_path", "runtime", "stage", "precision", "input_list",
                                        "qnn_model_cpp_path", "qnn_model_bin_path", "qnn_model_binary_path",
                                        "qnn_model_net_json", "bias_bitwidth", "act_bitwidth", "weights_bitwidth",
                                        "param_quantizer", "act_quantizer", "quantization_overrides", "algorithms",
                                        "ignore_encodings", "per_channel_quantization", "extra_converter_args")}
    if a.precision == "fp32":
        opts["precision"] = "fp16" if a.runtime != "cpu" else None
    return opts


def _check_common(a, mode):
    """What can be refused before any stage runs (a stage can take minutes on a large model)."""
    if mode == "compare_encodings":
        try:
            a.precision = int(a.precision) if a.precision is not None else 17
        except ValueError:
            raise DebuggerError(f"--precision {a.precision}: compare encodings takes a number of decimal digits")
    elif a.precision is not None and a.precision not in ("int8", "fp16", "fp32"):
        raise DebuggerError(f"--precision {a.precision}: the inference engine takes int8, fp16 or fp32")
    from .verifiers import parse_verifier
    for spec in a.default_verifier:
        parse_verifier(spec)
    if a.runtime not in sdk_tools.BACKENDS:
        raise DebuggerError(f"--runtime {a.runtime}: this SDK runs cpu and htp (dsp, dspv68 ... dspv79 are the HTP)")
    if a.framework and a.framework[0].lower() != "onnx":
        raise DebuggerError(f"--framework {a.framework[0]}: only onnx models are supported")
    if a.architecture != "x86_64-linux-clang":
        raise DebuggerError(f"--architecture {a.architecture}: this SDK runs x86_64-linux-clang only")
    if a.debugging_algorithm != "oneshot-layerwise":
        raise DebuggerError(f"--debugging_algorithm {a.debugging_algorithm} is not supported yet (oneshot-layerwise is)")


def _say(msg):
    print(f"{PROG}: {msg}")


def run_framework(a, inputs, dirname=None):
    out = sdk_tools.stage_dir(a.working_dir, "framework_diagnosis", dirname or a.output_dirname)
    engine = framework_runner.framework_diagnosis(a.model_path or "", inputs, out, a.framework_engine)
    _say(f"framework diagnosis ({engine}): {out}")
    return out


def run_inference(a, inputs, input_list=None, dirname=None):
    out = sdk_tools.stage_dir(a.working_dir, "inference_engine", dirname or a.output_dirname)
    opts = _inference_opts(a)
    opts["inputs"] = inputs
    if input_list:
        opts["input_list"] = input_list
    mapped = inference_engine.inference_engine(opts, out)
    _say(f"inference engine ({a.runtime}): {out}")
    return out, mapped


def run_verification(a, golden, inference, net_json, dirname=None):
    out = sdk_tools.stage_dir(a.working_dir, "verification", dirname or a.output_dirname)
    mapping = json.load(open(a.tensor_mapping)) if a.tensor_mapping else None
    s = verification.verify(golden, inference, out, a.default_verifier, net_json, mapping)
    _say(f"verification: {out}/summary.csv, summary.html")
    if s["first_divergence"]:
        fd = s["first_divergence"]
        _say(f"first divergence: {fd['name']} (node {fd['node']}, {fd['layer_type']}), "
             f"{fd['verifier']} = {fd['value']:.4g}; {s['failing']} of {s['layers']} layers fail")
    else:
        _say(f"every layer passes {s['verifiers'][0]} ({s['layers']} layers)")
    if s["largest_error_introduced"]:
        w = s["largest_error_introduced"]
        _say(f"largest error added by one layer: {w['name']} (node {w['node']}, {w['layer_type']})")
    return out, s


def _mapped(path):
    """An inference_engine result folder or its mapped_outputs."""
    if path and os.path.isfile(os.path.join(path, "mapped_outputs", "tensors.json")):
        return os.path.join(path, "mapped_outputs")
    return path


def main(argv=None):
    try:
        a = parse(sys.argv[1:] if argv is None else argv)
        modes = [m for m in MODES if getattr(a, m)]
        if len(modes) > 1:
            raise DebuggerError("choose one mode: " + ", ".join("--" + m for m in modes))
        mode = modes[0] if modes else "wrapper"
        _check_common(a, mode)
        inputs = parse_input_tensors(a.input_tensor)
        if not inputs and a.input_list and a.model_path and mode in ("wrapper", "framework_diagnosis",
                                                                     "inference_engine"):
            inputs = inputs_from_list(a.input_list, a.model_path, os.path.join(a.working_dir, "inputs_from_list"))
        if mode == "framework_diagnosis":
            run_framework(a, inputs)
        elif mode == "inference_engine":
            run_inference(a, inputs)
        elif mode == "verification":
            if not a.golden_dir or not a.inference_results:
                raise DebuggerError("--verification needs --golden_output_reference_directory and --inference_results")
            inf = _mapped(a.inference_results)
            net = a.qnn_model_json_path or os.path.join(os.path.dirname(inf.rstrip("/")), "model_net.json")
            run_verification(a, a.golden_dir, inf, net)
        elif mode in ("compare_encodings", "tensor_inspection"):
            from . import extra_modes
            getattr(extra_modes, mode)(a)
        else:
            if not a.model_path:
                raise DebuggerError("the wrapper needs --model_path (and -i for each input)")
            stamp = a.output_dirname or os.path.basename(sdk_tools.stage_dir(a.working_dir, "wrapper"))
            wrapper = os.path.join(a.working_dir, "wrapper", stamp)
            input_list = a.input_list
            if not input_list:
                if not inputs:
                    raise DebuggerError("give the model's inputs with -i NAME DIMS FILE (or an --input_list)")
                from .qnn_run import write_input_list
                input_list = write_input_list(inputs, os.path.join(wrapper, "input_list.txt"))
            golden = a.golden_dir or run_framework(a, inputs, stamp)
            inf_dir, mapped = run_inference(a, inputs, input_list, stamp)
            out, s = run_verification(a, golden, mapped, os.path.join(inf_dir, "model_net.json"), stamp)
            for name in ("summary.csv", "summary.html", "summary.json"):
                dst = os.path.join(wrapper, name)
                if os.path.lexists(dst):
                    os.remove(dst)
                os.symlink(os.path.relpath(os.path.join(out, name), wrapper), dst)
        return 0
    except DebuggerError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: one line, never a traceback
        print(f"{PROG}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
