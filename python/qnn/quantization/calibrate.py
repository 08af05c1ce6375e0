"""Calibration: read the --input_list raw files and collect per-tensor activation statistics."""
import os
import sys
import time

import numpy as np

import qnn
from qnn.errors import ConverterError, first_line
from .backend_eval import BackendEvaluator, find_backend
from .evaluator import Evaluator

SAMPLES_PER_INPUT = 4096   # values kept per tensor and input for the enhanced quantizer's histogram


def read_input_list(path, graph, model_inputs, native):
    """-> list of {qnn input name: array in the input's ONNX shape}. Lines hold one path per input in
    graph-input order, or 'name:=path' pairs; '#'/'%' lines (output names) are skipped. Relative paths
    are taken relative to the list's directory. Files are float32 unless --use_native_input_files."""
    try:
        with open(path) as f:
            lines = [ln.strip() for ln in f]
    except OSError as e:
        raise ConverterError(f"--input_list: cannot read '{path}': {e.strerror}")
    base = os.path.dirname(os.path.abspath(path))
    by_onnx = dict(zip(model_inputs, graph.inputs))
    sets = []
    for lineno, ln in enumerate(lines, 1):
        if not ln or ln[0] in "#%":
            continue
        parts = ln.split()
        if len(parts) != len(graph.inputs):
            raise ConverterError(f"--input_list {path}:{lineno}: {len(parts)} files for {len(graph.inputs)} graph inputs")
        feeds = {}
        for k, part in enumerate(parts):
            name, file = part.split(":=", 1) if ":=" in part else (model_inputs[k], part)
            qname = by_onnx.get(name, name if name in graph.inputs else None)
            if qname is None:
                raise ConverterError(f"--input_list {path}:{lineno}: '{name}' is not a graph input")
            t = graph.tensors[qname]
            file = file if os.path.isabs(file) or os.path.exists(file) else os.path.join(base, file)
            dt = t.dtype if native else np.dtype(np.float32)
            try:
                arr = np.fromfile(file, dt)
            except OSError as e:
                raise ConverterError(f"--input_list {path}:{lineno}: cannot read '{file}': {e.strerror}")
            want = int(np.prod(t.shape))
            if arr.size != want:
                raise ConverterError(f"--input_list {path}:{lineno}: '{file}' holds {arr.size} {dt} values, "
                                     f"input '{name}' {t.shape} needs {want}")
            feeds[qname] = arr.astype(t.dtype).reshape(t.shape)
        sets.append(feeds)
    if not sets:
        raise ConverterError(f"--input_list {path}: no inputs listed")
    return sets


class Stats:
    """Running min/max per tensor, plus a sample of values when the enhanced quantizer needs them."""

    def __init__(self, keep_samples):
        self.min, self.max, self.samples = {}, {}, {}
        self.keep_samples = keep_samples
        self.rs = np.random.RandomState(0)

    def observe(self, name, v):
        if v.size == 0:
            return
        mn, mx = float(np.min(v)), float(np.max(v))
        if not (np.isfinite(mn) and np.isfinite(mx)):
            finite = v[np.isfinite(v)]
            if finite.size == 0:
                return
            mn, mx = float(finite.min()), float(finite.max())
        self.min[name] = min(mn, self.min.get(name, mn))
        self.max[name] = max(mx, self.max.get(name, mx))
        if self.keep_samples:
            flat = v.reshape(-1)
            if flat.size > SAMPLES_PER_INPUT:
                flat = flat[self.rs.randint(0, flat.size, SAMPLES_PER_INPUT)]
            self.samples.setdefault(name, []).append(np.asarray(flat, np.float32))

    def values(self, name):
        parts = self.samples.get(name)
        return np.concatenate(parts) if parts else None


def _progress_wanted():
    """A progress line only on a terminal, and not with QNN_NO_PROGRESS set (as the C++ tools)."""
    return sys.stderr.isatty() and not os.environ.get("QNN_NO_PROGRESS")


def evaluator(graph):
    """The graph on libQnnCpu.so when the backend can run it (backend_eval.py), else the numpy evaluator."""
    backend = find_backend()
    if backend is not None:
        try:
            return BackendEvaluator(graph, backend)
        except (ValueError, TypeError, qnn.QnnError) as e:
            print(f"calibration: {os.path.basename(backend)} does not run this graph ({first_line(e)}); "
                  "calibrating with the numpy evaluator", file=sys.stderr)
    return Evaluator(graph)


def calibrate(graph, input_sets, keep_samples):
    stats = Stats(keep_samples)
    ev = evaluator(graph)
    show = _progress_wanted() and len(input_sets) > 1
    start = time.monotonic()
    for k, feeds in enumerate(input_sets):
        if show:
            sys.stderr.write(f"\rcalibration: {k}/{len(input_sets)} inputs {time.monotonic() - start:.1f} s\033[K")
            sys.stderr.flush()
        ev.run(feeds, stats.observe)
    if show:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
    if hasattr(ev, "close"):
        ev.close()
    return stats
