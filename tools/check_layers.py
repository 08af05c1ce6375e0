#!/usr/bin/env python3
"""Checks the layers of sdk/ (docs/architecture.md, "Layers"): the layers, their folders and their
link edges are the qnn_sdk_layer(...) calls of sdk/CMakeLists.txt; every quoted include of every
source under sdk/ is resolved to the folder it names. It fails (exit 1, one line per finding) when
  - a file of a layer includes a header of a layer it does not link (PUBLIC or PRIVATE), or of a
    folder outside the layers (tools, trace, system, ...: those sit above every layer);
  - a header of a layer includes a layer its layer links only PRIVATE (a header's includes are
    its users' includes: that edge must be PUBLIC);
  - a layer declares an edge no file uses (the link edges are the include graph, no more);
  - a file under sdk/ includes a project header by its bare name or a relative path (write
    "core/logger.h", "tools/common/tool_error.h": bare names are for the public headers of
    include/QNN and the model-library sources of sdk/model_lib, shipped as they are);
  python3 tools/check_layers.py            check
  python3 tools/check_layers.py --graph    also print the folder -> folder include edges of sdk/"""
import collections, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sdk = os.path.join(root, 'sdk')
public = os.path.join(root, 'include', 'QNN')
SOURCE = ('.h', '.hpp', '.cpp', '.c', '.inc')
HEADER = ('.h', '.hpp', '.inc')
# Sources shipped for users to compile in their own folder (share/QNN/converter/jni): vendor names, bare.
VENDOR_SOURCES = ('model_lib',)


def read_layers():
    """{layer: (folders, public deps, private deps)} from the qnn_sdk_layer calls, in order."""
    text = open(os.path.join(sdk, 'CMakeLists.txt')).read()
    text = re.sub(r'#[^\n]*', '', text)
    layers = collections.OrderedDict()
    for m in re.finditer(r'^\s*qnn_sdk_layer\(([^)]*)\)', text, re.M):
        words = m.group(1).split()
        name, part, parts = words[0], None, {'FOLDERS': [], 'PUBLIC': [], 'PRIVATE': []}
        for w in words[1:]:
            if w in parts:
                part = w
            elif part:
                parts[part].append(w)
        for w in parts['PUBLIC'] + parts['PRIVATE']:
            if w not in layers and '::' not in w and not w.startswith('${'):
                sys.exit('check_layers: layer %s links "%s", which is no layer defined before it' % (name, w))
        # external libraries (ZLIB::ZLIB, ${CMAKE_DL_LIBS}, ...) are not layers
        known = lambda ws: [w for w in ws if w in layers]
        layers[name] = (parts['FOLDERS'], known(parts['PUBLIC']), known(parts['PRIVATE']))
    if not layers:
        sys.exit('check_layers: no qnn_sdk_layer(...) call in sdk/CMakeLists.txt')
    return layers


def sources():
    for dirpath, dirnames, filenames in os.walk(sdk):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
        for f in sorted(filenames):
            if f.endswith(SOURCE):
                yield os.path.join(dirpath, f)


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    layers = read_layers()
    folder_layer = {f: name for name, (folders, _, _) in layers.items() for f in folders}
    findings, edges, used = [], collections.Counter(), collections.defaultdict(set)
    by_name = collections.defaultdict(list)  # file name -> its paths from sdk/
    for path in sources():
        rel = os.path.relpath(path, sdk)
        if rel.split(os.sep)[0] not in VENDOR_SOURCES:
            by_name[os.path.basename(path)].append(rel)
    for path in sources():
        rel = os.path.relpath(path, sdk)
        folder = rel.split(os.sep)[0]
        layer = folder_layer.get(folder)
        is_header = path.endswith(HEADER)
        for n, line in enumerate(open(path, errors='replace'), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc, where = m.group(1), '%s:%d' % (os.path.relpath(path, root), n)
            if os.path.exists(os.path.join(public, inc)) and not os.path.exists(os.path.join(sdk, inc)):
                continue  # a public header of include/QNN
            first = inc.split('/')[0]
            if '/' in inc and os.path.isdir(os.path.join(sdk, first)) and os.path.exists(os.path.join(sdk, inc)):
                target = first
            elif os.path.exists(os.path.join(os.path.dirname(path), inc)):
                target = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(path), inc)), sdk).split(os.sep)[0]
                if folder not in VENDOR_SOURCES:
                    findings.append('%s: "%s" by a path from its own folder: write "%s"' % (
                        where, inc, os.path.relpath(os.path.join(os.path.dirname(path), inc), sdk)))
            else:
                known = by_name.get(os.path.basename(inc), [])
                if folder not in VENDOR_SOURCES and known:
                    findings.append('%s: "%s" by its bare name: write %s' % (
                        where, inc, ' or '.join('"%s"' % k for k in known)))
                elif layer:
                    findings.append('%s: "%s" names no file of sdk/ or include/QNN' % (where, inc))
                continue  # generated headers (build tree)
            edges[(folder, target)] += 1
            if not layer or target == folder:
                continue
            dep = folder_layer.get(target)
            if dep is None:
                findings.append('%s: layer %s includes "%s" of sdk/%s, which is no layer (it sits above them all)'
                                % (where, layer, inc, target))
                continue
            if dep == layer:
                continue
            _, pub, priv = layers[layer]
            used[layer].add((dep, is_header))
            if dep not in pub and dep not in priv:
                findings.append('%s: layer %s includes "%s" of layer %s, which it does not link%s' % (
                    where, layer, inc, dep,
                    ' (a layer below it may not include it)' if layer in reachable(layers, dep) else ''))
            elif is_header and dep not in pub:
                findings.append('%s: a header of layer %s includes "%s": %s must be a PUBLIC edge of %s' % (
                    where, layer, inc, dep, layer))
    for name, (_, pub, priv) in layers.items():
        for dep in pub:
            if (dep, True) not in used[name]:
                findings.append('sdk/CMakeLists.txt: layer %s links %s PUBLIC, but no header of %s includes it%s' % (
                    name, dep, name, ' (make it PRIVATE)' if (dep, False) in used[name] else ''))
        for dep in priv:
            if (dep, False) not in used[name] and (dep, True) not in used[name]:
                findings.append('sdk/CMakeLists.txt: layer %s links %s PRIVATE, but no file of %s includes it' % (
                    name, dep, name))
    if '--graph' in sys.argv:
        print('folder -> folder include edges under sdk/ (count of #include lines):')
        for (a, b), c in sorted(edges.items()):
            if a != b:
                print('  %-14s -> %-14s %4d' % (a, b, c))
        print('layers (PUBLIC | PRIVATE edges):')
        for name, (folders, pub, priv) in layers.items():
            print('  %-9s %-22s %s | %s' % (name, '/'.join(folders), ' '.join(pub) or '-', ' '.join(priv) or '-'))
    for f in findings:
        print(f)
    print('%d finding(s) over %d layers' % (len(findings), len(layers)))
    return 1 if findings else 0


def reachable(layers, start):
    """The layers `start` links, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        _, pub, priv = layers[todo.pop()]
        for d in pub + priv:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


if __name__ == '__main__':
    sys.exit(main())
