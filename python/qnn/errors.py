"""The one exception type the converter raises for user-facing errors."""


class ConverterError(Exception):
    """A conversion error; str() is the one-line message printed after 'qnn-onnx-converter: error: '."""


def run_tool(prog, run, args):
    """run(args) with every user-facing failure as one 'PROG: error: ...' line and exit status 1."""
    import sys
    try:
        return run(args)
    except ConverterError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
    except ImportError as e:
        print(f"{prog}: error: {e} (install python3-onnx and python3-numpy)", file=sys.stderr)
    except OSError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: still one line, never a traceback
        print(f"{prog}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
    return 1


def onnx_np_dtype(elem_type):
    """ONNX TensorProto element type -> numpy dtype (onnx 1.12 has only onnx.mapping)."""
    import numpy as np
    from onnx import helper
    if hasattr(helper, "tensor_dtype_to_np_dtype"):
        return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type))
    from onnx import mapping
    return np.dtype(mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])


def first_line(exc):
    """The first line of an exception's message (its type's name when it has none): what an error line
    quotes of an exception raised by a library."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
