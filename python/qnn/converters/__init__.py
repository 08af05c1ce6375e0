"""Converters: one subpackage per framework front end (onnx; tflite and pytorch through onnx), qairt
(ONNX -> DLC), and what they share: the model.cpp / model.bin / model_net.json writers (emit_*), the
model_net.json reader and the fp16 pass. The converted graph itself is qnn.ir."""
