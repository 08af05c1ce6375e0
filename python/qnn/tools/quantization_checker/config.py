"""The checker's configuration: the JSON file of --config_file (the vendor's keys), command-line values
over it. Keys that name other toolchains (CLANG_PATH, BASH_PATH, PY3_PATH, TENSORFLOW_HOME, TFLITE_HOME,
ONNX_HOME) are accepted and unused: the checker runs this SDK's tools from its own bin/ (or BIN_PATH)."""
import json
import os

from qnn.errors import ConverterError

from .metrics import DEFAULTS

KNOWN = {"RUN_IN_REPAIR_MODE", "MODEL_PATH", "INPUT_LIST_PATH", "ACTIVATION_WIDTH", "BIAS_WIDTH", "WEIGHT_WIDTH",
         "INPUT_LAYOUT", "OUTPUT_DIR_PATH", "CLANG_PATH", "BASH_PATH", "BIN_PATH", "PY3_PATH", "TENSORFLOW_HOME",
         "TFLITE_HOME", "ONNX_HOME", "QUANTIZATION_OVERRIDES", "WEIGHT_COMPARISON_ALGORITHMS",
         "BIAS_COMPARISON_ALGORITHMS", "ACT_COMPARISON_ALGORITHMS", "INPUT_DATA_ANALYSIS_ALGORITHMS", "OUTPUT_CSV",
         "GENERATE_HISTOGRAM", "PER_CHANNEL_HISTOGRAM", "QUANTIZATION_VARIATIONS", "QUANTIZATION_ALGORITHMS"}
QUANTIZERS = ("tf", "enhanced", "adjusted", "symmetric")
ALGORITHMS = ("cle", "pcq")
DEFAULT_WEIGHT_ALGOS = ["minmax", "maxdiff", "sqnr", "stats", "data_range", "clustering", "symmetry"]
DEFAULT_ACT_ALGOS = ["minmax", "maxdiff", "sqnr", "stats"]
DEFAULT_INPUT_ALGOS = ["data_range", "stats"]


def _bool(v):
    return v if isinstance(v, bool) else str(v).strip().lower() in ("1", "true", "yes")


def _algos(value, key, default):
    """[{"algo_name": N, "threshold": T}] (or plain names) -> [(name, threshold)]."""
    if value is None:
        return [(a, DEFAULTS[a]) for a in default]
    if not isinstance(value, list):
        raise ConverterError(f"{key} must be a list of {{\"algo_name\": ..., \"threshold\": ...}}")
    out = []
    for item in value:
        name, thr = (item, None) if isinstance(item, str) else (item.get("algo_name") if isinstance(item, dict) else None,
                                                                  item.get("threshold") if isinstance(item, dict) else None)
        # The vendor's act_* names are the same checks on activations.
        name = {"act_minmax": "minmax", "act_maxdiff": "maxdiff", "act_sqnr": "sqnr", "act_stats": "stats",
                "data_range_analyzer": "data_range", "data_distribution_analyzer": "stats"}.get(name, name)
        if name not in DEFAULTS:
            raise ConverterError(f"{key}: unknown algorithm {name!r} (known: {', '.join(DEFAULTS)})")
        try:
            out.append((name, float(thr) if thr is not None else DEFAULTS[name]))
        except (TypeError, ValueError):
            raise ConverterError(f"{key}: threshold of {name} must be a number, got {thr!r}")
    return out


class Config:
    def __init__(self, args):
        doc = {}
        if args.config_file:
            try:
                with open(args.config_file) as f:
                    doc = json.load(f)
            except OSError as e:
                raise ConverterError(f"--config_file {args.config_file}: {e.strerror}")
            except ValueError as e:
                raise ConverterError(f"--config_file {args.config_file} is not JSON: {e}")
            if not isinstance(doc, dict):
                raise ConverterError("--config_file must hold a JSON object")
            unknown = set(doc) - KNOWN
            if unknown:
                raise ConverterError(f"--config_file: unknown keys {', '.join(sorted(unknown))}")
        base = os.path.dirname(os.path.abspath(args.config_file)) if args.config_file else os.getcwd()

        def path(v):
            return v if v is None or os.path.isabs(v) else os.path.join(base, v)
        self.model = args.model or path(doc.get("MODEL_PATH"))
        self.input_list = args.input_list or path(doc.get("INPUT_LIST_PATH"))
        self.output_dir = args.output_dir or path(doc.get("OUTPUT_DIR_PATH")) or os.path.join(os.getcwd(), "qnn_qc")
        self.act_bw = int(args.activation_width or doc.get("ACTIVATION_WIDTH", 8))
        self.bias_bw = int(args.bias_width or doc.get("BIAS_WIDTH", 8))
        self.weight_bw = int(doc.get("WEIGHT_WIDTH", 8))
        self.overrides = path(doc.get("QUANTIZATION_OVERRIDES"))
        self.bin_path = doc.get("BIN_PATH")
        self.input_layout = doc.get("INPUT_LAYOUT")
        self.repair = _bool(doc.get("RUN_IN_REPAIR_MODE", False))
        self.output_csv = args.output_csv or _bool(doc.get("OUTPUT_CSV", False))
        self.histogram = args.generate_histogram or _bool(doc.get("GENERATE_HISTOGRAM", False))
        self.per_channel_histogram = args.per_channel_histogram or _bool(doc.get("PER_CHANNEL_HISTOGRAM", False))
        self.weight_algos = _algos(doc.get("WEIGHT_COMPARISON_ALGORITHMS"), "WEIGHT_COMPARISON_ALGORITHMS",
                                   DEFAULT_WEIGHT_ALGOS)
        self.bias_algos = _algos(doc.get("BIAS_COMPARISON_ALGORITHMS"), "BIAS_COMPARISON_ALGORITHMS",
                                 ["minmax", "maxdiff", "sqnr"])
        self.act_algos = _algos(doc.get("ACT_COMPARISON_ALGORITHMS"), "ACT_COMPARISON_ALGORITHMS", DEFAULT_ACT_ALGOS)
        self.input_algos = _algos(doc.get("INPUT_DATA_ANALYSIS_ALGORITHMS"), "INPUT_DATA_ANALYSIS_ALGORITHMS",
                                  DEFAULT_INPUT_ALGOS)
        quantizers = doc.get("QUANTIZATION_VARIATIONS", ["unquantized", *QUANTIZERS])
        algorithms = doc.get("QUANTIZATION_ALGORITHMS", list(ALGORITHMS))
        if not isinstance(quantizers, list) or not isinstance(algorithms, list):
            raise ConverterError("QUANTIZATION_VARIATIONS and QUANTIZATION_ALGORITHMS must be lists")
        bad = [q for q in quantizers if q not in ("unquantized",) + QUANTIZERS] + \
              [a for a in algorithms if a not in ALGORITHMS]
        if bad:
            raise ConverterError(f"unknown quantization variation or algorithm {', '.join(map(str, bad))} (variations: "
                                 f"unquantized, {', '.join(QUANTIZERS)}; algorithms: {', '.join(ALGORITHMS)})")
        # Variations: each quantizer alone, then with each algorithm ("tf", "tf_cle", "tf_pcq", ...).
        self.variations = [q for q in quantizers if q != "unquantized"]
        self.variations += [f"{q}_{a}" for q in quantizers if q != "unquantized" for a in algorithms]
        if self.act_bw not in (8, 16) or self.bias_bw not in (8, 32) or self.weight_bw != 8:
            raise ConverterError("ACTIVATION_WIDTH must be 8 or 16, BIAS_WIDTH 8 or 32, WEIGHT_WIDTH 8")
        if not self.model:
            raise ConverterError("no model: give --model or MODEL_PATH")
        if not os.path.isfile(self.model):
            raise ConverterError(f"model {self.model} does not exist")
        if not self.input_list or not os.path.isfile(self.input_list):
            raise ConverterError(f"input list {self.input_list} does not exist" if self.input_list else
                                 "no input list: give --input_list or INPUT_LIST_PATH (calibration needs data)")
        if not self.variations:
            raise ConverterError("QUANTIZATION_VARIATIONS names no quantizer")

    def converter_flags(self, variation):
        q, _, algo = variation.partition("_")
        flags = ["--input_list", self.input_list, "--param_quantizer", q, "--act_quantizer", q,
                 "--act_bw", str(self.act_bw), "--bias_bw", str(self.bias_bw), "--weight_bw", str(self.weight_bw)]
        if algo == "cle":
            flags += ["--algorithms", "cle"]
        elif algo == "pcq":
            flags += ["--use_per_channel_quantization"]
        if self.overrides:
            flags += ["--quantization_overrides", self.overrides]
        return flags
