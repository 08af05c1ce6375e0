"""OpenQNN qnn-onnx-converter: ONNX (float32) -> converter-style model.cpp / model.bin / model_net.json."""
