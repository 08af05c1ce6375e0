#!/usr/bin/env python3
"""The ONNX op coverage table of docs/onnx-converter.md, generated from run_node_tests.py --json-report files.

  coverage_table.py CPU.json [HTP.json] [--update-doc docs/onnx-converter.md]

One row per ONNX op type of the node suite (tests of one node; the `_expanded` function-body variants are
counted in one row of their own): the QNN op types the converter produced for it (from the tests that
converted), and per backend `passed / applicable` (excluded tests are not applicable; an op whose tests
are all excluded shows the reason). Prints the table, or replaces the text between the
`<!-- coverage-table:begin -->` and `<!-- coverage-table:end -->` markers of the doc.
"""
import argparse
import json
import sys

BEGIN, END = "<!-- coverage-table:begin -->", "<!-- coverage-table:end -->"


def op_of(name, test):
    if name.endswith("_expanded") or "_expanded_" in name:
        return "(expanded function bodies)"
    ops = test["onnx_ops"]
    return ops[0] if len(ops) == 1 else "+".join(ops) if ops else "(unreadable model)"


def rows(reports):
    table = {}
    for backend, doc in reports:
        for name, t in doc["tests"].items():
            row = table.setdefault(op_of(name, t), {"qnn": set(), "counts": {}, "excluded": set()})
            passed, applicable = row["counts"].get(backend, (0, 0))
            if t["status"] == "EXCLUDED":
                row["excluded"].add(t["reason"].split(":", 1)[-1].strip())
            else:
                row["counts"][backend] = (passed + (t["status"] == "PASS"), applicable + 1)
                row["qnn"].update(t.get("qnn_ops", []))
    return table


def render(reports):
    backends = [b for b, _ in reports]
    table = rows(reports)
    head = "| ONNX op | QNN op(s) | " + " | ".join(f"{b.upper()} passed" for b in backends) + " |"
    out = [head, "|" + "---|" * (2 + len(backends))]
    totals = {b: [0, 0] for b in backends}
    for op in sorted(table, key=lambda k: (k.startswith("("), k.lower())):
        row = table[op]
        cells = []
        for b in backends:
            if b in row["counts"]:
                p, n = row["counts"][b]
                totals[b][0] += p
                totals[b][1] += n
                cells.append(f"{p}/{n}")
            else:
                cells.append("excluded: " + "; ".join(sorted(row["excluded"]))[:80] if row["excluded"] else "-")
        qnn = ", ".join(sorted(row["qnn"])) if row["qnn"] else "-"
        out.append(f"| {op} | {qnn} | " + " | ".join(cells) + " |")
    out.append("| **all** | | " + " | ".join(f"**{p}/{n}** ({100.0 * p / max(n, 1):.1f} %)"
                                               for p, n in (totals[b] for b in backends)) + " |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--update-doc")
    a = ap.parse_args()
    reports = []
    for path in a.reports:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"coverage_table.py: error: cannot read {path}: {e}", file=sys.stderr)
            return 1
        reports.append((doc.get("backend", path), doc))
    text = render(reports)
    if not a.update_doc:
        sys.stdout.write(text)
        return 0
    with open(a.update_doc) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        print(f"coverage_table.py: error: {a.update_doc} has no {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(a.update_doc, "w") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
