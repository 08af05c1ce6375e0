"""Hostile input for the Python tools' readers: mutated ONNX models, DLCs, quantization overrides
(encodings JSON), op-package XML configs and model.bin tar archives go through the readers the tools
use (qnn.converters.onnx.loader, qnn.dlc.reader, qnn.quantization.overrides, custom_ops; qnn-model-lib-generator's
extract_weights). Each must either read the input or refuse it with the tool's own error (the one
line the tool prints); any other exception is what a user would see as a traceback, and fails the
run with the input kept. Mutations: bit flips, byte changes, truncation, insertions, duplicated spans,
splices. usage: fuzz_python_inputs.py BUILD_DIR [SECONDS] [SEED]"""
import io
import json
import os
import random
import shutil
import sys
import tarfile
import tempfile
import time

try:
    import numpy  # noqa: F401  (the readers need it)
    import onnx  # noqa: F401
except ImportError:
    print("SKIP: python3-onnx / python3-numpy not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def mutate(seeds, rng):
    b = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(6)
        if k == 0 and b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif k == 1 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif k == 2:
            del b[rng.randrange(len(b) + 1):]
        elif k == 3:
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
        elif k == 4 and b:
            at = rng.randrange(len(b))
            span = b[at:at + rng.randint(1, 32)]
            pos = rng.randrange(len(b) + 1)
            b[pos:pos] = span
        else:
            other = rng.choice(seeds)
            b = b[:rng.randrange(len(b) + 1)] + other[rng.randrange(len(other) + 1):]
    return bytes(b)


def main():
    build = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else random.randrange(1 << 30)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "python"))
    from qnn.errors import ConverterError
    from qnn.converters.onnx import loader, custom_ops
    from qnn.dlc.reader import read_dlc
    from qnn.quantization import overrides
    from qnn.tools import model_lib_generator as libgen

    work = tempfile.mkdtemp(prefix="qnn_pyfuzz_")
    from test_dlc import small_cnn
    onnx_path = os.path.join(work, "seed.onnx")
    small_cnn(onnx_path)
    dlc_path = os.path.join(work, "seed.dlc")
    import subprocess
    p = subprocess.run([os.path.join(build, "bin", "qairt-converter"), "-i", onnx_path, "-o", dlc_path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: making the DLC seed: {p.stderr}")
    tar_buf = io.BytesIO()
    with tarfile.open(fileobj=tar_buf, mode="w") as tar:
        for name, data in (("w.raw", b"\x01" * 64), ("b.raw", b"\x02" * 8)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    xml = open(os.path.join(HERE, "..", "..", "..", "oppackages", "ExampleNorm", "config", "ExampleNorm.xml"),
               "rb").read()
    ov = json.dumps({"version": "0.5.0", "activation_encodings": {"r": [{"bitwidth": 8, "min": 0.0, "max": 0.5}]},
                     "param_encodings": {"w": [{"bitwidth": 8, "scale": 0.01, "offset": -128,
                                                "is_symmetric": "False"}]}}).encode()

    def read_onnx(path):
        loader.load(path, {}, [], False)

    def read_weights(path):
        out = tempfile.mkdtemp(dir=work)
        try:
            libgen.extract_weights(path, out)
        finally:
            shutil.rmtree(out, ignore_errors=True)  # thousands of reads: keep /tmp clean

    targets = [
        ("onnx", [open(onnx_path, "rb").read()], read_onnx, (ConverterError,)),
        ("dlc", [open(dlc_path, "rb").read()], read_dlc, (ConverterError,)),
        ("overrides", [ov], overrides.load, (ConverterError,)),
        ("op_package_xml", [xml], lambda p: custom_ops.load_configs([p]), (ConverterError,)),
        ("model_bin", [tar_buf.getvalue()], read_weights, (libgen.GeneratorError,)),
    ]
    rng = random.Random(seed)
    print(f"seed {seed}, {seconds:g} s over {len(targets)} readers")
    end = time.monotonic() + seconds
    counts = {name: 0 for name, *_ in targets}
    path = os.path.join(work, "input")
    while time.monotonic() < end:
        name, seeds, read, allowed = targets[rng.randrange(len(targets))]
        data = mutate(seeds, rng)
        with open(path, "wb") as f:
            f.write(data)
        try:
            read(path)
        except allowed:
            pass
        except Exception as e:   # what a user would see as a traceback
            kept = os.path.join(work, f"failing-{name}")
            with open(kept, "wb") as f:
                f.write(data)
            sys.exit(f"FAIL: {name} reader raised {type(e).__name__}: {e} (input kept in {kept}; seed {seed})")
        counts[name] += 1
    shutil.rmtree(work, ignore_errors=True)  # a failing input stays (the exit above)
    print("PASS: " + ", ".join(f"{n} {c}" for n, c in counts.items()))


if __name__ == "__main__":
    main()
