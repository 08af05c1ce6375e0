// The C++ side of tests/python/test_safetensors.py: sdk/safetensors driven from the command line,
// so the Python module's bytes are read by the C++ reader and the C++ writer's bytes by Python.
//   safetensors_cross copy IN OUT [key=value...]  read IN, write its tensors to OUT with that metadata
//   safetensors_cross dump IN                     one line per tensor: name dtype dims... : data in hex
// A refused file: its message on stderr, exit 1.
#include <cstdio>
#include <map>
#include <string>

#include "safetensors/safetensors.h"

using qnn::sdk::SafeTensor;

int main(int argc, char** argv) {
  const std::string mode = argc > 2 ? argv[1] : "";
  if ((mode != "copy" || argc < 4) && (mode != "dump" || argc != 3)) {
    std::fprintf(stderr, "usage: safetensors_cross copy IN OUT [key=value...] | dump IN\n");
    return 2;
  }
  std::map<std::string, SafeTensor> tensors;
  qnn::sdk::Status s = qnn::sdk::readSafetensors(argv[2], &tensors);
  if (s.isOk() && mode == "copy") {
    std::map<std::string, std::string> metadata;
    for (int i = 4; i < argc; ++i) {
      const std::string kv = argv[i];
      const size_t eq = kv.find('=');
      metadata[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
    }
    s = qnn::sdk::writeSafetensors(argv[3], tensors, metadata);
  }
  if (!s.isOk()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  if (mode == "dump") {
    for (const auto& [name, t] : tensors) {
      std::printf("%s %s", name.c_str(), t.dtype.c_str());
      for (uint64_t d : t.shape) std::printf(" %llu", static_cast<unsigned long long>(d));
      std::printf(" :");
      for (uint8_t b : t.data) std::printf("%02x", b);
      std::printf("\n");
    }
  }
  return 0;
}
