#!/usr/bin/env python3
"""Checks the quoted includes of backends/, tests/ and benchmarks/ (docs/architecture.md, "Include
paths"; tools/check_layers.py checks sdk/ itself). Every project header is named by one path from
one of three roots, so a name says where its file is and no two folders' files of the same name
can be confused:
  - sdk/:      "core/status.h", "kernels/shared_ops.h"     (the SDK's layers)
  - backends/: "cpu/kernels/kernel.h", "htp_sim/kernels/htp_kernel.h", "saver/saver_api.h"
  - the repository: "tests/api/backend_loader.h"           (test helpers)
and the public headers of include/QNN and the model-library sources the SDK ships
(sdk/model_lib/, "QnnModel.hpp") by their bare names, as users' code names them. It fails (exit 1, one
line per finding) when
  - a file includes a project header by its bare name or a path relative to its own folder;
  - a path resolves under more than one root;
  - a backend includes another backend's header (backends share code only through sdk/), or a
    backend or benchmark includes a test helper.
Headers found nowhere in the source tree are generated into the build tree and are not checked.
  python3 tools/check_includes.py"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKED = ('backends', 'tests', 'benchmarks')
SOURCE = ('.h', '.hpp', '.cpp', '.c', '.cc', '.inc')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def backends():
    return sorted(d for d in os.listdir(os.path.join(root, 'backends'))
                  if os.path.isdir(os.path.join(root, 'backends', d)))


def sources():
    for tree in CHECKED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, tree)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for f in sorted(filenames):
                if f.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def resolutions(inc):
    """Every root under which `inc` names a file: [(root name, path from the repository)]."""
    found = []
    if '..' in inc.split('/'):
        return found  # a relative path: reported as one
    for shipped in (os.path.join('include', 'QNN'), os.path.join('sdk', 'model_lib')):
        if os.path.isfile(os.path.join(root, shipped, inc)):
            found.append((shipped, os.path.join(shipped, inc)))
    if '/' in inc:
        for name, base in (('sdk', 'sdk'), ('backends', 'backends'), ('repository', '')):
            if os.path.isfile(os.path.join(root, base, inc)):
                found.append((name, os.path.normpath(os.path.join(base, inc))))
    return found


def main():
    backend_names = set(backends())
    findings = []
    by_name = {}
    for tree in CHECKED + ('sdk',):
        for dirpath, _, filenames in os.walk(os.path.join(root, tree)):
            for f in filenames:
                by_name.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), root))
    for rel in sources():
        parts = rel.split(os.sep)
        own_backend = parts[1] if parts[0] == 'backends' else None
        for n, line in enumerate(open(os.path.join(root, rel), errors='replace'), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc, where = m.group(1), '%s:%d' % (rel, n)
            found = resolutions(inc)
            if len(found) > 1:
                findings.append('%s: "%s" names a file under %s: ambiguous' % (
                    where, inc, ' and '.join(f[1] for f in found)))
                continue
            if not found:
                local = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                if os.path.isfile(os.path.join(root, local)):
                    findings.append('%s: "%s" by a path from its own folder: write "%s"' % (
                        where, inc, qualified(local)))
                elif os.path.basename(inc) in by_name:
                    known = [k for k in by_name[os.path.basename(inc)] if k.endswith(inc)]
                    if known:
                        findings.append('%s: "%s" by a bare name: write %s' % (
                            where, inc, ' or '.join('"%s"' % qualified(k) for k in known)))
                continue  # generated into the build tree
            root_name, path = found[0]
            if root_name == 'backends':
                target_backend = inc.split('/')[0]
                if own_backend and target_backend != own_backend:
                    findings.append('%s: backend %s includes "%s" of backend %s: share code through sdk/' % (
                        where, own_backend, inc, target_backend))
            elif root_name == 'repository':
                if not inc.startswith('tests/'):
                    findings.append('%s: "%s": from the repository root only tests/ is included (sdk/ and '
                                    'backends/ are roots of their own)' % (where, inc))
                elif parts[0] != 'tests':
                    findings.append('%s: %s includes the test helper "%s"' % (where, parts[0], inc))
    for f in findings:
        print(f)
    print('%d finding(s) over %s' % (len(findings), ', '.join(t + '/' for t in CHECKED)))
    return 1 if findings else 0


def qualified(path):
    """The include path of a file given by its path from the repository."""
    first, rest = path.split(os.sep, 1)
    if first in ('sdk', 'backends'):
        return rest
    return path


if __name__ == '__main__':
    sys.exit(main())
