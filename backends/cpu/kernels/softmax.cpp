// Stub: the kernels of this family are not written yet.
#include "kernels/kernel_factories.h"
namespace qnn::cpu {
std::unique_ptr<Kernel> makeSoftmax(const std::string&) { return nullptr; }
}  // namespace qnn::cpu
