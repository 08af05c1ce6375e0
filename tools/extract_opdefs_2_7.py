#!/usr/bin/env python3
"""Writes sdk/opdefs/opdefs_2_7.json, the API 2.7 op facts the generators read (gen_op_catalog.py,
gen_htp_support.py, gen_python_opdefs.py), from a description of op set 2.7 in the layout of
sdk/opdefs/opdefs_post_2_7.json. Run once when that description changes; the repository then
builds and checks its generated files from sdk/opdefs/opdefs_2_7.json alone.
Kept per op: name, QNN_OP_* macro, input/output slots (name, mandatory), params (name, macro,
kind, datatype, dims, mandatory, default, enum values), CPU/HTP support, HTP fp16 mode, the HTP
datatypes per slot (all configurations merged, in order) and the HTP rank limits as numbers.
Descriptions and constraint wording are left out.
  python3 tools/extract_opdefs_2_7.py SOURCE.json [OUT]"""
import json, re, sys

RANK = re.compile(r'Max supported (input|output) rank is (\d+)\.?$', re.I)


def slot(s):
    return {'name': s['name'], 'mandatory': bool(s.get('mandatory', True))}


def param(p):
    t = {'kind': p['type']['kind'], 'dtype': p['type']['dtype']}
    if 'dims' in p['type']:
        t['dims'] = p['type']['dims']
    d = p.get('default')
    if isinstance(d, str) and not re.fullmatch(r'N(-1)?', d):
        d = None   # a sentence, not a value
    out = {'name': p['name'], 'macro': p['macro'], 'type': t, 'mandatory': bool(p['mandatory']), 'default': d}
    if p.get('enum'):
        out['enum'] = p['enum']
    return out


def op(o):
    out = {'name': o['name'], 'macro': o['macro'], 'inputs': [slot(s) for s in o['inputs']],
           'params': [param(p) for p in o['params']], 'outputs': [slot(s) for s in o['outputs']],
           'cpu_supported': bool(o.get('cpu_supported')), 'htp_supported': bool(o.get('htp_supported')),
           'htp_fp16': bool((o.get('backend_support') or {}).get('htp_fp16'))}
    merged = {}
    for e in o.get('htp_datatypes') or []:
        for k, v in e['tensors'].items():
            merged.setdefault(k, [])
            merged[k] += [d for d in v if d not in merged[k]]
    if merged:
        out['htp_datatypes'] = merged
    lim = {}
    for c in o.get('htp_constraints') or []:
        m = RANK.search((c.get('text') or '').strip())
        if m:
            k = 'htp_max_%s_rank' % m.group(1).lower()
            lim[k] = max(lim.get(k, 0), int(m.group(2)))
    out.update(sorted(lim.items()))
    return out


src = json.load(open(sys.argv[1]))
ops = [op(o) for o in src]
about = ('QNN op set 2.7 (API 2.7): per op its slots, params, backend support, HTP datatypes and rank '
         'limits, in the layout of opdefs_post_2_7.json. Written by tools/extract_opdefs_2_7.py; '
         'tools/gen_op_catalog.py, gen_htp_support.py and gen_python_opdefs.py read it.')
with open(sys.argv[2] if len(sys.argv) > 2 else 'sdk/opdefs/opdefs_2_7.json', 'w') as f:
    f.write('{\n  "about": %s,\n  "ops": [\n' % json.dumps(about))
    f.write(',\n'.join('    ' + json.dumps(o) for o in ops))
    f.write('\n  ]\n}\n')
print(len(ops), 'ops')
