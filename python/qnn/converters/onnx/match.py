"""Matching helpers for the rewrites on the ONNX node list (patterns.py, fusions/): who produces and who
consumes a tensor, single-use and constant checks, and applying a set of fused replacements."""


def consumers(nodes):
    c = {}
    for n in nodes:
        for i in n.input:
            c.setdefault(i, []).append(n)
    return c


def producer(nodes):
    return {o: n for n in nodes for o in n.output}


def const_scalar(model, name, value, tol=1e-4):
    v = model.consts.get(name)
    return v is not None and v.size == 1 and abs(float(v.reshape(-1)[0]) - value) <= tol * max(1.0, abs(value))


def single_use(cons, model, name):
    return len(cons.get(name, [])) == 1 and name not in model.outputs


def other_input(node, name):
    return node.input[1] if node.input[0] == name else node.input[0]


def apply_fused(model, fused):
    out = []
    for n in model.nodes:
        if id(n) in fused:
            if fused[id(n)] is not None:
                out.append(fused[id(n)])
        else:
            out.append(n)
    model.nodes = out
