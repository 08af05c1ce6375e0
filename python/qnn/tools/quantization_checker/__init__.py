"""qnn-quantization-checker (OpenQNN): every quantization option of the converter against float."""
