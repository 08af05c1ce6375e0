// A shared library that is not a model library (no QnnModel_* entry points).
extern "C" __attribute__((visibility("default"))) int notAModel() { return 0; }
