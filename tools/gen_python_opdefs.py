#!/usr/bin/env python3
"""Regenerates python/qnn/opdefs.json, the op definitions the Python package checks graph building
against: per op its params (kind scalar/tensor, QNN datatype, mandatory) and its input count range,
from the 2.7 facts (sdk/opdefs/opdefs_2_7.json) and the project's later ops
(sdk/opdefs/opdefs_post_2_7.json: 'ops', and 'extends' params). Same style as gen_htp_support.py.
Run from the project root: python3 tools/gen_python_opdefs.py sdk/opdefs/opdefs_2_7.json [output]"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
ops = json.load(open(sys.argv[1]))['ops']
later = json.load(open(os.path.join(here, "..", "sdk", "opdefs", "opdefs_post_2_7.json")))
ops = ops + later["ops"]
extends = later.get("extends", [])


def entry(o):
    params = {p["name"]: {"kind": p["type"]["kind"], "dtype": p["type"]["dtype"].replace("QNN_DATATYPE_", ""),
                          "mandatory": bool(p.get("mandatory"))} for p in o.get("params", [])}
    ins = o.get("inputs", [])
    variadic = any(".." in i["name"] for i in ins)
    return {"params": params, "min_inputs": sum(1 for i in ins if i.get("mandatory")),
            "max_inputs": None if variadic else len(ins)}


table = {o["name"]: entry(o) for o in ops}
for x in extends if isinstance(extends, list) else []:
    for p in x.get("params", []):
        table[x["name"]]["params"][p["name"]] = {"kind": p["type"]["kind"],
                                                 "dtype": p["type"]["dtype"].replace("QNN_DATATYPE_", ""),
                                                 "mandatory": bool(p.get("mandatory"))}
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "python", "qnn", "opdefs.json")
with open(out, "w") as f:
    json.dump(dict(sorted(table.items())), f, indent=0, sort_keys=True)
    f.write("\n")
print(len(table), "ops")
