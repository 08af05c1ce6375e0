#!/usr/bin/env python3
"""ONNX's own node conformance tests through the whole tool chain.

Each test of ONNX's backend node suite (Debian's libonnx-testdata: a single-op model.onnx with
inputs and expected outputs as TensorProto files) goes through qnn-onnx-converter ->
qnn-model-lib-generator -> qnn-net-run on a backend, and its outputs are compared with the expected
ones (rtol 1e-3, atol 1e-5 as ONNX's own runner on the CPU, TOLERANCE for the HTP's fp16 mode;
integers and booleans exactly). --backend htp runs the graphs in fp16 (fp16_relaxed_precision).

  run_node_tests.py BUILD_DIR [--data DIR] [--backend cpu|htp] [--expected FILE] [--write-expected]
                    [-j N] [--filter SUBSTRING] [--sample K/N] [--work DIR] [--report FILE]
                    [--json-report FILE]

Tests that cannot apply to an inference SDK (training ops and losses, sequence/optional/string
types) are excluded, each with its reason (`excluded.txt` lists the op-type rules). Prints one line
per test (PASS, FAIL with the first `error:` line of the tool that failed or the output that
differs, EXCLUDED with the reason), then `N passed, M failed (of T; E excluded)`. With --expected
the exit code is 1 when a test the file lists fails (a regression); --write-expected rewrites the
file with the tests that passed. --sample K/N runs only every N-th applicable test starting at the
K-th (the bounded run CI takes; scripts/onnx-node-conformance.sh runs them all). Exit 77 (skipped) when python3-onnx/numpy or the data are missing.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
HERE = os.path.dirname(os.path.abspath(__file__))

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError:
    print("python3-onnx and python3-numpy are needed: skipped")
    sys.exit(SKIP)


def read_exclusions(path):
    """excluded.txt: `op <OpType> <reason>` and `test <name prefix> <reason>` lines; '#' starts a comment."""
    rules = {"op": {}, "test": {}}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            kind, name, reason = line.split(None, 2)
            if kind not in rules:
                raise SystemExit(f"{path}: unknown rule '{kind}'")
            rules[kind][name] = reason
    return rules


def exclusion_reason(name, model, rules):
    """Why a test cannot apply to an inference SDK, or None."""
    for prefix, reason in rules["test"].items():
        if name.startswith(prefix):
            return reason
    for node in model.graph.node:
        if node.op_type in rules["op"]:
            return f"{node.op_type}: {rules['op'][node.op_type]}"
        if node.domain not in ("", "ai.onnx"):
            return f"{node.op_type}: operator domain '{node.domain}' (training/preview ops)"
    for vi in list(model.graph.input) + list(model.graph.output):
        kind = vi.type.WhichOneof("value")
        if kind in ("sequence_type", "optional_type", "map_type"):
            return f"{vi.name}: {kind.replace('_type', '')} values (not a tensor)"
        if kind == "tensor_type" and vi.type.tensor_type.elem_type == onnx.TensorProto.STRING:
            return f"{vi.name}: string tensor"
    return None


def first_error(text):
    """The first `error:` line of a tool's output (or what stands for it)."""
    lines = text.splitlines()
    for line in lines:
        if "error:" in line or "ERROR" in line:
            return line.strip()[:300]
    for line in lines:
        if line.startswith("Traceback"):
            return "Python traceback: " + lines[-1].strip()[:250]
    return (lines[-1].strip() if lines else "no output")[:300]


def run_step(cmd, what, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        message = first_error(p.stderr + p.stdout)
        raise StepFailed(message if message.startswith(what) else f"{what}: {message}")
    return p


class StepFailed(Exception):
    pass


def graph_layout(arr, tensor):
    if tensor.get("axis_format") == "NHWC":
        arr = arr.transpose(0, 2, 3, 1)
    return np.ascontiguousarray(arr)


def onnx_layout(arr, tensor):
    return arr.transpose(0, 3, 1, 2) if tensor.get("axis_format") == "NHWC" else arr


def read_tensors(case_dir, prefix):
    out = []
    k = 0
    while os.path.exists(os.path.join(case_dir, f"{prefix}_{k}.pb")):
        t = onnx.TensorProto()
        with open(os.path.join(case_dir, f"{prefix}_{k}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        out.append((t.name, numpy_helper.to_array(t)))
        k += 1
    return out


# Float tolerances per backend. CPU computes in float32: ONNX's own rtol/atol. The HTP runs float graphs
# in fp16 (fp16_relaxed_precision): an 11-bit significand (unit roundoff 2^-11 ~ 4.9e-4) rounds every
# op's inputs and output, and reductions/products accumulate several roundings, so 1e-2 relative
# (~20 roundoffs) and 1e-3 absolute for results that cancel to near zero from inputs of order 1.
TOLERANCE = {"cpu": (1e-3, 1e-5), "htp": (1e-2, 1e-3)}


def compare(name, got, want, tol=TOLERANCE["cpu"]):
    with np.errstate(invalid="ignore"):  # NaN cast to an integer type compares as a difference
        compare_values(name, got, want, tol)


def compare_values(name, got, want, tol):
    if want.dtype == np.bool_ or np.issubdtype(want.dtype, np.integer):
        if got.shape != want.shape or not np.array_equal(got.astype(want.dtype), want):
            diff = "shape" if got.shape != want.shape else f"{int(np.sum(got.astype(want.dtype) != want))} values"
            raise StepFailed(f"output {name}: differs ({diff})")
        return
    want = want.astype(np.float64)
    got = got.astype(np.float64)
    if got.shape != want.shape:
        raise StepFailed(f"output {name}: shape {list(got.shape)}, expected {list(want.shape)}")
    if not np.allclose(got, want, rtol=tol[0], atol=tol[1], equal_nan=True):
        err = np.nanmax(np.abs(got - want)) if got.size else 0.0
        raise StepFailed(f"output {name}: max abs diff {err:.3g}")


def run_case(tools, name, case_dir, work, backend, qnn_ops):
    """Runs one test; fills qnn_ops with the QNN op types of the converted graph."""
    import json
    model_path = os.path.join(case_dir, "model.onnx")
    os.makedirs(work, exist_ok=True)
    cpp = os.path.join(work, "model.cpp")
    run_step([tools["conv"], "-i", model_path, "-o", cpp], "qnn-onnx-converter")
    env = dict(os.environ)
    env["CXXFLAGS"] = (env.get("CXXFLAGS", "") + " -O0").strip()  # correctness, not speed
    run_step([tools["libgen"], "-c", cpp, "-b", os.path.join(work, "model.bin"), "-o", os.path.join(work, "lib")],
             "qnn-model-lib-generator", env)
    graph = json.load(open(os.path.join(work, "model_net.json")))["graph"]
    qnn_ops[:] = sorted({n["type"] for n in graph.get("nodes", {}).values()})
    data_set = os.path.join(case_dir, "test_data_set_0")
    inputs = read_tensors(data_set, "input")
    expected = read_tensors(data_set, "output")
    # Inputs by position of the model's graph inputs that are not initializers.
    model = onnx.load(model_path, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in inits]
    parts = []
    for k, (_, arr) in enumerate(inputs):
        if k >= len(names):
            break
        n = names[k]
        if n not in graph["tensors"]:
            continue  # an input the converter folded away
        path = os.path.join(work, f"in_{k}.raw")
        graph_layout(np.asarray(arr), graph["tensors"][n]).astype(np.float32).tofile(path)
        parts.append(f"{n}:={path}")
    with open(os.path.join(work, "list.txt"), "w") as f:
        f.write(" ".join(parts) + "\n")
    lib = os.path.join(work, "lib", "x86_64-linux-clang", "libmodel.so")
    out_dir = os.path.join(work, "out")
    run_step([tools["netrun"], "--model", lib, "--backend", tools[backend], "--input_list",
              os.path.join(work, "list.txt"), "--output_dir", out_dir] + tools.get(backend + "_extra", []),
             "qnn-net-run")
    outputs = [o.name for o in model.graph.output]
    for k, (_, want) in enumerate(expected):
        if k >= len(outputs):
            break
        o = outputs[k]
        t = graph["tensors"].get(o)
        path = os.path.join(out_dir, "Result_0", o + ".raw")
        if t is None or not os.path.exists(path):
            raise StepFailed(f"output {o}: not written by qnn-net-run")
        got = np.fromfile(path, np.float32)
        dims = t["dims"]
        if got.size != (int(np.prod(dims)) if dims else 1):
            raise StepFailed(f"output {o}: {got.size} values, the graph's output has dims {dims}")
        got = onnx_layout(got.reshape(dims), t)
        compare(o, got, np.asarray(want), TOLERANCE[backend])


def main():
    ap = argparse.ArgumentParser(description="ONNX node conformance through the OpenQNN tool chain")
    ap.add_argument("build_dir")
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--backend", choices=("cpu", "htp"), default="cpu")
    ap.add_argument("--expected")
    ap.add_argument("--write-expected", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--filter", default="")
    ap.add_argument("--sample", default="0/1", help="K/N: run the applicable tests whose index is K modulo N")
    ap.add_argument("--work")
    ap.add_argument("--report")
    ap.add_argument("--json-report", help="per test: status, reason, ONNX op types, QNN op types (coverage_table.py)")
    a = ap.parse_args()
    if not os.path.isdir(a.data):
        print(f"{a.data} not found (Debian package libonnx-testdata): skipped")
        return SKIP
    b = a.build_dir
    tools = {"conv": os.path.join(b, "bin", "qnn-onnx-converter"),
             "libgen": os.path.join(b, "bin", "qnn-model-lib-generator"),
             "netrun": os.path.join(b, "bin", "qnn-net-run"),
             "cpu": os.path.join(b, "backends", "cpu", "libQnnCpu.so"),
             "htp": os.path.join(b, "backends", "htp_sim", "libQnnHtp.so")}
    try:
        sample_k, sample_n = (int(v) for v in a.sample.split("/"))
        if sample_n < 1 or not 0 <= sample_k < sample_n:
            raise ValueError
    except ValueError:
        ap.error(f"--sample must be K/N with 0 <= K < N, got '{a.sample}'")
    rules = read_exclusions(os.path.join(HERE, "excluded.txt"))
    work = a.work or tempfile.mkdtemp(prefix="qnn-onnx-node-")
    if a.backend == "htp":
        # fp16 mode through the HTP net-run extension (docs/htp-simulator.md); the converter names each
        # graph after model.cpp.
        import json
        htp_cfg, cfg = os.path.join(work, "htp_fp16.json"), os.path.join(work, "netrun_config.json")
        with open(htp_cfg, "w") as f:
            json.dump({"graphs": [{"graph_names": ["model"], "fp16_relaxed_precision": 1}],
                       "devices": [{"dsp_arch": "v73"}]}, f)
        with open(cfg, "w") as f:
            json.dump({"backend_extensions": {"shared_library_path": os.path.join(
                b, "backends", "htp_sim", "libQnnHtpNetRunExtensions.so"), "config_file_path": htp_cfg}}, f)
        tools["htp_extra"] = ["--config_file", cfg]
    # The model libraries' helper objects are built once for the whole run.
    os.environ.setdefault("QNN_MODEL_LIB_GENERATOR_CACHE", os.path.join(work, "helper-cache"))
    cases = sorted(d for d in os.listdir(a.data) if a.filter in d and os.path.isdir(os.path.join(a.data, d)))
    results = {}
    todo = []
    models = {}
    for name in cases:
        try:
            model = onnx.load(os.path.join(a.data, name, "model.onnx"), load_external_data=False)
            models[name] = model
        except Exception as e:  # a model this onnx cannot read
            results[name] = ("FAIL", f"model.onnx unreadable: {e}")
            continue
        reason = exclusion_reason(name, model, rules)
        if reason:
            results[name] = ("EXCLUDED", reason)
        else:
            todo.append(name)
    todo = todo[sample_k::sample_n]

    qnn_ops_of = {}

    def one(name):
        ops = qnn_ops_of.setdefault(name, [])
        try:
            run_case(tools, name, os.path.join(a.data, name), os.path.join(work, name), a.backend, ops)
            return name, ("PASS", "")
        except StepFailed as e:
            return name, ("FAIL", str(e))
        except Exception as e:  # the harness's own trouble with a case, reported as its failure
            return name, ("FAIL", f"harness: {type(e).__name__}: {e}")
        finally:
            shutil.rmtree(os.path.join(work, name), ignore_errors=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for name, res in pool.map(one, todo):
            results[name] = res
    passed = sorted(n for n, r in results.items() if r[0] == "PASS")
    failed = sorted(n for n, r in results.items() if r[0] == "FAIL")
    excluded = sorted(n for n, r in results.items() if r[0] == "EXCLUDED")
    lines = [f"{r[0]:8} {n}" + (f"  {r[1]}" if r[1] else "") for n, r in sorted(results.items())]
    print("\n".join(lines))
    if a.report:
        with open(a.report, "w") as f:
            f.write("\n".join(lines) + "\n")
    if a.json_report:
        import json
        doc = {"backend": a.backend, "tests": {}}
        for n, r in sorted(results.items()):
            onnx_ops = sorted({node.op_type for node in models[n].graph.node}) if n in models else []
            doc["tests"][n] = {"status": r[0], "reason": r[1], "onnx_ops": onnx_ops, "qnn_ops": qnn_ops_of.get(n, [])}
        with open(a.json_report, "w") as f:
            json.dump(doc, f, indent=1)
    print(f"{len(passed)} passed, {len(failed)} failed (of {len(passed) + len(failed)}; {len(excluded)} excluded)"
          f" on {a.backend}" + (f", sample {a.sample} of the applicable tests" if sample_n > 1 else ""))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    if a.write_expected and a.expected and (sample_n > 1 or a.filter):
        print("--write-expected needs the whole suite (no --sample or --filter)")
        return 2
    if a.write_expected and a.expected:
        with open(a.expected, "w") as f:
            f.write(f"# ONNX node tests expected to pass on {a.backend} (run_node_tests.py --write-expected)\n")
            f.write("\n".join(passed) + "\n")
        return 0
    if a.expected:
        with open(a.expected) as f:
            want = {l.strip() for l in f if l.strip() and not l.startswith("#")}
        # With --sample or --filter only the tests that ran are judged.
        regressions = sorted(n for n in want if (n in results and results[n][0] != "PASS") or
                             (n not in results and not a.filter and sample_n == 1))
        if regressions:
            print(f"{len(regressions)} test(s) expected to pass did not:")
            for n in regressions:
                print(f"  {n}: {results.get(n, ('', 'not run'))[1]}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
