// Runs every conformance case directly on the CPU kernels (no C API): the
// fastest loop while writing a kernel. tests/api runs the same cases through the
// QNN C API on every backend.
#include <gtest/gtest.h>

#include "compare.h"
#include "kernels/kernel.h"
#include "op_case.h"

namespace qnn::conformance {
namespace {

class KernelCaseTest : public ::testing::Test {
 public:
  explicit KernelCaseTest(OpCase c) : case_(std::move(c)) {}
  void TestBody() override {
    auto factory = cpu::findKernel(case_.opType);
    ASSERT_NE(factory, nullptr) << "no CPU kernel for " << case_.opType;
    auto kernel = factory(case_.opType);
    ASSERT_NE(kernel, nullptr);
    sdk::OpParams params;
    for (auto& [name, value] : case_.params) params.set(name, value);
    auto st = kernel->init(params);
    ASSERT_TRUE(st.isOk()) << st.message();

    std::vector<TensorViewStorage> unused;
    std::vector<sdk::TensorView> inDesc, outDesc, in, out;
    std::vector<std::vector<uint8_t>> outBufs;
    for (auto& t : case_.inputs) {
      sdk::TensorView v{nullptr, t.dtype, t.dims, t.quant};
      if (t.isStatic) v.data = const_cast<uint8_t*>(t.bytes.data());
      inDesc.push_back(v);
      v.data = const_cast<uint8_t*>(t.bytes.data());
      in.push_back(v);
    }
    for (auto& t : case_.expected) {
      outDesc.push_back(sdk::TensorView{nullptr, t.dtype, t.dims, t.quant});
      outBufs.emplace_back(t.bytes.size(), 0xCD);
    }
    for (size_t i = 0; i < case_.expected.size(); ++i) {
      sdk::TensorView v = outDesc[i];
      v.data = outBufs[i].data();
      out.push_back(v);
    }
    st = kernel->prepare(inDesc, outDesc);
    ASSERT_TRUE(st.isOk()) << st.message();
    st = kernel->execute(in, out);
    ASSERT_TRUE(st.isOk()) << st.message();
    for (size_t i = 0; i < case_.expected.size(); ++i) {
      std::string err = compareOutput(case_.expected[i], outBufs[i].data(), outBufs[i].size(), case_.atol, case_.rtol);
      EXPECT_EQ(err, "") << "output " << i;
    }
  }

 private:
  struct TensorViewStorage {};
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
