"""qnn-tflite-converter: a TFLite flatbuffer read (reader), written as ONNX (to_onnx), converted by qnn.converters.onnx."""
