"""The verification report as one self-contained HTML page: per verifier an SVG plot of its value
over the layers (threshold line, failing layers in red, the first divergence and the layer adding the
most error marked), then the per-layer table. No script, no network access."""
import html
import math

_CSS = """body{font:14px sans-serif;margin:24px;color:#222}table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:nth-child(-n+4){text-align:left}
tr.fail td{background:#fde8e8}tr.first td{background:#f8c0c0;font-weight:bold}.box{margin:12px 0;padding:8px 12px;
background:#f4f4f8;border-left:4px solid #446}svg{background:#fff;border:1px solid #ddd;margin:8px 0}"""


def _plot(rows, v, first_name, worst_name, width=900, height=240):
    vals = [r[v.name] for r in rows]
    finite = [x for x in vals if math.isfinite(x)] or [0.0]
    thr_key = next(iter(v.p), None)
    thr = v.p.get("sqnrthreshold", v.p.get("threshold", v.p.get("passmargin")))
    lo, hi = min(finite + ([thr] if isinstance(thr, (int, float)) else [])), max(finite + ([thr] if isinstance(thr, (int, float)) else []))
    if hi == lo:
        hi = lo + 1.0
    pad_l, pad_r, pad_t, pad_b = 60, 10, 10, 30
    n = max(1, len(vals) - 1)

    def xy(i, val):
        x = pad_l + (width - pad_l - pad_r) * i / n
        y = pad_t + (height - pad_t - pad_b) * (1 - (min(max(val, lo), hi) - lo) / (hi - lo))
        return x, y
    pts = " ".join("%.1f,%.1f" % xy(i, x) for i, x in enumerate(vals) if math.isfinite(x))
    out = [f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
           f'<text x="4" y="{pad_t + 10}" font-size="11">{hi:.4g}</text>',
           f'<text x="4" y="{height - pad_b}" font-size="11">{lo:.4g}</text>',
           f'<text x="{pad_l}" y="{height - 8}" font-size="11">layer 0 .. {len(vals) - 1} (graph order)</text>',
           f'<polyline fill="none" stroke="#446" stroke-width="1.5" points="{pts}"/>']
    if isinstance(thr, (int, float)) and thr_key:
        _, ty = xy(0, thr)
        out.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#c80" '
                   f'stroke-dasharray="4 3"/><text x="{width - 160}" y="{ty - 3:.1f}" font-size="11" fill="#c80">'
                   f'threshold {thr:g}</text>')
    for i, r in enumerate(rows):
        if not math.isfinite(r[v.name]):
            continue
        x, y = xy(i, r[v.name])
        color = "#d22" if not r[v.name + "_pass"] else "#446"
        rad = 5 if r["Name"] in (first_name, worst_name) else 2.5
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad}" fill="{color}"><title>{html.escape(r["Name"])} '
                   f'({html.escape(r["LayerType"])}): {r[v.name]:.5g}</title></circle>')
        if r["Name"] == first_name:
            out.append(f'<text x="{x + 6:.1f}" y="{y - 6:.1f}" font-size="11" fill="#d22">first divergence</text>')
    out.append("</svg>")
    return "\n".join(out)


def write_html(path, summary, verifiers, title):
    rows = summary["rows"]
    first, worst = summary["first_divergence"], summary["largest_error_introduced"]
    fn, wn = (first or {}).get("name"), (worst or {}).get("name")
    e = html.escape
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>qnn-accuracy-debugger: {e(title)}</h1>",
             f"<p>{summary['layers']} layers compared, {summary['failing']} fail {e(verifiers[0].name)} "
             f"({e(', '.join(f'{k}={v}' for k, v in verifiers[0].p.items()))}).<br>golden: {e(summary['golden'])}<br>"
             f"inference: {e(summary['inference'])}</p>"]
    if first:
        parts.append(f"<div class='box'>First divergence: <b>{e(first['name'])}</b> (node {e(first['node'])}, "
                     f"{e(first['layer_type'])}), {e(first['verifier'])} = {first['value']:.5g}</div>")
    else:
        parts.append("<div class='box'>Every layer passes.</div>")
    if worst:
        parts.append(f"<div class='box'>Largest error added by one layer over its inputs: <b>{e(worst['name'])}</b> "
                     f"(node {e(worst['node'])}, {e(worst['layer_type'])}).</div>")
    for v in verifiers:
        parts.append(f"<h2>{e(v.name)}</h2>" + _plot(rows, v, fn, wn))
    cols = ["Name", "LayerType", "Node", "Shape"] + [v.name for v in verifiers] + ["ErrorIntroduced", "Status"]
    parts.append("<h2>Layers</h2><table><tr>" + "".join(f"<th>{e(c)}</th>" for c in ["#"] + cols) + "</tr>")
    for i, r in enumerate(rows):
        cls = "first" if r["Name"] == fn else ("fail" if r["Status"] == "fail" else "")
        cells = [str(i)] + [f"{r[c]:.5g}" if isinstance(r[c], float) else e(str(r[c])) for c in cols]
        parts.append(f"<tr class='{cls}'>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append("</table></body></html>")
    with open(path, "w") as f:
        f.write("\n".join(parts))
