"""qnn-pytorch-converter: a TorchScript (or pickled) module exported to ONNX, converted by qnn.converters.onnx."""
