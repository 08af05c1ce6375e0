"""The analysis tools (accuracy_debugger, architecture_checker, quantization_checker) and what they share."""
import os
import shutil
import sys


def sdk_bin_dir(env_var):
    """Where the SDK's other tools (qnn-net-run, qnn-model-lib-generator, ...) are: $env_var when set; else
    the directory of the running tool when they sit beside it (the build tree's and the install's bin/);
    else $QNN_SDK_ROOT/bin (bin/envsetup.sh sets it; e.g. for the console scripts of a pip install);
    else the directory of qnn-net-run on PATH ("" when there is none)."""
    given = os.environ.get(env_var)
    if given:
        return given
    here = os.path.dirname(os.path.realpath(sys.argv[0])) if sys.argv and sys.argv[0] else ""
    if here and os.path.isfile(os.path.join(here, "qnn-net-run")):
        return here
    root = os.environ.get("QNN_SDK_ROOT")
    if root:
        return os.path.join(root, "bin")
    found = shutil.which("qnn-net-run")
    return os.path.dirname(os.path.realpath(found)) if found else ""
