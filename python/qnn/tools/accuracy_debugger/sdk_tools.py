"""The SDK's own tools and libraries, found beside this tool (build tree or install), and the one
way the debugger runs them: a failure becomes a DebuggerError with the tool's last error lines."""
import datetime
import os
import subprocess

from .. import sdk_bin_dir
from .errors import DebuggerError

# <root>/bin/qnn-accuracy-debugger -> <root> (QNN_ACCURACY_DEBUGGER_BIN overrides).
BIN_DIR = sdk_bin_dir("QNN_ACCURACY_DEBUGGER_BIN")


def sdk_root():
    return os.path.dirname(BIN_DIR.rstrip("/")) if BIN_DIR else os.environ.get("QNN_SDK_ROOT", "")


def tool(name):
    path = os.path.join(BIN_DIR, name)
    if not os.path.isfile(path):
        raise DebuggerError(f"{name} not found beside qnn-accuracy-debugger ({BIN_DIR})")
    return path


def library(name):
    """A libQnn*.so of the SDK (vendor layout lib/x86_64-linux-clang, then lib/)."""
    root = sdk_root()
    for sub in ("lib/x86_64-linux-clang", "lib"):
        p = os.path.join(root, sub, name)
        if os.path.isfile(p):
            return p
    raise DebuggerError(f"{name} not found under {root}/lib/x86_64-linux-clang or {root}/lib")


BACKENDS = {"cpu": "libQnnCpu.so", "htp": "libQnnHtp.so", "dsp": "libQnnHtp.so", "dspv68": "libQnnHtp.so",
            "dspv69": "libQnnHtp.so", "dspv73": "libQnnHtp.so", "dspv75": "libQnnHtp.so",
            "dspv79": "libQnnHtp.so"}


def run(cmd, what, log=None, cwd=None):
    """Runs cmd (a list); its output goes to log (a path) when given. Raises DebuggerError on failure."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    except OSError as e:
        raise DebuggerError(f"{what}: cannot run {cmd[0]}: {e}")
    if log:
        with open(log, "a") as f:
            f.write("$ " + " ".join(cmd) + "\n" + p.stdout + p.stderr)
    if p.returncode != 0:
        lines = [ln for ln in (p.stderr or p.stdout).strip().splitlines() if ln.strip()]
        raise DebuggerError(f"{what} failed: " + (" | ".join(lines[-3:]) if lines else f"exit code {p.returncode}"))
    return p


def stage_dir(working_dir, stage, dirname=None):
    """working_dir/<stage>/<dirname or timestamp>, with working_dir/<stage>/latest pointing at it."""
    base = os.path.join(working_dir, stage)
    name = dirname or datetime.datetime.now().strftime("%Y-%m-%d_%H-%M-%S-%f")
    out = os.path.join(base, name)
    try:
        os.makedirs(out, exist_ok=True)
        latest = os.path.join(base, "latest")
        if os.path.islink(latest) or os.path.exists(latest):
            os.remove(latest)
        os.symlink(name, latest)
    except OSError as e:
        raise DebuggerError(f"cannot create {out}: {e}")
    return os.path.abspath(out)
