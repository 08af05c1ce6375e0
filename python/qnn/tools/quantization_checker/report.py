"""The checker's reports: html/<variation>.html per variation (one row per tensor and input file, a
Pass/Fail cell per check) and html/index.html (failing checks per variation, the repairs); with --output_csv,
csv/<variation>_<kind>.csv (op, node, tensor, input, pass, result, threshold, algorithm) and csv/summary.csv."""
import csv
import html
import os
from collections import OrderedDict

_CSS = ("body{font:14px sans-serif;margin:24px}table{border-collapse:collapse;font-size:12px;margin-bottom:18px}"
        "td,th{border:1px solid #ccc;padding:2px 6px}td.p{background:#e6f4e6}td.f{background:#fbe0e0}")


def _by(results, *keys):
    out = OrderedDict()
    for r in results:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def _page(title, body):
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>")


def _table(rows):
    checks = list(OrderedDict.fromkeys(r["check"] for r in rows))
    head = "<tr><th>kind</th><th>op</th><th>node</th><th>tensor</th><th>input</th>" + \
           "".join(f"<th>{html.escape(c)}</th>" for c in checks) + "</tr>"
    body = []
    for (kind, op, node, tensor, inp), rs in _by(rows, "kind", "op", "node", "tensor", "input").items():
        cells = {r["check"]: r for r in rs}
        tds = "".join(
            f"<td class='{'p' if cells[c]['pass'] else 'f'}'>{'Pass' if cells[c]['pass'] else 'Fail'} "
            f"({cells[c]['result']:.4g} / {cells[c]['threshold']:g})</td>" if c in cells else "<td></td>"
            for c in checks)
        body.append(f"<tr><td>{kind}</td><td>{html.escape(op)}</td><td>{html.escape(node)}</td>"
                    f"<td>{html.escape(tensor)}</td><td>{html.escape(inp)}</td>{tds}</tr>")
    return f"<table>{head}{''.join(body)}</table>"


def write(out_dir, results, repairs, output_csv):
    hdir = os.path.join(out_dir, "html")
    os.makedirs(hdir, exist_ok=True)
    variations = list(OrderedDict.fromkeys(r["variation"] for r in results))
    summary = []
    for v in variations:
        rows = [r for r in results if r["variation"] == v]
        fails = [r for r in rows if not r["pass"]]
        tensors = {(r["kind"], r["tensor"]) for r in fails}
        summary.append({"variation": v, "checks": len(rows), "failing_checks": len(fails),
                        "failing_tensors": len(tensors)})
        with open(os.path.join(hdir, f"{v}.html"), "w") as f:
            f.write(_page(f"qnn-quantization-checker: {v}",
                          f"<p>{len(rows)} checks, {len(fails)} fail ({len(tensors)} tensors). Cell: result / "
                          f"threshold.</p>" + _table(rows)))
    index = ["<table><tr><th>variation</th><th>checks</th><th>failing checks</th><th>failing tensors</th></tr>"]
    for s in summary:
        index.append(f"<tr><td><a href='{html.escape(s['variation'])}.html'>{html.escape(s['variation'])}</a></td>"
                     f"<td>{s['checks']}</td><td>{s['failing_checks']}</td><td>{s['failing_tensors']}</td></tr>")
    index.append("</table>")
    if repairs:
        index.append("<h2>Repairs</h2><table><tr><th>round</th><th>tensor raised to 16 bits</th><th>kind</th>"
                     "<th>failing checks before</th><th>after</th></tr>")
        for r in repairs:
            index.append(f"<tr><td>{r['round']}</td><td>{html.escape(r['tensor'])}</td><td>{r['kind']}</td><td>{r['failing_before']}</td>"
                         f"<td>{r['failing_after']}</td></tr>")
        index.append("</table>")
    with open(os.path.join(hdir, "index.html"), "w") as f:
        f.write(_page("qnn-quantization-checker", "".join(index)))
    if output_csv:
        cdir = os.path.join(out_dir, "csv")
        os.makedirs(cdir, exist_ok=True)
        cols = ["op", "node", "tensor", "input", "pass", "result", "threshold", "algorithm"]
        for (v, kind), rows in _by(results, "variation", "kind").items():
            with open(os.path.join(cdir, f"{v}_{kind}.csv"), "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
                w.writeheader()
                w.writerows(rows)
        with open(os.path.join(cdir, "summary.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["variation", "checks", "failing_checks", "failing_tensors"])
            w.writeheader()
            w.writerows(summary)
    return summary
