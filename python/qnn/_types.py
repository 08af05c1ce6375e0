"""What every module of the binding shares: the error type and the QNN datatypes' numpy dtypes and names."""
import numpy as np

# Qnn_DataType_t -> numpy dtype of the values a client buffer holds.
DTYPES = {
    8: np.int8, 22: np.int16, 50: np.int32, 100: np.int64, 264: np.uint8, 278: np.uint16, 306: np.uint32,
    356: np.uint64, 534: np.float16, 562: np.float32, 612: np.float64, 776: np.int8, 790: np.int16,
    818: np.int32, 1032: np.uint8, 1046: np.uint16, 1074: np.uint32, 1288: np.bool_,
}
DTYPE_NAMES = {
    8: "INT_8", 22: "INT_16", 50: "INT_32", 100: "INT_64", 264: "UINT_8", 278: "UINT_16", 306: "UINT_32",
    356: "UINT_64", 534: "FLOAT_16", 562: "FLOAT_32", 612: "FLOAT_64", 776: "SFIXED_POINT_8",
    790: "SFIXED_POINT_16", 818: "SFIXED_POINT_32", 1032: "UFIXED_POINT_8", 1046: "UFIXED_POINT_16",
    1074: "UFIXED_POINT_32", 1288: "BOOL_8",
}


class QnnError(RuntimeError):
    """A QNN call failed: .code is its Qnn_ErrorHandle_t, the message names the call (and the backend's text)."""

    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code
