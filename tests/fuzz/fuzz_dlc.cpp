// libFuzzer harness: an OpenQNN DLC from memory (qnn::dlc::DlcFile::openBuffer: preamble,
// compressed JSON header, tensors and their bounds), then every graph walked.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "dlc/dlc_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<qnn::dlc::DlcFile> file;
  if (!qnn::dlc::DlcFile::openBuffer(data, size, "<fuzz>", &file).isOk()) return 0;
  size_t bytes = 0;
  for (const auto& g : file->graphs()) {
    for (const auto& t : g.tensors)
      if (t.data && t.size) bytes += t.data[0] + t.data[t.size - 1];  // touch both ends of every static tensor
    for (const auto& n : g.nodes) bytes += n.inputs.size() + n.outputs.size() + n.params.size();
  }
  return bytes == size_t(-1);
}
