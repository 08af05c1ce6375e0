"""fp16 mode end to end: float ONNX models (benchmarks/models/make_models.py's MobileNetV2-,
ResNet-18-style and transformer graphs, no torch needed) converted by
qnn-onnx-converter, built by qnn-model-lib-generator, run by htp_fp16_model_check
on libQnnHtp.so with QNN_PRECISION_FLOAT16 and on libQnnCpu.so: every output
within 1e-2 of the CPU output's largest magnitude.
usage: test_fp16_models.py BUILD_DIR CHECKER GEN_MODELS_PY"""
import importlib.util
import os
import subprocess
import sys
import tempfile

SKIP = 77


def main():
    build, checker, gen = sys.argv[1:4]
    if not os.path.exists(gen):
        print(f"SKIP: {gen} not found")
        return SKIP
    try:
        import numpy as np
        spec = importlib.util.spec_from_file_location("make_models", gen)
        gm = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gm)
    except ImportError as e:
        print(f"SKIP: {e}")
        return SKIP
    conv = os.path.join(build, "bin", "qnn-onnx-converter")
    libgen = os.path.join(build, "bin", "qnn-model-lib-generator")
    failed = False
    with tempfile.TemporaryDirectory() as work:
        models = {"mobilenet_v2_helper": (1, 224, 224, 3), "resnet18_helper": (1, 224, 224, 3),
                  "transformer_l4_h256_s128": (1, 128, 256)}
        for name, shape in models.items():
            gm.write(gm.build(name), f"{work}/{name}.onnx")
            d = os.path.join(work, name)
            for cmd in ([conv, "-i", f"{work}/{name}.onnx", "-o", f"{d}/{name}.cpp"],
                        [libgen, "-c", f"{d}/{name}.cpp", "-b", f"{d}/{name}.bin", "-o", f"{d}/lib"]):
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"FAIL: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
                    return 1
            np.random.RandomState(0).randn(*shape).astype(np.float32).tofile(f"{d}/input.raw")
            p = subprocess.run([checker, f"{d}/lib/x86_64-linux-clang/lib{name}.so", f"{d}/input.raw", "1e-2"],
                               capture_output=True, text=True)
            print(f"{name}: {p.stdout.strip()} {p.stderr.strip()}")
            failed = failed or p.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
