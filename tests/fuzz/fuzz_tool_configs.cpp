// libFuzzer harness: the files the tools read besides models and binaries. The first byte picks the
// reader, the rest is the file: qnn-net-run's --config_file (context/graph configs, backend extensions),
// the HTP backend extension config, qnn-throughput-net-run's JSON config, an input list, a LoRA adapter
// config and its encodings, a safetensors file, and the tensor record beside a cached context binary.
// Every reader must refuse bad input by throwing (tools turn that into one error line), never crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "tools/common/adapter_config.h"
#include "tools/common/adapter_encodings.h"
#include "tools/common/graph_spec.h"
#include "tools/extensions/htp/htp_extension_config.h"
#include "tools/common/input_list.h"
#include "tools/common/run_config.h"
#include "safetensors/safetensors.h"
#include "tools/qnn-throughput-net-run/throughput_config.h"

namespace {

// The readers take paths: one scratch file per process, rewritten for each input, removed at exit.
std::string gScratch;
void removeScratch() { unlink(gScratch.c_str()); }

const std::string& scratch() {
  if (gScratch.empty()) {
    char name[] = "/tmp/fuzz_tool_configs_XXXXXX";
    const int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    gScratch = name;
    std::atexit(removeScratch);
  }
  return gScratch;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  FILE* f = std::fopen(scratch().c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data + 1, 1, size - 1, f);
  std::fclose(f);
  const std::string& path = scratch();
  try {
    switch (data[0] % 8) {
      case 0: (void)qnn::tools::readRunConfig(path); break;
      case 1: (void)qnn::htpext::readExtensionConfig(path); break;
      case 2: (void)qnn::tools::throughput::readThroughputConfig(path); break;
      case 3: (void)qnn::tools::readInputList(path); break;
      case 4: (void)qnn::tools::readAdapterConfig(path); break;
      case 5: (void)qnn::tools::readAdapterEncodings(path); break;
      case 6: {
        std::map<std::string, qnn::sdk::SafeTensor> tensors;
        (void)qnn::sdk::readSafetensors(path, &tensors);
        break;
      }
      default: (void)qnn::tools::readTensorRecord(path); break;
    }
  } catch (const std::exception&) {
    // refused: what the tools report as one error line
  }
  return 0;
}
