"""The qnn package's import graph (every module under python/qnn, imports inside functions included) has no
cycle, and no module edits sys.path. Read from the sources with ast, nothing imported."""
import ast
import os

PKG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "qnn")


def _modules():
    mods = {}
    for d, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), os.path.dirname(PKG))[:-3].split(os.sep)
                is_pkg = rel[-1] == "__init__"
                name = ".".join(rel[:-1] if is_pkg else rel)
                mods[name] = (os.path.join(d, f), is_pkg)
    return mods


def _edges(mods):
    edges = {m: set() for m in mods}
    for m, (path, is_pkg) in mods.items():
        tree = ast.parse(open(path).read(), path)
        here = m.split(".") if is_pkg else m.split(".")[:-1]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here[:len(here) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                # "from pkg import name": the module pkg.name when there is one, else pkg itself
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            else:
                continue
            edges[m].update(t for t in targets if t in mods and t != m)
    return edges


def _cycles(edges):
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_package_is_found():
    mods = _modules()
    assert "qnn" in mods and "qnn.converters.onnx.cli" in mods and "qnn.quantization.qdq" in mods


def test_no_import_cycles():
    assert _cycles(_edges(_modules())) == []


def test_cycle_detection_works():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_sys_path_edits():
    offenders = [p for p, _ in _modules().values() if "sys.path" in open(p).read()]
    assert offenders == []
