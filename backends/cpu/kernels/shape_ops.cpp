// Stub: the kernels of this family are not written yet.
#include "kernels/kernel_factories.h"
namespace qnn::cpu {
std::unique_ptr<Kernel> makeReshapeLike(const std::string&) { return nullptr; }
std::unique_ptr<Kernel> makeTranspose(const std::string&) { return nullptr; }
std::unique_ptr<Kernel> makeTile(const std::string&) { return nullptr; }
}  // namespace qnn::cpu
