// Runs every fixed-point conformance case (tests/conformance, expected outputs
// from the independent integer reference) directly on the HTP simulator's
// integer kernels, bit-exact. ctest runs it twice: with the VNNI code where the
// CPU has it, and with QNN_HTP_PORTABLE_KERNELS=1 (portable loops only).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "htp_sim/kernels/htp_kernel.h"
#include "tests/conformance/kernel_case_runner.h"

namespace qnn::conformance {
namespace {

class HtpKernelCaseTest : public ::testing::Test {
 public:
  explicit HtpKernelCaseTest(OpCase c) : case_(std::move(c)) {}
  void TestBody() override {
    // A case whose expected output is one repeated value (e.g. all saturated) proves little.
    for (auto& t : case_.expected) {
      const size_t size = sdk::dtypeSize(t.dtype), n = t.numElements();
      std::set<std::string> distinct;
      for (size_t i = 0; i < n; ++i) distinct.insert(std::string(reinterpret_cast<const char*>(&t.bytes[i * size]), size));
      if (n >= 8) {
        ASSERT_GE(distinct.size(), 2u) << "degenerate expected output";
      }
    }
    // Exact, and twice: a second execute must not depend on state left by the first.
    runCaseOnKernel(case_, htp::findKernel(case_.opType), 0, 0, 2);
  }

 private:
  OpCase case_;
};

}  // namespace
}  // namespace qnn::conformance

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (auto& c : qnn::conformance::allFixedPointCases()) {
    std::string suite = "HtpKernel_" + c.opType;
    ::testing::RegisterTest(suite.c_str(), c.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [c]() -> ::testing::Test* { return new qnn::conformance::HtpKernelCaseTest(c); });
  }
  return RUN_ALL_TESTS();
}
