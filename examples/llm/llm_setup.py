"""What the checks of examples/llm have in common: whether the machine can train the example (python3-torch,
python3-onnx, the corpus), training it into an output directory (or reusing the cache there), and loading the
trained model into PyTorch as the reference."""
import importlib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77  # ctest's SKIP_RETURN_CODE of the llm tests


def missing():
    """Why the example cannot run here (a sentence), or None."""
    for module in ("numpy", "onnx", "torch"):  # onnx: the converter needs it
        try:
            importlib.import_module(module)
        except ImportError as e:
            return str(e)
    if not os.path.isdir("/usr/share/common-licenses"):
        return "no /usr/share/common-licenses (package base-files)"
    return None


def train(out, tiny=False, seconds=None):
    """train_llm.py into `out` (returns at once when `out` holds a model of this configuration)."""
    extra = (["--tiny"] if tiny else []) + ([] if seconds is None else ["--seconds", str(seconds)])
    subprocess.run([sys.executable, os.path.join(HERE, "train_llm.py"), "--out", out, *extra], check=True)


def load(out):
    """(train_llm module, the trained Llama in eval mode, its config)."""
    import torch
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    import train_llm
    saved = torch.load(os.path.join(out, "model.pt"))
    model = train_llm.Llama(saved["config"])
    model.load_state_dict(saved["state"])
    return train_llm, model.eval(), saved["config"]
