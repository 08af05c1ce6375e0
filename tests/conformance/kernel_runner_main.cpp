// Runs every conformance case directly on the CPU kernels (no C API): the
// fastest loop while writing a kernel. tests/api runs the same cases through the
// QNN C API on every backend.
#include <gtest/gtest.h>

#include "tests/conformance/kernel_case_runner.h"
#include "cpu/kernels/kernel.h"

namespace qnn::conformance {
namespace {

class KernelCaseTest : public ::testing::Test {
 public:
  explicit KernelCaseTest(OpCase c) : case_(std::move(c)) {}
  void TestBody() override { runCaseOnKernel(case_, cpu::findKernel(case_.opType), case_.atol, case_.rtol); }

 private:
  OpCase case_;
};

}  // namespace
}  // namespace qnn::conformance

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (auto& c : qnn::conformance::allCases()) {
    std::string name = c.name;
    std::string suite = "Kernel_" + c.opType;
    ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [c]() -> ::testing::Test* { return new qnn::conformance::KernelCaseTest(c); });
  }
  return RUN_ALL_TESTS();
}
