// libFuzzer harness: an op-package XML config (what qnn-op-package-generator and op-package
// registration read) through the parser and its checks.
#include <cstddef>
#include <cstdint>
#include <string>

#include "oppackage/op_package_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)qnn::oppackage::parseOpPackageConfigText(std::string(reinterpret_cast<const char*>(data), size), "<fuzz>");
  } catch (const qnn::oppackage::OpPackageConfigError&) {
  }
  return 0;
}
