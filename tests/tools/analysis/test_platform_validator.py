"""qnn-platform-validator on the built SDK tree: every backend of `--backend all` is found, loads and runs
its validation graph; the CSV has a row per backend; missing, damaged and non-QNN libraries and an HTP
architecture without an HTP are reported, never a crash."""
import csv
import os
import shutil
import subprocess

import pytest

BUILD = os.environ["QNN_BUILD_DIR"]
TOOL = os.path.join(BUILD, "bin", "qnn-platform-validator")


def run(cwd, *args):
    return subprocess.run([TOOL, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def rows(cwd):
    with open(os.path.join(cwd, "output", "qnn-platform-validator.csv"), newline="") as f:
        return {r["Backend"]: r for r in csv.DictReader(f)}


def test_all_backends_of_the_build_tree(tmp_path):
    p = run(tmp_path, "--backend", "all", "--testBackend", "--coreVersion", "--libVersion")
    assert p.returncode == 0, p.stderr
    r = rows(tmp_path)
    assert list(r) == ["cpu", "gpu", "htp", "saver"]
    for name in ("cpu", "htp", "saver"):
        assert r[name]["Loaded"] == "Yes" and r[name]["Test Backend"] == "Passed", r[name]
        assert r[name]["Core API Version"].startswith("2."), r[name]
        assert r[name]["Build Id"], r[name]
    assert r["gpu"]["Loaded"] == "No" and "libQnnGpu.so not found" in r["gpu"]["Message"]
    assert "HTP V73" in r["htp"]["Device"]
    assert "core API version: 2." in p.stdout and "build id:" in p.stdout
    # The Saver recorded the validation graph under ./output, not the working directory.
    assert os.path.isdir(tmp_path / "output" / "saver_output")
    assert sorted(os.listdir(tmp_path)) == ["output"]


def test_dsp_is_the_htp_and_dsp_type_picks_the_architecture(tmp_path):
    p = run(tmp_path, "--backend", "dsp", "--dsp_type", "v68", "--testBackend")
    assert p.returncode == 0, p.stderr
    assert "created for V68" in rows(tmp_path)["htp"]["Device"]
    p = run(tmp_path, "--backend", "dsp", "--dsp_type", "v66", "--testBackend")
    assert p.returncode == 1
    htp = rows(tmp_path)["htp"]
    assert htp["Loaded"] == "No" and htp["Test Backend"] == "Failed"
    assert "architecture 66" in htp["Message"]


def test_missing_and_damaged_libraries(tmp_path):
    sdk = tmp_path / "sdk" / "lib" / "x86_64-linux-clang"
    sdk.mkdir(parents=True)
    (sdk / "libQnnHtp.so").write_bytes(b"\x7fELF truncated")
    shutil.copy("/bin/true", sdk / "libQnnSaver.so")   # an ELF file, not a shared library
    libz = next((p for p in ("/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1")
                 if os.path.exists(p)), None)
    if libz:
        shutil.copy(libz, sdk / "libQnnCpu.so")   # a shared library without QnnInterface_getProviders
    p = run(tmp_path, "--backend", "all", "--directory", str(tmp_path / "sdk"), "--testBackend")
    assert p.returncode == 1
    r = rows(tmp_path)
    assert r["htp"]["Loaded"] == "No" and "cannot load backend" in r["htp"]["Message"]
    assert r["saver"]["Loaded"] == "No"
    if libz:
        assert "not a QNN backend" in r["cpu"]["Message"]
    # A backend named on its own must be present.
    assert run(tmp_path, "--backend", "gpu").returncode == 1


@pytest.mark.parametrize("args, message", [
    ([], "--backend is required"),
    (["--backend", "npu"], "--backend must be"),
    (["--backend", "cpu", "--dsp_type", "x"], "--dsp_type must be"),
    (["--backend", "cpu", "--directory", "/nonexistent"], "is not a directory"),
    (["--backend", "cpu", "--buildVariant", "aarch64-android"], "only x86_64-linux-clang"),
])
def test_usage_errors(tmp_path, args, message):
    p = run(tmp_path, *args)
    assert p.returncode == 1 and message in p.stderr and "Traceback" not in p.stderr
