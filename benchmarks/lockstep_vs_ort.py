#!/usr/bin/env python3
"""One model on libQnnCpu.so and on ONNX Runtime's CPU provider in lockstep: both stay loaded and
take turns one inference at a time (which side goes first alternates), 100 ms apart. On a host whose
speed changes every few seconds (another tenant on the twin hardware thread, docs/benchmarks.md) both
runs of a pair meet the same speed, and the median of the pairs' ratios compares the two
implementations, not the hour. The pause keeps either side's spinning worker threads off the other's
run: ORT's intra-op workers spin for tens of milliseconds after a run (with 20 ms pauses ours ran 1.2x
slower at 2 threads than with 60 or 150 ms); ours park after 300 us.

  ours: the converted model library on the backend, through the Python package (qnn), timed around
        QnnGraph_execute from Python (Graph.bind: ~30 us of Python a call included)
  ORT:  benchmarks/ort_run.js --serve 1 (onnxruntime-node; timed around session.run from JavaScript)

usage: lockstep_vs_ort.py --model-lib LIB.so --backend libQnnCpu.so --input-list input_list.txt
                          --onnx MODEL.onnx [--threads T] [--pairs N] [--warmup W] [--gap-ms G]
                          [--pairs-out FILE] [--node-modules DIR]
Prints one line: ours_ms=<median> ort_ms=<median> ratio=<ours / ORT of medians>
pair_ratio=<median of pairs' ours / ORT> p25=.. p75=.. fast_ratio=<ours / ORT of each side's 10th
percentile> pairs=N (times in ms). fast_ratio is the two at the host's full speed: the pairs meet the
host's fast and slow spells alike, and each side's fastest tenth is its time with the core its own
(a dedicated core runs at that speed all the time; with the twin thread busy, the ratio moves toward 1).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model-lib", required=True)
    p.add_argument("--backend", required=True)
    p.add_argument("--input-list", required=True, help="qnn-net-run's format: one line of name:=path.raw")
    p.add_argument("--onnx", required=True)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--gap-ms", type=float, default=100.0)
    p.add_argument("--pairs-out", help="also write each pair there: which side ran first, ours ms, ORT ms")
    p.add_argument("--node-modules", default=os.path.join(HERE, "..", "build", "ortnode", "node_modules"))
    return p.parse_args()


def quantile(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def main():
    a = parse_args()
    os.environ["QNN_CPU_NUM_THREADS"] = str(a.threads)  # read when the backend starts its workers
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    import numpy as np
    import qnn

    ort = subprocess.Popen(["node", os.path.join(HERE, "ort_run.js"), a.onnx, "--threads", str(a.threads),
                            "--warmup", str(a.warmup), "--serve", "1"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                           env=dict(os.environ, NODE_PATH=a.node_modules))
    try:
        if ort.stdout.readline().strip() != "ready":
            raise RuntimeError("ort_run.js did not start (its error is above)")

        def ort_once():
            ort.stdin.write("run\n")
            ort.stdin.flush()
            line = ort.stdout.readline()
            if not line:
                raise RuntimeError("ort_run.js ended early (its error is above)")
            return float(line)

        with qnn.Backend(a.backend) as backend:
            ctx = backend.load_model_library(a.model_lib)
            graph = next(iter(ctx.graphs.values()))
            paths = dict(e.split(":=", 1) for e in open(a.input_list).read().split())
            missing = [t.name for t in graph.inputs if t.name not in paths]
            if missing:
                raise ValueError(f"{a.input_list} names no file for the graph's inputs {missing}")
            feeds = {t.name: np.fromfile(paths[t.name], dtype=t.dtype).reshape(t.dims) for t in graph.inputs}
            bound = graph.bind(feeds)  # converted once: each timed call is QnnGraph_execute and ~30 us of Python

            def ours_once():
                t0 = time.perf_counter()
                bound.run()
                return (time.perf_counter() - t0) * 1e3

            for _ in range(a.warmup):
                ours_once()
            ours, theirs = [], []
            for i in range(a.pairs):
                first, second = (ours_once, ort_once) if i % 2 == 0 else (ort_once, ours_once)
                x = first()
                time.sleep(a.gap_ms / 1e3)
                y = second()
                time.sleep(a.gap_ms / 1e3)
                ours.append(x if i % 2 == 0 else y)
                theirs.append(y if i % 2 == 0 else x)
            ctx.close()
    finally:
        ort.stdin.close()
        ort.wait()
    if a.pairs_out:
        with open(a.pairs_out, "w") as f:
            for i, (o, t) in enumerate(zip(ours, theirs)):
                f.write(f"{'ours' if i % 2 == 0 else 'ort'} {o:.3f} {t:.3f}\n")
    ratios = [o / t for o, t in zip(ours, theirs)]
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"ours_ms={mo:.3f} ort_ms={mt:.3f} ratio={mo / mt:.3f} pair_ratio={statistics.median(ratios):.3f} "
          f"p25={quantile(ratios, 0.25):.3f} p75={quantile(ratios, 0.75):.3f} "
          f"fast_ratio={quantile(ours, 0.1) / quantile(theirs, 0.1):.3f} pairs={a.pairs}")


if __name__ == "__main__":
    try:
        main()
    except (OSError, RuntimeError, ValueError, KeyError) as e:
        sys.exit(f"lockstep_vs_ort.py: {e}")
