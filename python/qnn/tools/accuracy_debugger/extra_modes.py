"""--compare_encodings and --tensor_inspection."""
import csv
import json
import os

import numpy as np

from . import sdk_tools
from .errors import DebuggerError
from .verifiers import parse_verifier

_DTYPES = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "float32": np.float32}


def _load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise DebuggerError(f"{what} {path}: {e.strerror}")
    except ValueError as e:
        raise DebuggerError(f"{what} {path} is not JSON: {e}")


def _qnn_encodings(net):
    """QNN tensor -> {bitwidth, scale[], offset[], min[], max[]} from model_net.json quant_params."""
    out = {}
    for name, t in net["graph"]["tensors"].items():
        q = t.get("quant_params")
        if not q:
            continue
        bw = int(q.get("bitwidth", 8))
        scale, offset = np.atleast_1d(q["scale"]).astype(np.float64), np.atleast_1d(q["offset"]).astype(np.float64)
        out[name] = {"bitwidth": bw, "scale": scale, "offset": offset, "min": scale * offset,
                     "max": scale * (offset + 2 ** bw - 1), "static": t["type"].endswith("STATIC")}
    return out


def _aimet_list(entry):
    e = entry if isinstance(entry, list) else [entry]
    keys = {"bitwidth": 8, "min": None, "max": None, "scale": None, "offset": None}
    out = {k: [] for k in keys}
    for x in e:
        for k, dflt in keys.items():
            out[k].append(x.get(k, dflt))
    bw = int(out["bitwidth"][0] or 8)
    mins, maxs = np.array(out["min"], dtype=object), np.array(out["max"], dtype=object)
    scale, offset = out["scale"], out["offset"]
    if any(s is None for s in scale):   # derive scale/offset from min/max as the quantizer does
        if any(m is None for m in list(mins) + list(maxs)):
            raise DebuggerError("an AIMET encoding needs min/max or scale/offset")
        mn, mx = np.minimum(mins.astype(np.float64), 0), np.maximum(maxs.astype(np.float64), 0)
        scale = (mx - mn) / (2 ** bw - 1)
        offset = np.round(mn / np.where(scale == 0, 1, scale))
    scale, offset = np.asarray(scale, np.float64), np.asarray(offset, np.float64)
    return {"bitwidth": bw, "scale": scale, "offset": offset, "min": scale * offset,
            "max": scale * (offset + 2 ** bw - 1)}


def _match(aimet_name, qnn_names, sources, param):
    """The QNN tensor an AIMET name refers to: activations through model_net.json's source_tensors;
    parameters by the converter's name rule (sanitized name, possibly with a layout suffix)."""
    import re
    if not param and aimet_name in sources:
        return next(iter(sources[aimet_name].values()))
    s = re.sub(r"[^A-Za-z0-9_]", "_", aimet_name)
    if s and s[0].isdigit():
        s = "_" + s
    if s in qnn_names:
        return s
    cands = sorted(n for n in qnn_names if n.startswith(s + "_"))
    return cands[0] if cands else None


def compare_encodings(a):
    if not a.input_json or not a.aimet_encodings_json:
        raise DebuggerError("--compare_encodings needs --input (model_net.json) and --aimet_encodings_json")
    if a.params_only and a.activations_only:
        raise DebuggerError("--params_only and --activations_only exclude each other")
    net = _load_json(a.input_json, "--input")
    aimet = _load_json(a.aimet_encodings_json, "--aimet_encodings_json")
    try:
        qnn = _qnn_encodings(net)
        sources = net["graph"].get("source_tensors", {})
    except (KeyError, TypeError, ValueError) as e:
        raise DebuggerError(f"--input {a.input_json} is not a quantized model_net.json: {e}")
    out = sdk_tools.stage_dir(a.working_dir, "compare_encodings", a.output_dirname)
    rows, extracted = [], {}
    tol = 10.0 ** -a.precision
    for kind, key in (("activation", "activation_encodings"), ("param", "param_encodings")):
        if (kind == "activation" and a.params_only) or (kind == "param" and a.activations_only):
            continue
        for name, entry in (aimet.get(key) or {}).items():
            if a.specific_node and name != a.specific_node:
                continue
            q = _match(name, qnn, sources, kind == "param")
            row = {"Tensor": name, "Type": kind, "QnnTensor": q or ""}
            if q is None or q not in qnn:
                row.update(Status="not in QNN model")
                rows.append(row)
                continue
            try:
                ae = _aimet_list(entry)
            except (DebuggerError, TypeError, ValueError) as e:
                raise DebuggerError(f"--aimet_encodings_json: encoding of {name}: {e}")
            qe = qnn[q]
            extracted[q] = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in qe.items()}
            diffs = []
            if qe["bitwidth"] != ae["bitwidth"]:
                diffs.append(f"bitwidth {qe['bitwidth']} vs {ae['bitwidth']}")
            for k in ("scale", "offset", "min", "max"):
                qa, aa = qe[k], ae[k]
                if qa.size != aa.size and aa.size != 1 and qa.size != 1:
                    diffs.append(f"{k}: {qa.size} channels vs {aa.size}")
                    continue
                # Both sides as float32, the precision QNN stores encodings in.
                d = float(np.max(np.abs(qa.astype(np.float32).astype(np.float64) - aa.astype(np.float32))))
                row[f"{k}_qnn"], row[f"{k}_aimet"] = _short(qa), _short(aa)
                if d > tol * max(1.0, float(np.max(np.abs(aa)))):
                    diffs.append(f"{k} differs by {d:.3g}")
            row["Status"] = "same" if not diffs else "; ".join(diffs)
            rows.append(row)
    cols = ["Tensor", "Type", "QnnTensor", "scale_qnn", "scale_aimet", "offset_qnn", "offset_aimet", "min_qnn",
            "min_aimet", "max_qnn", "max_aimet", "Status"]
    with open(os.path.join(out, "encodings_diff.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "extracted_encodings.json"), "w") as f:
        json.dump(extracted, f, indent=1)
    with open(os.path.join(out, "compare_encodings_options.json"), "w") as f:
        json.dump({"input": a.input_json, "aimet_encodings_json": a.aimet_encodings_json, "precision": a.precision,
                   "params_only": a.params_only, "activations_only": a.activations_only,
                   "specific_node": a.specific_node}, f, indent=1)
    differ = [r for r in rows if r["Status"] != "same"]
    print(f"qnn-accuracy-debugger: compare encodings: {len(rows)} tensors, {len(differ)} differ: "
          f"{out}/encodings_diff.csv")
    for r in differ[:20]:
        print(f"  {r['Tensor']}: {r['Status']}")


def _short(a):
    return f"{a[0]:.8g}" if a.size == 1 else f"[{a.size} channels] {a[0]:.6g}..."


def _read_tensor(path, dtype, encodings, what):
    try:
        raw = np.fromfile(path, dtype=_DTYPES[dtype])
    except OSError as e:
        raise DebuggerError(f"{what} {path}: {e.strerror}")
    if dtype == "float32" or encodings is None:
        return raw.astype(np.float64)
    return (raw.astype(np.float64) + encodings["offset"]) * encodings["scale"]


def tensor_inspection(a):
    if not a.golden_data or not a.target_data:
        raise DebuggerError("--tensor_inspection needs --golden_data and --target_data")
    enc = None
    if a.target_encodings:
        doc = _load_json(a.target_encodings, "--target_encodings")
        try:
            enc = {"scale": float(doc["scale"]), "offset": float(doc["offset"])}
        except (KeyError, TypeError, ValueError):
            raise DebuggerError("--target_encodings must hold {\"scale\": S, \"offset\": O}")
    elif a.data_type != "float32":
        raise DebuggerError(f"--data_type {a.data_type} needs --target_encodings to dequantize the target")
    goldens = sorted(os.listdir(a.golden_data)) if os.path.isdir(a.golden_data) else [None]
    out = sdk_tools.stage_dir(a.working_dir, "tensor_inspection", a.output_dirname)
    verifiers = [parse_verifier(v) for v in (a.default_verifier or ["SQNR", "CosineSimilarity", "MSE"])]
    rows = []
    for name in goldens:
        gpath = a.golden_data if name is None else os.path.join(a.golden_data, name)
        tpath = a.target_data if name is None else os.path.join(a.target_data, name)
        if name is not None and (not name.endswith(".raw") or not os.path.isfile(tpath)):
            continue
        g = _read_tensor(gpath, "float32", None, "--golden_data")
        t = _read_tensor(tpath, a.data_type, enc, "--target_data")
        if g.size != t.size:
            raise DebuggerError(f"{os.path.basename(gpath)}: golden has {g.size} values, target {t.size}")
        label = os.path.splitext(os.path.basename(gpath))[0]
        d = os.path.join(out, label)
        os.makedirs(d, exist_ok=True)
        _inspect_plots(d, g, t)
        for fname, arr in (("golden_data.csv", g), ("target_data.csv", t)):
            np.savetxt(os.path.join(d, fname), arr, fmt="%.9g")
        row = {"Tensor": label, "Size": g.size, "GoldenMin": g.min(), "GoldenMax": g.max(), "TargetMin": t.min(),
               "TargetMax": t.max()}
        for v in verifiers:
            ok, val = v.verify(g, t)
            row[v.name], row[v.name + "_pass"] = val, ok
        rows.append(row)
    if not rows:
        raise DebuggerError("no tensor pairs: --golden_data and --target_data must be two .raw files or two "
                            "folders with .raw files of the same names")
    with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"qnn-accuracy-debugger: tensor inspection of {len(rows)} tensors: {out}/summary.csv")


def _inspect_plots(d, g, t):
    from qnn.tools.png_chart import chart
    n = g.size
    idx = np.linspace(0, n - 1, min(n, 2000)).astype(int)   # plotted points (every value for small tensors)
    diff = t - g
    chart(os.path.join(d, "Diff_plots.png"), "target - golden by element", [("difference", idx.tolist(),
          diff[idx].tolist())], "element", "difference")
    gs, ts = np.sort(g), np.sort(t)
    q = np.linspace(0, 1, len(idx))
    chart(os.path.join(d, "CDF_plots.png"), "cumulative distribution",
          [("golden", gs[idx].tolist(), q.tolist()), ("target", ts[idx].tolist(), q.tolist())], "value", "fraction")
    lo, hi = min(g.min(), t.min()), max(g.max(), t.max())
    bins = np.linspace(lo, hi if hi > lo else lo + 1, 51)
    centers = ((bins[:-1] + bins[1:]) / 2).tolist()
    chart(os.path.join(d, "Histograms.png"), "histograms",
          [("golden", centers, np.histogram(g, bins)[0].tolist()), ("target", centers, np.histogram(t, bins)[0].tolist())],
          "value", "count", bars=True)
    chart(os.path.join(d, "Distribution_min-max.png"), "min / max",
          [("golden", [0, 1], [g.min(), g.max()]), ("target", [0, 1], [t.min(), t.max()])], "min (0) / max (1)", "value")
