"""The checker's run: the model converted without quantization and with every variation asked for, the
quantized weights and biases compared with the float ones, the models run on the CPU backend
(qnn-net-run --debug: every activation) and their activations compared with the float model's, the
inputs analysed, reports written; in repair mode the worst activation raised to 16 bits until the
variation passes (or three rounds)."""
import json
import os
import shutil
import subprocess

import numpy as np

from qnn.errors import ConverterError
from qnn.converters.read_net import read_net

from . import metrics

WEIGHTED_OPS = {"Conv2d": (1, 2), "DepthWiseConv2d": (1, 2), "TransposeConv2d": (1, 2), "Conv3d": (1, 2),
                "FullyConnected": (1, 2), "MatMul": (1, None)}


class Tools:
    def __init__(self, bin_dir, log):
        self.bin, self.log = bin_dir, log

    def run(self, name, args, what):
        exe = os.path.join(self.bin, name)
        if not os.path.isfile(exe):
            raise ConverterError(f"{name} not found in {self.bin}")
        p = subprocess.run([exe, *map(str, args)], capture_output=True, text=True)
        with open(self.log, "a") as f:
            f.write(f"$ {name} {' '.join(map(str, args))}\n{p.stdout}{p.stderr}\n")
        if p.returncode != 0:
            lines = [ln for ln in (p.stderr or p.stdout).splitlines() if ln.strip()]
            raise ConverterError(f"{what}: {lines[-1] if lines else f'{name} exit code {p.returncode}'}")
        return p

    def backend(self):
        root = os.path.dirname(self.bin.rstrip("/"))
        for sub in ("lib/x86_64-linux-clang", "lib"):
            p = os.path.join(root, sub, "libQnnCpu.so")
            if os.path.isfile(p):
                return p
        raise ConverterError(f"libQnnCpu.so not found under {root}/lib")


def dequantize(t):
    enc = getattr(t, "quant", None)
    data = np.asarray(t.data)
    if enc is None or enc.is_float:
        return data.astype(np.float64)
    s, o = enc.scale.astype(np.float64), enc.offset.astype(np.float64)
    if enc.per_axis:
        shape = [1] * data.ndim
        shape[enc.axis] = -1
        s, o = s.reshape(shape), o.reshape(shape)
    return (data.astype(np.float64) + o) * s


class Checker:
    def __init__(self, cfg, tools, skip_generator=False, skip_building=False, skip_runner=False):
        self.cfg, self.tools = cfg, tools
        self.skip_generator, self.skip_building, self.skip_runner = skip_generator, skip_building, skip_runner
        self.results = []   # dicts: variation, kind (weight|bias|activation|input), op, node, tensor, input, algo...
        self.repairs = []

    # ---- stages ----
    def convert(self, variation, flags, overrides=None):
        d = os.path.join(self.cfg.output_dir, variation)
        net = os.path.join(d, "model_net.json")
        if self.skip_generator:
            if not os.path.isfile(net):
                raise ConverterError(f"--skip_generator: {net} does not exist (run once without it)")
            return d
        os.makedirs(d, exist_ok=True)
        args = ["-i", self.cfg.model, "-o", os.path.join(d, "model.cpp"), *flags]
        if overrides:
            args = [a for a in args]
            if "--quantization_overrides" in args:
                i = args.index("--quantization_overrides")
                del args[i:i + 2]
            args += ["--quantization_overrides", overrides]
        self.tools.run("qnn-onnx-converter", args, f"converting the model ({variation})")
        return d

    def run_model(self, d):
        lib = os.path.join(d, "lib", "x86_64-linux-clang", "libmodel.so")
        if not self.skip_building:
            self.tools.run("qnn-model-lib-generator", ["-c", os.path.join(d, "model.cpp"), "-b",
                                                      os.path.join(d, "model.bin"), "-o", os.path.join(d, "lib"),
                                                      "-l", "model"], f"building {os.path.basename(d)}")
        elif not os.path.isfile(lib):
            raise ConverterError(f"--skip_building_model: {lib} does not exist")
        out = os.path.join(d, "output")
        shutil.rmtree(out, ignore_errors=True)
        self.tools.run("qnn-net-run", ["--model", lib, "--backend", self.tools.backend(), "--input_list",
                                       self.cfg.input_list, "--output_dir", out, "--debug", "--quiet"],
                       f"running {os.path.basename(d)}")
        return out

    # ---- comparisons ----
    def _record(self, variation, kind, op, tensor, algos, f, q, bitwidth, levels=None, sym=False, input_name=""):
        for algo, thr in algos:
            v, ok = metrics.evaluate(algo, thr, f, q, bitwidth, levels, sym)
            self.results.append({"variation": variation, "kind": kind, "op": op.type if op else "", "node":
                                 op.name if op else "", "tensor": tensor, "input": input_name, "algorithm": algo,
                                 "check": metrics.NAMES[algo], "result": float(v), "threshold": thr, "pass": bool(ok)})

    def compare_params(self, variation, fnet, qnet):
        for op in qnet.graph.ops:
            idx = WEIGHTED_OPS.get(op.type)
            if not idx:
                continue
            for kind, i in (("weight", idx[0]), ("bias", idx[1])):
                if i is None or i >= len(op.inputs):
                    continue
                name = op.inputs[i]
                qt, ft = qnet.graph.tensors.get(name), fnet.graph.tensors.get(name)
                if qt is None or ft is None or qt.kind != "static" or qt.data is None or ft.data is None:
                    continue
                enc = getattr(qt, "quant", None)
                if enc is None or enc.is_float:
                    continue
                f, q = np.asarray(ft.data, np.float64), dequantize(qt)
                if f.shape != q.shape:
                    continue
                algos = self.cfg.weight_algos if kind == "weight" else self.cfg.bias_algos
                sym = bool(enc.signed and np.all(enc.offset == -(1 << (enc.bitwidth - 1))) or
                           (enc.signed and np.all(enc.offset == 0)))
                self._record(variation, kind, op, name, algos, f, q, enc.bitwidth,
                             levels=int(np.unique(qt.data).size), sym=sym)
                if self.cfg.histogram:
                    self._histogram(variation, kind, name, f, q, enc)

    def compare_activations(self, variation, fnet, qnet, fout, qout):
        producers = {o: op for op in qnet.graph.ops for o in op.outputs}
        for result in sorted(os.listdir(qout)):
            rdir, fdir = os.path.join(qout, result), os.path.join(fout, result)
            if not result.startswith("Result_") or not os.path.isdir(fdir):
                continue
            for name, t in qnet.graph.tensors.items():
                enc = getattr(t, "quant", None)
                if t.kind == "static" or enc is None or enc.is_float or name not in producers:
                    continue
                qf, ff = os.path.join(rdir, name + ".raw"), os.path.join(fdir, name + ".raw")
                if not (os.path.isfile(qf) and os.path.isfile(ff)):
                    continue
                q, f = np.fromfile(qf, np.float32), np.fromfile(ff, np.float32)
                if q.size != f.size:
                    continue
                self._record(variation, "activation", producers[name], name, self.cfg.act_algos, f, q, enc.bitwidth,
                             input_name=result)

    def analyse_inputs(self):
        with open(self.cfg.input_list) as fh:
            lines = [ln.split("#")[0].strip() for ln in fh if ln.split("#")[0].strip()]
        base = os.path.dirname(os.path.abspath(self.cfg.input_list))
        for k, line in enumerate(lines):
            for item in line.split():
                name, _, path = item.rpartition(":=")
                path = path if os.path.isabs(path) else os.path.join(base, path)
                if not os.path.isfile(path):
                    raise ConverterError(f"input list line {k + 1}: {path} does not exist")
                data = np.fromfile(path, np.float32)
                self._record("input", "input", None, name or f"input {k}", self.cfg.input_algos, data, data,
                             self.cfg.act_bw, input_name=os.path.basename(path))

    def _histogram(self, variation, kind, name, f, q, enc):
        from qnn.tools.png_chart import chart
        d = os.path.join(self.cfg.output_dir, "hist_analysis_weights" if kind == "weight" else "hist_analysis_biases",
                         variation)
        os.makedirs(d, exist_ok=True)

        def one(path, title, fv, qv):
            lo, hi = float(min(fv.min(), qv.min())), float(max(fv.max(), qv.max()))
            bins = np.linspace(lo, hi if hi > lo else lo + 1, 65)
            centers = ((bins[:-1] + bins[1:]) / 2).tolist()
            chart(path, title, [("float", centers, np.histogram(fv, bins)[0].tolist()),
                                ("quantized", centers, np.histogram(qv, bins)[0].tolist())], "value", "count", bars=True)
        one(os.path.join(d, f"{name}.png"), f"{name} ({variation})", f.ravel(), q.ravel())
        if self.cfg.per_channel_histogram and f.ndim >= 2:
            axis = enc.axis if enc.per_axis else f.ndim - 1
            for c in range(f.shape[axis]):
                one(os.path.join(d, f"{name}_channel{c}.png"), f"{name} channel {c} ({variation})",
                    np.take(f, c, axis).ravel(), np.take(q, c, axis).ravel())

    # ---- the run ----
    def run(self):
        os.makedirs(self.cfg.output_dir, exist_ok=True)
        self.analyse_inputs()
        fdir = self.convert("unquantized", [])
        fnet = read_net(os.path.join(fdir, "model_net.json"), os.path.join(fdir, "model.bin"))
        fout = None if self.skip_runner else self.run_model(fdir)
        for v in self.cfg.variations:
            self.check_variation(v, fnet, fout)
        if self.cfg.repair and not self.skip_runner:
            self.repair(self.cfg.variations[0], fnet, fout)

    def check_variation(self, v, fnet, fout, overrides=None, label=None):
        label = label or v
        d = self.convert(label, self.cfg.converter_flags(v), overrides)
        qnet = read_net(os.path.join(d, "model_net.json"), os.path.join(d, "model.bin"))
        if not v.endswith("_cle"):   # CLE rescales the float weights themselves: compared through activations only
            self.compare_params(label, fnet, qnet)
        if fout is not None:
            self.compare_activations(label, fnet, qnet, fout, self.run_model(d))
        return qnet

    def repair(self, v, fnet, fout):
        """Raise the earliest failing tensor of variation v (in graph order; a weight before its op's output:
        errors flow downstream) to 16 bits -- a weight on its float range, an activation on the range the
        unquantized run saw -- and re-run; up to three rounds. Overrides (keyed by QNN tensor name, which
        --quantization_overrides accepts) accumulate in repair_overrides.json."""
        order = {}
        for k, op in enumerate(fnet.graph.ops):
            for i in op.inputs:
                order.setdefault(i, (k, 0))
            for o in op.outputs:
                order.setdefault(o, (k, 1))
        overrides = {"activation_encodings": {}, "param_encodings": {}}
        if self.cfg.overrides:
            with open(self.cfg.overrides) as f:
                base = json.load(f)
            overrides["activation_encodings"].update(base.get("activation_encodings", {}))
            overrides["param_encodings"].update(base.get("param_encodings", {}))
        label = v
        for rnd in range(1, 4):
            failing = [r for r in self.results if r["variation"] == label and not r["pass"]
                       and r["kind"] in ("weight", "bias", "activation") and r["tensor"] in order]
            done = set(overrides["activation_encodings"]) | set(overrides["param_encodings"])
            candidates = [r for r in failing if r["tensor"] not in done]
            if not candidates:
                break
            worst = min(candidates, key=lambda r: order[r["tensor"]])
            tensor = worst["tensor"]
            if worst["kind"] == "activation":
                values = [np.fromfile(os.path.join(fout, res, tensor + ".raw"), np.float32) for res in os.listdir(fout)
                          if os.path.isfile(os.path.join(fout, res, tensor + ".raw"))]
                lo, hi = float(min(x.min() for x in values)), float(max(x.max() for x in values))
                overrides["activation_encodings"][tensor] = [{"bitwidth": 16, "min": lo, "max": hi}]
            else:
                data = np.asarray(fnet.graph.tensors[tensor].data, np.float64)
                overrides["param_encodings"][tensor] = [{"bitwidth": 16, "min": float(data.min()),
                                                         "max": float(data.max())}]
            path = os.path.join(self.cfg.output_dir, "repair_overrides.json")
            with open(path, "w") as f:
                json.dump(overrides, f, indent=1)
            label = f"{v}_repair{rnd}"
            self.check_variation(v, fnet, fout, path, label)
            after = [r for r in self.results if r["variation"] == label and not r["pass"]]
            self.repairs.append({"round": rnd, "variation": label, "tensor": tensor, "kind": worst["kind"],
                                 "bitwidth": 16, "failing_before": len(failing), "failing_after": len(after)})
