#!/usr/bin/python3
"""Reads the ABI facts of a QNN header folder and compares them with a stored set.

  abi_facts.py extract INCLUDE_DIR -o FACTS.json [--source TEXT]
  abi_facts.py check FACTS.json INCLUDE_DIR [--deviations FILE] [--verbose]

A fact is one line "kind name = value": the size and alignment of every struct, union
and typedef, the offset/size/type of every field (anonymous unions flattened into their
parent's path), every enum constant's value, every object-like macro's tokens, every
function's and function-pointer typedef's signature, and the member list of each table.
Only facts are stored -- no comments or header text -- so the file can describe a vendor
version without carrying its headers. Both sides are read by the same code (libclang,
x86_64 Linux, C11), which keeps the comparison fair.

Scope: Qnn*.h, System/, Saver/, CPU/, HTP/ (HTP/core excluded): the headers a client of
the CPU, HTP, Saver and System libraries compiles against; and the common headers of the
backends we do not ship (DSP, GPU, IR, LPAI, HTP-QEMU: ids, provider names, versions) plus the
IR graph config, which clients naming every backend (ONNX Runtime's QNN EP) compile against.
"""
import argparse
import fnmatch
import json
import os
import sys
import tempfile

import clang.cindex as ci

SCOPE = ["Qnn*.h", "System/*.h", "Saver/*.h", "CPU/*.h", "HTP/*.h",
         "DSP/QnnDspCommon.h", "GPU/QnnGpuCommon.h", "IR/QnnIrCommon.h", "IR/QnnIrGraph.h",
         "LPAI/QnnLpaiCommon.h", "HTPQEMU/QnnHtpQemuCommon.h"]
EXCLUDE = ["HTP/core/*"]


def headers_in_scope(root):
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            if any(fnmatch.fnmatch(rel, p) for p in SCOPE) and not any(fnmatch.fnmatch(rel, p) for p in EXCLUDE):
                if rel.count("/") <= 1:
                    out.append(rel)
    return sorted(out)


def canon(t):
    return " ".join(t.get_canonical().spelling.split())


def parse(root):
    """Parses one translation unit that includes every header in scope."""
    hdrs = headers_in_scope(root)
    # The CPU op package header names a struct by its tag without `struct` (valid C++ only);
    # a C client needs this one typedef first, as the vendor's C users do.
    src = ("#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
           "typedef struct _QnnOpPackage_GraphInfrastructure_t _QnnOpPackage_GraphInfrastructure_t;\n") + "".join(
        f'#include "{h}"\n' for h in hdrs)
    # a private folder: "Qnn*.h" must not resolve next to the probe file
    path = os.path.join(tempfile.mkdtemp(), "probe.c")
    with open(path, "w") as f:
        f.write(src)
    try:
        idx = ci.Index.create()
        tu = idx.parse(path, args=["-std=c11", "-x", "c", "-I", root, "-target", "x86_64-unknown-linux-gnu"],
                       options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    finally:
        os.unlink(path)
        os.rmdir(os.path.dirname(path))
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    return tu, hdrs, errors


def rel_header_path(path, root):
    p = os.path.realpath(path)
    r = os.path.realpath(root)
    return os.path.relpath(p, r) if p.startswith(r + os.sep) else None


def rel_header(cursor, root):
    f = cursor.location.file
    if f is None:
        return None
    p = os.path.realpath(f.name)
    r = os.path.realpath(root)
    if not p.startswith(r + os.sep):
        return None
    return os.path.relpath(p, r)


def field_facts(prefix, rec_type, base, out):
    """Fields of a record; members of anonymous structs/unions are flattened into the
    parent's path with offsets from the outermost record."""
    lib = _eval_api()
    decl = rec_type.get_declaration()
    for fc in decl.get_children():
        if fc.kind in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL) and \
                lib.clang_Cursor_isAnonymousRecordDecl(fc):
            sub = fc.type.get_canonical()
            field_facts(prefix, sub, base + _anon_offset(rec_type, sub), out)
            continue
        if fc.kind != ci.CursorKind.FIELD_DECL or not fc.spelling:
            continue
        off = base + rec_type.get_offset(fc.spelling) // 8
        ft = fc.type
        out[f"field {prefix}.{fc.spelling}"] = f"@{off} size {max(ft.get_size(), 0)} type {canon(ft)}"


def _anon_offset(rec_type, sub):
    # libclang gives offsets by field name; a named field of the anonymous member is also a
    # (transparent) field of the parent, so the difference of the two offsets places it.
    for fc in sub.get_declaration().get_children():
        if fc.kind == ci.CursorKind.FIELD_DECL and fc.spelling:
            outer = rec_type.get_offset(fc.spelling)
            inner = sub.get_offset(fc.spelling)
            if outer >= 0 and inner >= 0:
                return (outer - inner) // 8
    return 0


def extract(root):
    tu, hdrs, errors = parse(root)
    if errors:
        for e in errors[:20]:
            print(f"error: {e}", file=sys.stderr)
        raise SystemExit(f"{root}: headers do not compile ({len(errors)} errors)")
    facts = {}
    where = {}

    def put(key, value, hdr):
        facts[key] = value
        where[key] = hdr

    for c in tu.cursor.get_children():
        hdr = rel_header(c, root)
        if hdr is None or hdr not in hdrs:
            continue
        k = c.kind
        if k == ci.CursorKind.TYPEDEF_DECL:
            ut = c.underlying_typedef_type
            can = ut.get_canonical()
            if can.kind in (ci.TypeKind.RECORD,):
                size = can.get_size()
                if size > 0:
                    put(f"record {c.spelling}", f"size {size} align {can.get_align()}", hdr)
                    out = {}
                    field_facts(c.spelling, can, 0, out)
                    for kk, vv in out.items():
                        put(kk, vv, hdr)
                else:
                    put(f"typedef {c.spelling}", f"incomplete {canon(ut)}", hdr)
            elif can.kind == ci.TypeKind.POINTER and can.get_pointee().kind == ci.TypeKind.FUNCTIONPROTO:
                put(f"fnptr {c.spelling}", canon(ut), hdr)
            elif can.kind == ci.TypeKind.ENUM:
                put(f"typedef {c.spelling}", f"enum size {can.get_size()}", hdr)
            else:
                put(f"typedef {c.spelling}", f"{canon(ut)} size {can.get_size()}", hdr)
        elif k == ci.CursorKind.ENUM_DECL:
            for e in c.get_children():
                if e.kind == ci.CursorKind.ENUM_CONSTANT_DECL:
                    put(f"enum {e.spelling}", str(e.enum_value), hdr)
        elif k == ci.CursorKind.FUNCTION_DECL:
            put(f"function {c.spelling}", canon(c.type), hdr)
        elif k == ci.CursorKind.MACRO_DEFINITION:
            toks = [t.spelling for t in c.get_tokens() if t.kind != ci.TokenKind.COMMENT][1:]
            name = c.spelling
            if not toks or name.endswith("_H") or name.startswith("__"):
                continue  # include guards and empty markers
            if _eval_api().clang_Cursor_isMacroFunctionLike(c):
                put(f"macro {name}", "function-like", hdr)
            else:
                put(f"macro {name}", None, hdr)
    # Object-like macros are compared by value, not spelling (0 and 0u, 101 and
    # (QNN_PROPERTY_GROUP_CORE + 100) are the same fact): integer constants and strings are
    # evaluated; brace initializers are compared by their element count after expansion.
    pending = [k[6:] for k, v in facts.items() if k.startswith("macro ") and v is None]
    for name, value in evaluate_macros(root, hdrs, pending).items():
        facts[f"macro {name}"] = value
    return facts, where


_EVAL_READY = False


def _eval_api():
    global _EVAL_READY
    import ctypes
    lib = ci.conf.lib
    if not _EVAL_READY:
        lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
        lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_getAsStr.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsStr.restype = ctypes.c_char_p
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
        lib.clang_Cursor_isAnonymousRecordDecl.argtypes = [ci.Cursor]
        lib.clang_Cursor_isAnonymousRecordDecl.restype = ctypes.c_uint
        lib.clang_Cursor_isMacroFunctionLike.argtypes = [ci.Cursor]
        lib.clang_Cursor_isMacroFunctionLike.restype = ctypes.c_uint
        _EVAL_READY = True
    return lib


def evaluate_macros(root, hdrs, names):
    """Values of object-like macros: 'int N', 'string S', 'init K' (K top-level elements) or 'other'."""
    body = []
    for n in names:
        body.append(f"static const long long abi_i_{n} = (long long)({n});")
        body.append(f"static const char *abi_s_{n} = {n};")
    src = ("#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
           "typedef struct _QnnOpPackage_GraphInfrastructure_t _QnnOpPackage_GraphInfrastructure_t;\n"
           + "".join(f'#include "{h}"\n' for h in hdrs) + "\n".join(body) + "\n")
    # a private folder: "Qnn*.h" must not resolve next to the probe file
    path = os.path.join(tempfile.mkdtemp(), "probe.c")
    with open(path, "w") as f:
        f.write(src)
    try:
        tu = ci.Index.create().parse(path, args=["-std=c11", "-x", "c", "-I", root, "-target",
                                                 "x86_64-unknown-linux-gnu", "-ferror-limit=0"],
                                     options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    finally:
        os.unlink(path)
        os.rmdir(os.path.dirname(path))
    lib = _eval_api()
    ints, strs = {}, {}
    for c in tu.cursor.get_children():
        if c.kind != ci.CursorKind.VAR_DECL or not c.spelling.startswith("abi_"):
            continue
        kind, n = c.spelling[4], c.spelling[6:]
        if kind not in "is":
            continue
        r = lib.clang_Cursor_Evaluate(c)
        if not r:
            continue
        k = lib.clang_EvalResult_getKind(r)
        if kind == "i" and k == 1:  # CXEval_Int
            ints[n] = lib.clang_EvalResult_getAsLongLong(r)
        elif kind == "s" and k == 4:  # CXEval_StrLiteral
            strs[n] = lib.clang_EvalResult_getAsStr(r).decode()
        lib.clang_EvalResult_dispose(r)
    # brace initializers: count top-level elements of the fully expanded token list
    expanded = {}
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.MACRO_DEFINITION and c.spelling in names:
            # a token's spelling keeps a line splice ("\\\n{"): drop it
            expanded[c.spelling] = [t.spelling.replace("\\\n", "").strip() for t in c.get_tokens()
                                    if t.kind != ci.TokenKind.COMMENT][1:]
    out = {}
    for n in names:
        if n in strs:
            out[n] = f"string {strs[n]}"
        elif n in ints:
            out[n] = f"int {ints[n]}"
        else:
            out[n] = f"init {_shape(n, expanded)}" if expanded.get(n, [""])[0] == "{" else "other"
    return out


def _expand(tokens, macros, depth=0):
    out = []
    for t in tokens:
        if depth < 8 and t in macros and macros[t] and macros[t][0] != "(":
            out.extend(_expand(macros[t], macros, depth + 1))
        else:
            out.append(t)
    return out


def _shape(name, macros):
    """Nesting shape of a brace initializer after expanding object-like macros: {n,{m},...}."""
    toks = _expand(macros[name], macros)
    def walk(i):
        # returns (shape string, next index) for the brace group starting at toks[i] == '{'
        parts, cur, j = [], [], i + 1
        while j < len(toks):
            t = toks[j]
            if t == "{":
                s, j = walk(j)
                cur.append(s)
                continue
            if t == "}":
                if cur:  # a trailing comma adds no element
                    parts.append("".join(x for x in cur if x.startswith("{")) or "v")
                return "{" + ",".join(parts) + "}", j + 1
            if t == ",":
                parts.append("".join(x for x in cur if x.startswith("{")) or "v")
                cur = []
            else:
                cur.append(t)
            j += 1
        return "{?}", j

    if not toks or toks[0] != "{":
        return "other"
    # only the top-level element count is a fact: brace elision inside is a matter of style
    shape = walk(0)[0]
    depth, count = 0, 1 if shape != "{}" else 0
    for ch in shape[1:-1]:
        depth += ch == "{"
        depth -= ch == "}"
        count += ch == "," and depth == 0
    return str(count)


def load_deviations(path):
    out = set()
    if path and os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#"):
                out.add(line.split(" = ")[0].strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract")
    e.add_argument("include")
    e.add_argument("-o", "--output", required=True)
    e.add_argument("--source", default="")
    c = sub.add_parser("check")
    c.add_argument("facts")
    c.add_argument("include")
    c.add_argument("--deviations")
    c.add_argument("--verbose", action="store_true")
    c.add_argument("--only", help="glob of headers to report on, e.g. 'System/*'")
    a = ap.parse_args()
    if a.cmd == "extract":
        facts, where = extract(a.include)
        by_header = {}
        for k in sorted(facts):
            by_header.setdefault(where[k], {})[k] = facts[k]
        doc = {"schema": "openqnn-abi-facts/1", "source": a.source,
               "note": "Facts only (sizes, offsets, types, values, signatures) read with libclang on x86_64.",
               "headers": by_header}
        with open(a.output, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{sum(len(v) for v in by_header.values())} facts from {len(by_header)} headers -> {a.output}")
        return 0
    doc = json.load(open(a.facts))
    got, _ = extract(a.include)
    dev = load_deviations(a.deviations)
    match = differ = missing = declared = 0
    lines = []
    for hdr, facts in sorted(doc["headers"].items()):
        if a.only and not fnmatch.fnmatch(hdr, a.only):
            continue
        for k, v in sorted(facts.items()):
            g = got.get(k)
            if g == v:
                match += 1
            elif k in dev:
                declared += 1
            elif g is None:
                missing += 1
                lines.append(f"missing  [{hdr}] {k} = {v}")
            else:
                differ += 1
                lines.append(f"differs  [{hdr}] {k} = {g} (expected {v})")
    for line in lines if a.verbose else lines[:80]:
        print(line)
    if not a.verbose and len(lines) > 80:
        print(f"... {len(lines) - 80} more (use --verbose)")
    total = match + differ + missing + declared
    print(f"ABI facts: {match} match, {differ} differ, {missing} missing, {declared} declared deviations (of {total})")
    return 0 if differ == 0 and missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
