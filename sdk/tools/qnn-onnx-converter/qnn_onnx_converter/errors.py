"""The one exception type the converter raises for user-facing errors."""


class ConverterError(Exception):
    """A conversion error; str() is the one-line message printed after 'qnn-onnx-converter: error: '."""


def onnx_np_dtype(elem_type):
    """ONNX TensorProto element type -> numpy dtype (onnx 1.12 has only onnx.mapping)."""
    import numpy as np
    from onnx import helper
    if hasattr(helper, "tensor_dtype_to_np_dtype"):
        return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type))
    from onnx import mapping
    return np.dtype(mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])
