"""qnn-accuracy-debugger (OpenQNN): layer-level comparison of a QNN model with its framework model."""
