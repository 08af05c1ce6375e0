"""qnn-model-lib-generator: compiles a converter's model.cpp (+ model.bin, a tar of raw weight files)
together with the model-library helper sources into <output_dir>/x86_64-linux-clang/lib<name>.so, which
exports QnnModel_composeGraphs and QnnModel_freeGraphsInfo. The contract and the model.bin convention are
in docs/model-library.md. Standard library only.

The helper sources and the QNN headers are found in the source checkout this package runs from
(sdk/model_lib, include/QNN; the build tree's launcher), else under the prefix of the running tool
(<prefix>/bin -> <prefix>/share/QNN/converter/jni, <prefix>/include/QNN; the install), else under
$QNN_SDK_ROOT (e.g. a pip install's console script after bin/envsetup.sh)."""
import argparse
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile

PROG = "qnn-model-lib-generator"
SUPPORTED_TARGETS = ("x86_64-linux-clang",)
# How many compiler lines to show after our own error line.
COMPILER_LINES_SHOWN = 12


class GeneratorError(Exception):
    """One user-facing error: printed as a single line, optionally followed by details."""

    def __init__(self, message, details=""):
        super().__init__(message)
        self.details = details


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Compiles provided QNN model artifacts (model .cpp and .bin) into a model "
        "library for the specified targets.")
    p.add_argument("-c", "--cpp", metavar="<QNN_MODEL>.cpp", required=True,
                   help="Filepath for the qnn model .cpp file (required).")
    p.add_argument("-b", "--bin", metavar="<QNN_MODEL>.bin",
                   help="Filepath for the qnn model .bin file, a tar of raw weight files. If not "
                   "passed, building fails if the .cpp references any weight data.")
    p.add_argument("-t", "--lib_targets", metavar="LIB_TARGETS", nargs="+",
                   default=[SUPPORTED_TARGETS[0]],
                   help="Targets to build the models for (space- or comma-separated). Only "
                   "x86_64-linux-clang is supported. Default: x86_64-linux-clang.")
    p.add_argument("-l", "--lib_name", metavar="LIB_NAME",
                   help="Name to use for the library (lib<LIB_NAME>.so). Default: the .cpp file's "
                   "base name.")
    p.add_argument("-o", "--output_dir", metavar="OUTPUT_DIR", default="model_libs",
                   help="Location for saving output libraries (<OUTPUT_DIR>/<target>/). "
                   "Default: ./model_libs.")
    return p.parse_args(argv)


def targets_from(args_targets):
    targets = []
    for item in args_targets:
        targets += [t for t in item.split(",") if t]
    for t in targets:
        if t not in SUPPORTED_TARGETS:
            raise GeneratorError(
                "unsupported target '%s': OpenQNN builds model libraries for x86_64-linux-clang only" % t)
    return sorted(set(targets))


def check_readable(path, what):
    if not os.path.isfile(path):
        raise GeneratorError("%s '%s' does not exist or is not a file" % (what, path))
    if not os.access(path, os.R_OK):
        raise GeneratorError("%s '%s' is not readable" % (what, path))


def find_helpers():
    """Returns (jni_dir, include_dir): the helper sources and the QNN API headers."""
    checkout = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "..")
    candidates = [(os.path.join(checkout, "sdk", "model_lib"), os.path.join(checkout, "include", "QNN"))]
    if sys.argv and sys.argv[0]:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(sys.argv[0])))
        candidates.append((os.path.join(prefix, "share", "QNN", "converter", "jni"),
                           os.path.join(prefix, "include", "QNN")))
    sdk_root = os.environ.get("QNN_SDK_ROOT")
    if sdk_root:
        candidates.append((os.path.join(sdk_root, "share", "QNN", "converter", "jni"),
                           os.path.join(sdk_root, "include", "QNN")))
    for jni, inc in candidates:
        if os.path.isfile(os.path.join(jni, "QnnModel.hpp")) and os.path.isfile(os.path.join(inc, "QnnInterface.h")):
            return os.path.normpath(jni), os.path.normpath(inc)
    raise GeneratorError("cannot find the model helper sources (QnnModel.hpp) and QNN headers; looked in: "
                         + ", ".join(j for j, _ in candidates))


def blob_symbol(file_name):
    # The name GNU ld gives "obj/binary/<file_name>" in binary input mode: every
    # character that is not alphanumeric becomes '_'. BINVARSTART(NAME) in the
    # helpers expects exactly this, so a tar member NAME.raw serves BINVARSTART(NAME).
    return "_binary_" + re.sub(r"[^A-Za-z0-9]", "_", "obj/binary/" + file_name)


def extract_weights(bin_path, dest):
    """Copies each regular file of the tar model.bin into dest; returns {symbol stem: path}."""
    blobs = {}
    try:
        with tarfile.open(bin_path, "r:*") as tar:
            for member in tar:
                if member.isdir():
                    continue
                if not member.isfile():
                    raise GeneratorError("model.bin '%s': entry '%s' is not a regular file" % (bin_path, member.name))
                base = os.path.basename(member.name)
                if not base or base in (".", ".."):
                    raise GeneratorError("model.bin '%s': entry '%s' has no file name" % (bin_path, member.name))
                stem = blob_symbol(base)
                if stem in blobs:
                    raise GeneratorError("model.bin '%s': two entries map to the same weight name as '%s'"
                                         % (bin_path, member.name))
                # Written by us under a fresh name, never extracted by path: a hostile
                # member name cannot escape the temporary directory.
                out_path = os.path.join(dest, "blob%d.raw" % len(blobs))
                src = tar.extractfile(member)
                with open(out_path, "wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
                blobs[stem] = out_path
    except (tarfile.TarError, EOFError):
        raise GeneratorError("model.bin '%s' is not a readable tar archive of raw weight files" % bin_path)
    except OSError as e:
        raise GeneratorError("cannot read model.bin '%s': %s" % (bin_path, e.strerror or e))
    return blobs


def write_weights_asm(blobs, path):
    """One assembly file that embeds every blob with .incbin between its _start/_end symbols."""
    lines = ['\t.section .rodata.qnn_model_weights,"a"']
    for stem, blob_path in sorted(blobs.items()):
        quoted = blob_path.replace("\\", "\\\\").replace('"', '\\"')
        # 64-byte alignment: backends may read weights as float/int arrays in place.
        lines += ["\t.balign 64",
                  "\t.globl %s_start" % stem, "\t.hidden %s_start" % stem, "%s_start:" % stem,
                  '\t.incbin "%s"' % quoted,
                  "\t.globl %s_end" % stem, "\t.hidden %s_end" % stem, "%s_end:" % stem]
    lines.append('\t.section .note.GNU-stack,"",@progbits')
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def referenced_blobs(cpp_text):
    return set(re.findall(r"\bBIN(?:VARSTART|VAREND|LEN)\s*\(\s*([A-Za-z0-9_]+)\s*\)", cpp_text))


def first_lines(text, n=COMPILER_LINES_SHOWN):
    lines = [l for l in text.splitlines() if l.strip()]
    # Prefer the lines that carry the diagnosis.
    errors = [i for i, l in enumerate(lines) if "error" in l]
    start = max(0, errors[0] - 1) if errors else 0
    return "\n".join("    " + l for l in lines[start:start + n])


def helper_objects(sources, compile_cmd, include_dir, jni_dir):
    """The helper sources as they go into the link: themselves, or, when
    QNN_MODEL_LIB_GENERATOR_CACHE names a directory, objects compiled once there
    for this compiler, these flags and these helper and header contents (a run
    that builds many model libraries, e.g. a conformance suite, compiles them
    once). A cache that cannot be written is not used."""
    cache = os.environ.get("QNN_MODEL_LIB_GENERATOR_CACHE", "")
    if not cache:
        return sources
    key = hashlib.sha256("\0".join(compile_cmd).encode())
    for d in (jni_dir, include_dir):
        for root, _, files in sorted(os.walk(d)):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp", ".h")):
                    key.update(f.encode())
                    with open(os.path.join(root, f), "rb") as fh:
                        key.update(fh.read())
    out_dir = os.path.join(cache, key.hexdigest()[:24])
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError:
        return sources
    objects = []
    for src in sources:
        obj = os.path.join(out_dir, os.path.splitext(os.path.basename(src))[0] + ".o")
        if not os.path.exists(obj):
            # Written under a private name and renamed: parallel runs never see half an object.
            fd, tmp_obj = tempfile.mkstemp(suffix=".o", dir=out_dir)
            os.close(fd)
            try:
                run(compile_cmd + ["-c", src, "-o", tmp_obj], "compiling %s" % os.path.basename(src))
                os.replace(tmp_obj, obj)
            finally:
                if os.path.exists(tmp_obj):
                    os.remove(tmp_obj)
        objects.append(obj)
    return objects


def run(cmd, what):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    except FileNotFoundError:
        raise GeneratorError("C++ compiler '%s' not found (set CXX)" % cmd[0])
    if proc.returncode != 0:
        undefined = sorted(set(re.findall(r"_binary_obj_binary_([A-Za-z0-9_]+?)_raw_(?:start|end)", proc.stdout)))
        if undefined:
            raise GeneratorError("model.cpp uses weight data missing from model.bin: %s" % ", ".join(undefined),
                                 first_lines(proc.stdout))
        raise GeneratorError("%s failed (exit %d)" % (what, proc.returncode), first_lines(proc.stdout))
    return proc.stdout


def exported_compose(lib_path):
    """True if the library exports a *_composeGraphs symbol; None when nm is unavailable."""
    nm = shutil.which("nm")
    if not nm:
        return None
    out = subprocess.run([nm, "-D", "--defined-only", lib_path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, universal_newlines=True).stdout
    return any(line.split()[-1].endswith("_composeGraphs") for line in out.splitlines() if line.split())


def build(args):
    targets = targets_from(args.lib_targets)
    check_readable(args.cpp, "model source")
    if args.bin is not None:
        check_readable(args.bin, "model.bin")
    lib_name = args.lib_name or os.path.splitext(os.path.basename(args.cpp))[0] or "qnn_model"
    if "/" in lib_name:
        raise GeneratorError("library name '%s' must not contain '/'" % lib_name)
    jni_dir, include_dir = find_helpers()
    with open(args.cpp, "r", errors="replace") as f:
        cpp_text = f.read()

    cxx = shlex.split(os.environ.get("CXX", "c++")) or ["c++"]
    extra_cxx = shlex.split(os.environ.get("CXXFLAGS", ""))
    extra_ld = shlex.split(os.environ.get("LDFLAGS", ""))
    base = ["-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-fvisibility-inlines-hidden",
            "-I", jni_dir, "-I", include_dir]

    with tempfile.TemporaryDirectory(prefix="qnn-model-lib-") as tmp:
        blobs = {}
        if args.bin is not None:
            blob_dir = os.path.join(tmp, "obj", "binary")
            os.makedirs(blob_dir)
            blobs = extract_weights(args.bin, blob_dir)
        missing = sorted(n for n in referenced_blobs(cpp_text) if blob_symbol(n + ".raw") not in blobs)
        if missing:
            raise GeneratorError("model.cpp uses weight data missing from %s: %s"
                                 % ("model.bin" if args.bin else "the model (no -b given)", ", ".join(missing)))

        # model.cpp first and alone, so its errors are reported as its own. Generated
        # code draws warnings (e.g. clang's C99-designator notes) its user cannot act
        # on: -w, before CXXFLAGS so a caller can turn them back on.
        model_obj = os.path.join(tmp, "model.o")
        run(cxx + base + ["-w"] + extra_cxx + ["-c", os.path.abspath(args.cpp), "-o", model_obj],
            "compiling %s" % args.cpp)

        inputs = [model_obj]
        helpers = sorted(os.path.join(jni_dir, f) for f in os.listdir(jni_dir) if f.endswith(".cpp"))
        inputs += helper_objects(helpers, cxx + base + extra_cxx, include_dir, jni_dir)
        if blobs:
            asm = os.path.join(tmp, "weights.S")
            write_weights_asm(blobs, asm)
            inputs.append(asm)
        # --no-undefined turns a missing symbol into a build error instead of a
        # dlopen failure later; sanitizer runtimes may be left to the executable, so
        # it is dropped when the caller builds with -fsanitize.
        no_undef = [] if any(f.startswith("-fsanitize") for f in extra_cxx + extra_ld) else ["-Wl,--no-undefined"]
        for target in targets:
            out_dir = os.path.join(args.output_dir, target)
            try:
                os.makedirs(out_dir, exist_ok=True)
            except OSError as e:
                raise GeneratorError("cannot create output directory '%s': %s" % (out_dir, e.strerror or e))
            lib_file = "lib%s.so" % lib_name
            tmp_lib = os.path.join(tmp, lib_file)
            run(cxx + base + extra_cxx + ["-shared", "-Wl,-soname," + lib_file] + inputs + ["-o", tmp_lib]
                + no_undef + extra_ld + ["-ldl"], "building %s" % lib_file)
            if exported_compose(tmp_lib) is False:
                raise GeneratorError("%s exports no *_composeGraphs function: declare it extern \"C\" QNN_API"
                                     % args.cpp)
            final = os.path.join(out_dir, lib_file)
            try:
                shutil.copyfile(tmp_lib, final + ".tmp")
                os.chmod(final + ".tmp", 0o755)
                os.replace(final + ".tmp", final)  # never leave a half-written library
            except OSError as e:
                raise GeneratorError("cannot write '%s': %s" % (final, e.strerror or e))
            print("%s: wrote %s" % (PROG, final))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        build(args)
    except GeneratorError as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        if e.details:
            print(e.details, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0
