"""What the checks of examples/llm have in common: whether the machine can train the example (python3-torch,
python3-onnx, the corpus), training it into an output directory (or reusing the cache there), and loading the
trained model into PyTorch as the reference."""
import argparse
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


def check_arguments(steps_help="tokens to generate"):
    """The arguments the runner checks share: BUILD_DIR OUT_DIR [--tiny] [--seconds S] [--steps K]."""
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--steps", type=int, default=8, help=steps_help)
    return ap


def prepare_check(backends):
    """A runner check's start: its arguments (check_arguments() plus --backends, default `backends`), the
    skip (exit SKIP) when the machine cannot train, then the model trained or reused. Returns (arguments,
    train_llm module, model, config)."""
    ap = check_arguments()
    ap.add_argument("--backends", default=backends)
    a = ap.parse_args()
    why = missing()
    if why:
        print(f"SKIP: {why}")
        sys.exit(SKIP)
    train(a.out, a.tiny, a.seconds)
    return (a, *load(a.out))


def versus_torch(model, prompt_ids, got, tolerance):
    """How a runner's tokens `got` after `prompt_ids` compare with PyTorch's argmax over the sequence so far
    (plain causal pass, no cache). Returns (steps agreeing, near ties, errors): a different token is a near tie
    when PyTorch's logit of it is within `tolerance` of the best, else an error (tolerance None: no errors,
    the agreement is only counted)."""
    import torch
    with torch.no_grad():  # the last token's own logits are not needed (it may end a full context)
        logits = model(torch.tensor([list(prompt_ids) + list(got[:-1])]))[0].numpy()
    agree, ties, errors = 0, [], []
    for j, t in enumerate(got):
        row = logits[len(prompt_ids) - 1 + j]
        best = int(row.argmax())
        agree += t == best
        if t != best and tolerance is not None:
            if row[best] - row[t] <= tolerance:
                ties.append(f"step {j}: {t} instead of {best}, logits {row[best] - row[t]:.1e} apart")
            else:
                errors.append(f"step {j} chose {t}; PyTorch's argmax is {best} by {row[best] - row[t]:.3g}")
    return agree, ties, errors


def report(failures):
    """Prints the failures (or PASS); the check's exit code."""
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print("PASS")
    return 0
