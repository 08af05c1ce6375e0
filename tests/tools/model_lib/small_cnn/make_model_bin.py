#!/usr/bin/env python3
# Writes the small_cnn test data, deterministically (same bytes on every run):
#   make_model_bin.py MODEL_BIN [INPUT_DIR]
# MODEL_BIN: a tar (ustar, mtime 0) of the raw float32 weight files conv1_weight.raw,
#   conv1_bias.raw, fc1_weight.raw, fc1_bias.raw, as a converter's model.bin holds them.
# INPUT_DIR (optional): input.raw, residual.raw and input_list.txt for qnn-net-run.
# The value formulas are in README.md; tests recompute them independently (reference.h).
import io
import os
import struct
import sys
import tarfile

# name: (element count, seed); element i = (((i*37 + seed*11) % 23) - 11) / 32
WEIGHTS = {
    "conv1_weight": (3 * 3 * 3 * 4, 1),
    "conv1_bias": (4, 2),
    "fc1_weight": (10 * 64, 3),
    "fc1_bias": (10, 4),
}


def weight_values(count, seed):
    return [(((i * 37 + seed * 11) % 23) - 11) / 32.0 for i in range(count)]


def input_values():
    return [(((i * 13 + 5) % 17) - 8) / 16.0 for i in range(1 * 8 * 8 * 3)]


def residual_values():
    return [(((i * 7 + 3) % 11) - 5) / 8.0 for i in range(1 * 4 * 4 * 4)]


def f32(values):
    return struct.pack("<%df" % len(values), *values)


def write_model_bin(path):
    tmp = path + ".tmp"
    with tarfile.open(tmp, "w", format=tarfile.USTAR_FORMAT) as tar:
        for name, (count, seed) in WEIGHTS.items():
            data = f32(weight_values(count, seed))
            info = tarfile.TarInfo(name + ".raw")
            info.size = len(data)
            info.mtime = 0
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    os.replace(tmp, path)


def write_inputs(directory):
    os.makedirs(directory, exist_ok=True)
    for name, values in (("input", input_values()), ("residual", residual_values())):
        with open(os.path.join(directory, name + ".raw"), "wb") as f:
            f.write(f32(values))
    with open(os.path.join(directory, "input_list.txt"), "w") as f:
        f.write("input:=%s residual:=%s\n" % (os.path.join(directory, "input.raw"),
                                              os.path.join(directory, "residual.raw")))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: make_model_bin.py MODEL_BIN [INPUT_DIR]")
    write_model_bin(sys.argv[1])
    if len(sys.argv) == 3:
        write_inputs(sys.argv[2])
