"""qnn-architecture-checker: finds the patterns of a converted model that slow it down on the HTP and,
with --modify apply=RULE[,RULE], rewrites the ones with a safe fix.

usage: qnn-architecture-checker -i model_net.json [-b model.bin] [-o OUTPUT_PATH] [-m show|all|apply=R1,R2]
Output: OUTPUT_PATH/<model>_architecture_checker.csv (default OUTPUT_PATH: the JSON's folder); a
modification writes OUTPUT_PATH/<model>_modified{.cpp,.bin,_net.json}."""
import argparse
import csv
import os
import sys

from qnn.errors import ConverterError, run_tool

from . import rules
from qnn.converters.read_net import read_net

PROG = "qnn-architecture-checker"
COLUMNS = ["Graph/Node_name", "Issue", "Recommendation", "Type", "Input_tensor_name:[dims]",
           "Output_tensor_name:[dims]", "Previous_node", "Next_nodes", "Parameters", "Modification",
           "Modification_info"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ConverterError(message + f" (see {PROG} --help)")


def parse(argv):
    p = _Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-i", "--input_json", required=True, help="the converter's model_net.json")
    p.add_argument("-b", "--bin", help="the converter's model.bin (needed to modify static tensors)")
    p.add_argument("-o", "--output_path", help="folder for the CSV and modified model (default: the JSON's folder)")
    p.add_argument("-m", "--modify", help="show (list the rules a modification can apply), all, or "
                                          "apply=RULE[,RULE] with RULE in " + ", ".join(rules.MODIFIERS))
    return p.parse_args(argv)


def _tensors(m, names):
    return "; ".join(f"{n}:{m.graph.tensors[n].shape}" for n in names if n in m.graph.tensors)


def _params(op):
    return "; ".join(f"{p.name}={p.value.tolist() if hasattr(p.value, 'tolist') else p.value}" for p in op.params)


def run(a):
    m = read_net(a.input_json, a.bin)
    base = os.path.basename(a.input_json)
    model_name = base[:-len("_net.json")] if base.endswith("_net.json") else os.path.splitext(base)[0]
    out_dir = a.output_path or os.path.dirname(os.path.abspath(a.input_json))
    os.makedirs(out_dir, exist_ok=True)
    findings = [f for rule in rules.RULES.values() for f in rule(m)]
    findings.sort(key=lambda f: m.graph.ops.index(f.op))

    wanted = set()
    if a.modify and a.modify not in ("show", "all"):
        if not a.modify.startswith("apply="):
            raise ConverterError(f"--modify {a.modify}: must be show, all or apply=RULE[,RULE]")
        wanted = {r.strip() for r in a.modify[len("apply="):].split(",") if r.strip()}
        unknown = wanted - set(rules.MODIFIERS)
        if unknown or not wanted:
            raise ConverterError(f"--modify: no modification named {', '.join(sorted(unknown)) or '(empty)'}; "
                                 f"known: {', '.join(rules.MODIFIERS)}")
    elif a.modify == "all":
        wanted = set(rules.MODIFIERS)
    if wanted and not a.bin:
        raise ConverterError("--modify needs -b model.bin (the static tensors the rewrite changes)")

    rows, applied = [], 0
    for f in findings:
        op = f.op
        prev = sorted({m.producer[i].name for i in op.inputs if i in m.producer})
        nxt = sorted({c.name for o in op.outputs for c in m.consumers.get(o, [])})
        row = {"Graph/Node_name": f"{m.graph.name}/{op.name}", "Issue": f.issue, "Recommendation": f.recommendation,
               "Type": f.kind, "Input_tensor_name:[dims]": _tensors(m, op.inputs),
               "Output_tensor_name:[dims]": _tensors(m, op.outputs), "Previous_node": "; ".join(prev),
               "Next_nodes": "; ".join(nxt), "Parameters": _params(op),
               "Modification": "N/A", "Modification_info": f.info}
        if f.modifiable:
            row["Modification"] = f"available: apply={f.rule}"
            if f.rule in wanted:
                row["Modification"] = "applied: " + rules.MODIFIERS[f.rule](m, f)
                applied += 1
        rows.append(row)
    csv_path = os.path.join(out_dir, f"{model_name}_architecture_checker.csv")
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
    print(f"{PROG}: {len(findings)} findings in {len(m.graph.ops)} nodes: {csv_path}")
    if a.modify == "show":
        for f in findings:
            if f.modifiable:
                print(f"  {f.op.name}: apply={f.rule} ({f.info})")
    if applied:
        from qnn.converters.emit_bin import write_bin
        from qnn.converters.emit_cpp import write_cpp
        from qnn.converters.emit_json import write_json
        stem = os.path.join(out_dir, f"{model_name}_modified")
        write_cpp(m.graph, stem + ".cpp", os.path.basename(a.input_json))
        write_bin(m.graph, stem + ".bin")
        write_json(m.graph, stem + "_net.json", (m.converter_command + f" | {PROG} --modify {a.modify}").strip())
        print(f"{PROG}: {applied} modifications applied: {stem}.cpp, {stem}.bin, {stem}_net.json")
    elif wanted:
        print(f"{PROG}: no node the requested modifications apply to; no model written")
    return 0


def main(argv=None):
    return run_tool(PROG, lambda argv: run(parse(argv)), sys.argv[1:] if argv is None else argv)
