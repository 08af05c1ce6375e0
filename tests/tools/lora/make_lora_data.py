#!/usr/bin/env python3
# Writes the LoRA test data, deterministically: make_lora_data.py OUT_DIR
#   model.bin          tar of W.raw, lora_A.raw, lora_B.raw (float32), as a converter's model.bin
#   adapter_one.safetensors   lora_A and lora_B as F32
#   adapter_two.safetensors   lora_A only, as F16 (lora_B keeps the base values)
#   adapters.yaml      the use cases one and two (graph "lora")
#   model_q.bin        tar of lora_Q.raw: 16 uint8 (scale 1/16, offset -128: q = 128 + 16*v)
#   adapter_q.safetensors     lora_Q as F32, seed 7, with adapter_q_encodings.json
#                      (AIMET: 8-bit, min -1, max 1.5); adapters_q.yaml its use case "q"
# Values: element i of a tensor with seed s is (((i*29 + s*7) % 19) - 9) / 16; seeds
# W 1, lora_A 2, lora_B 3 (base), one: lora_A 4, lora_B 5; two: lora_A 6. The tests
# recompute them (test_lora_adapters.cpp), F16 values being exact in half precision.
import importlib.util
import io
import json
import os
import struct
import sys
import tarfile


def _load_safetensors():
    """python/qnn/safetensors.py by its path: standard library only, so the build needs no numpy for it
    (importing the qnn package would load numpy)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python", "qnn",
                        "safetensors.py")
    spec = importlib.util.spec_from_file_location("qnn_safetensors", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SAFETENSORS = _load_safetensors()


def values(count, seed):
    return [(((i * 29 + seed * 7) % 19) - 9) / 16.0 for i in range(count)]


def f32(v):
    return struct.pack("<%df" % len(v), *v)


def f16(v):
    return struct.pack("<%de" % len(v), *v)


def safetensors(path, tensors):
    _SAFETENSORS.write(path, {name: _SAFETENSORS.Tensor(*t) for name, t in tensors.items()}, {"format": "pt"})


def main(out):
    os.makedirs(out, exist_ok=True)
    with tarfile.open(os.path.join(out, "model.bin"), "w", format=tarfile.USTAR_FORMAT) as tar:
        for name, count, seed in (("W", 16, 1), ("lora_A", 8, 2), ("lora_B", 8, 3)):
            raw = f32(values(count, seed))
            info = tarfile.TarInfo(name + ".raw")
            info.size, info.mtime, info.mode = len(raw), 0, 0o644
            tar.addfile(info, io.BytesIO(raw))
    safetensors(os.path.join(out, "adapter_one.safetensors"),
                {"lora_A": ("F32", [4, 2], f32(values(8, 4))), "lora_B": ("F32", [2, 4], f32(values(8, 5)))})
    safetensors(os.path.join(out, "adapter_two.safetensors"), {"lora_A": ("F16", [4, 2], f16(values(8, 6)))})
    with tarfile.open(os.path.join(out, "model_q.bin"), "w", format=tarfile.USTAR_FORMAT) as tar:
        raw = bytes(128 + int(16 * v) for v in values(16, 8))
        info = tarfile.TarInfo("lora_Q.raw")
        info.size, info.mtime, info.mode = len(raw), 0, 0o644
        tar.addfile(info, io.BytesIO(raw))
    safetensors(os.path.join(out, "adapter_q.safetensors"), {"lora_Q": ("F32", [4, 4], f32(values(16, 7)))})
    with open(os.path.join(out, "adapter_q_encodings.json"), "w") as f:
        json.dump({"activation_encodings": {},
                   "param_encodings": {"lora_Q": [{"bitwidth": 8, "dtype": "int", "is_symmetric": "False",
                                                   "min": -1.0, "max": 1.5}]},
                   "version": "0.6.1"}, f)
    with open(os.path.join(out, "adapters_q.yaml"), "w") as f:
        f.write("use_case:\n"
                "  - name: q\n    graph: lora_q\n    weights: adapter_q.safetensors\n"
                "    encodings: adapter_q_encodings.json\n")
    with open(os.path.join(out, "adapters.yaml"), "w") as f:
        f.write("use_case:\n"
                "  - name: one\n    graph: lora\n    weights: adapter_one.safetensors\n"
                "  - name: two\n    graph: lora\n    weights: adapter_two.safetensors\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_lora_data.py OUT_DIR")
    main(sys.argv[1])
