"""Inference engine: the model on a QNN backend with every layer's output written (qnn-net-run --debug),
from the source model (convert, quantize when asked or when the runtime is the HTP, compile), a
converted model (model.cpp + model.bin + model_net.json) or a compiled model library."""
import json
import os
import shutil

from . import qnn_run
from .errors import DebuggerError

# The debugger's quantization flags -> qnn-onnx-converter's.
QUANT_FLAGS = {"bias_bitwidth": "--bias_bw", "act_bitwidth": "--act_bw", "weights_bitwidth": "--weight_bw",
               "param_quantizer": "--param_quantizer", "act_quantizer": "--act_quantizer",
               "quantization_overrides": "--quantization_overrides", "algorithms": "--algorithms"}


def converter_args(opts):
    """The converter flags the debugger's options ask for (quantization only when it applies)."""
    args = []
    quantize = opts.get("quantize", False)
    if quantize:
        args += ["--input_list", opts["calibration_list"]]
        for key, flag in QUANT_FLAGS.items():
            if opts.get(key) is not None:
                args += [flag, str(opts[key])]
        if opts.get("ignore_encodings"):
            args.append("--ignore_encodings")
        if opts.get("per_channel_quantization"):
            args.append("--use_per_channel_quantization")
    elif opts.get("quantization_overrides"):
        raise DebuggerError("--quantization_overrides needs a quantized model (--precision int8, or the htp runtime)")
    for item in filter(None, (opts.get("extra_converter_args") or "").split(";")):
        k, _, v = item.partition("=")
        args += ["--" + k.strip().lstrip("-")] + ([v.strip()] if v.strip() else [])
    return args


def inference_engine(opts, out_dir):
    """opts: model_path, inputs, input_list, runtime, stage, precision, quantization options,
    qnn_model_cpp_path / qnn_model_bin_path / qnn_model_net_json / qnn_model_binary_path.
    Writes out_dir/{model.cpp,model.bin,model_net.json,qnn_model_binaries,output/Result_0,
    mapped_outputs/,tensor_mapping.json,inference_engine_options.json,log.txt}; returns the mapped dir."""
    log = os.path.join(out_dir, "log.txt")
    runtime = opts.get("runtime", "cpu")
    stage = opts.get("stage", "source")
    precision = opts.get("precision")
    is_htp = runtime != "cpu"
    opts["quantize"] = precision == "int8" or (is_htp and precision != "fp16") or \
        opts.get("quantization_overrides") is not None and precision != "fp16"
    input_list = opts.get("input_list")
    if not input_list or not os.path.isfile(input_list):
        raise DebuggerError(f"--input_list {input_list} does not exist" if input_list else "--input_list is required")
    opts["calibration_list"] = input_list
    if stage == "source":
        if not opts.get("model_path") or not os.path.isfile(opts["model_path"]):
            raise DebuggerError("--model_path must name the ONNX model (--stage source)")
        net = qnn_run.convert(opts["model_path"], out_dir, opts.get("inputs", []), converter_args(opts), log)
        lib = qnn_run.build_library(out_dir, log)
    elif stage == "converted":
        need = ("qnn_model_cpp_path", "qnn_model_bin_path", "qnn_model_net_json")
        if not all(opts.get(k) for k in need):
            raise DebuggerError("--stage converted needs --qnn_model_cpp_path, --qnn_model_bin_path and "
                                "--qnn_model_net_json")
        net = opts["qnn_model_net_json"]
        lib = qnn_run.build_library(out_dir, log, opts["qnn_model_cpp_path"], opts["qnn_model_bin_path"])
    elif stage == "compiled":
        if not opts.get("qnn_model_binary_path") or not opts.get("qnn_model_net_json"):
            raise DebuggerError("--stage compiled needs --qnn_model_binary_path and --qnn_model_net_json")
        net, lib = opts["qnn_model_net_json"], opts["qnn_model_binary_path"]
    else:
        raise DebuggerError(f"--stage must be source, converted or compiled, got {stage}")
    if os.path.abspath(net) != os.path.abspath(os.path.join(out_dir, "model_net.json")):
        shutil.copy(net, os.path.join(out_dir, "model_net.json"))
    output = qnn_run.net_run(lib, runtime, input_list, out_dir, log)
    first = os.path.join(output, "Result_0")
    if not os.path.isdir(first):
        raise DebuggerError(f"qnn-net-run wrote no {first}")
    mapped = os.path.join(out_dir, "mapped_outputs")
    mapping = qnn_run.map_results(os.path.join(out_dir, "model_net.json"), first, mapped)
    shutil.copy(os.path.join(mapped, "tensor_mapping.json"), os.path.join(out_dir, "tensor_mapping.json"))
    with open(os.path.join(out_dir, "inference_engine_options.json"), "w") as f:
        json.dump({k: v for k, v in opts.items() if k != "inputs"}, f, indent=1, default=str)
    if not mapping:
        raise DebuggerError("no layer output maps to a source-model tensor (model_net.json without source_tensors?)")
    return mapped
