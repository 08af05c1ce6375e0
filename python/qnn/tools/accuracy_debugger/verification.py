"""Verification: every tensor the golden and the inference results share, compared with the chosen
verifiers, in the graph's order. Writes summary.csv / summary.json / summary.html and, per verifier,
<Verifier>/<Verifier>.csv; names the first layer that fails the first verifier and the layer that
adds the most error over its own inputs (the layer at fault when errors accumulate)."""
import csv
import json
import os

import numpy as np

from . import report
from .errors import DebuggerError
from .tensors import TensorDir
from .verifiers import parse_verifier


def _layer_info(net_json, mapping):
    """source tensor -> (node name, op type, [input source tensors])."""
    if not net_json or not os.path.isfile(net_json):
        return {}
    with open(net_json) as f:
        nodes = json.load(f)["graph"]["nodes"]
    src_of = {m["qnn"]: s for s, m in mapping.items()}
    by_out = {}
    for name, node in nodes.items():
        for q in node["output_names"]:
            by_out[q] = (name, node["type"], [src_of[i] for i in node["input_names"] if i in src_of])
    return {s: by_out[m["qnn"]] for s, m in mapping.items() if m["qnn"] in by_out}


def _badness(verifier, value):
    """Larger is worse, for every verifier (SQNR, cosine... are negated)."""
    return -value if verifier.higher_is_better else value


def verify(golden_dir, inference_dir, out_dir, verifier_specs, net_json=None, mapping=None, title="verification"):
    golden, target = TensorDir(golden_dir), TensorDir(inference_dir)
    verifiers = [parse_verifier(s) for s in verifier_specs] or [parse_verifier("SQNR")]
    if mapping is None:
        mp = os.path.join(inference_dir, "tensor_mapping.json")
        mapping = json.load(open(mp)) if os.path.isfile(mp) else {}
    info = _layer_info(net_json, mapping)
    names = [n for n in target.order if golden.has(n)]
    if not names:
        raise DebuggerError(f"no tensor of {inference_dir} has a golden value in {golden_dir} (different models?)")
    rows, values = [], {}
    for n in names:
        g, t = golden.load(n), target.load(n)
        if g.size != t.size:
            raise DebuggerError(f"tensor {n}: golden has shape {list(g.shape)}, the inference {list(t.shape)}")
        node, op, ins = info.get(n, ("", "Input" if n not in info else "", []))
        row = {"Name": n, "LayerType": op, "Node": node, "QnnTensor": mapping.get(n, {}).get("qnn", ""),
               "Shape": "x".join(str(d) for d in g.shape), "GoldenMin": float(np.min(g)) if g.size else 0.0,
               "GoldenMax": float(np.max(g)) if g.size else 0.0}
        for v in verifiers:
            ok, val = v.verify(g, t)
            row[v.name], row[v.name + "_pass"] = val, ok
        row["Status"] = "pass" if all(row[v.name + "_pass"] for v in verifiers) else "fail"
        # The error this layer adds: its badness minus the worst badness among its compared inputs.
        first = verifiers[0]
        bad = _badness(first, row[first.name])
        worst_in = max((values[i] for i in ins if i in values), default=None)
        row["ErrorIntroduced"] = bad - worst_in if worst_in is not None else (bad if op else 0.0)
        values[n] = bad
        rows.append(row)
    first = verifiers[0]
    failing = [r for r in rows if not r[first.name + "_pass"]]
    worst = max((r for r in rows if r["LayerType"] not in ("", "Input")), key=lambda r: r["ErrorIntroduced"], default=None)
    summary = {"golden": os.path.abspath(golden_dir), "inference": os.path.abspath(inference_dir),
               "verifiers": [v.name for v in verifiers], "verifier_parameters": {v.name: v.p for v in verifiers},
               "layers": len(rows), "failing": len(failing),
               "first_divergence": _brief(failing[0], first) if failing else None,
               "largest_error_introduced": _brief(worst, first) if worst else None,
               "rows": rows}
    os.makedirs(out_dir, exist_ok=True)
    cols = ["Name", "LayerType", "Node", "QnnTensor", "Shape", "GoldenMin", "GoldenMax"]
    cols += [c for v in verifiers for c in (v.name, v.name + "_pass")] + ["ErrorIntroduced", "Status"]
    _write_csv(os.path.join(out_dir, "summary.csv"), cols, rows)
    for v in verifiers:
        d = os.path.join(out_dir, v.name)
        os.makedirs(d, exist_ok=True)
        _write_csv(os.path.join(d, v.name + ".csv"), ["Name", "LayerType", "Node", "Shape", v.name, v.name + "_pass"],
                   rows)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out_dir, "verification_options.json"), "w") as f:
        json.dump({"golden_output_reference_directory": golden_dir, "inference_results": inference_dir,
                   "default_verifier": verifier_specs, "qnn_model_json_path": net_json}, f, indent=1)
    report.write_html(os.path.join(out_dir, "summary.html"), summary, verifiers, title)
    return summary


def _brief(row, verifier):
    return {"name": row["Name"], "node": row["Node"], "layer_type": row["LayerType"],
            "verifier": verifier.name, "value": row[verifier.name], "error_introduced": row["ErrorIntroduced"]}


def _write_csv(path, cols, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.6g}" if isinstance(r.get(k), float) else r.get(k)) for k in cols})
