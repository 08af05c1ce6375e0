// Runs one conformance case directly on a backend's kernel (init -> prepare ->
// execute, no C API), for the kernel runners of every backend. Static inputs
// carry data at prepare, dynamic ones only at execute, as in a graph.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/conformance/compare.h"
#include "tests/conformance/op_case.h"

namespace qnn::conformance {

// factory: the backend's KernelFactory for c.opType (null fails the test).
// Executes `runs` times, comparing every output each time with (atol, rtol).
template <typename KernelFactory>
void runCaseOnKernel(const OpCase& c, KernelFactory factory, double atol, double rtol, int runs = 1) {
  ASSERT_NE(factory, nullptr) << "no kernel for " << c.opType;
  auto kernel = factory(c.opType);
  ASSERT_NE(kernel, nullptr);
  sdk::OpParams params;
  for (auto& [name, value] : c.params) params.set(name, value);
  auto st = kernel->init(params);
  ASSERT_TRUE(st.isOk()) << st.message();

  std::vector<sdk::TensorView> inDesc, outDesc, in, out;
  std::vector<std::vector<uint8_t>> outBufs;
  for (auto& t : c.inputs) {
    sdk::TensorView v{nullptr, t.dtype, t.dims, t.quant};
    if (t.isStatic) v.data = const_cast<uint8_t*>(t.bytes.data());
    inDesc.push_back(v);
    if (!t.isNull) v.data = const_cast<uint8_t*>(t.bytes.data());
    in.push_back(v);
  }
  for (auto& t : c.expected) {
    outDesc.push_back(sdk::TensorView{nullptr, t.dtype, t.dims, t.quant});
    outBufs.emplace_back(t.bytes.size(), 0xCD);
  }
  for (size_t i = 0; i < c.expected.size(); ++i) {
    sdk::TensorView v = outDesc[i];
    v.data = outBufs[i].data();
    out.push_back(v);
  }
  st = kernel->prepare(inDesc, outDesc);
  ASSERT_TRUE(st.isOk()) << st.message();
  for (int run = 0; run < runs; ++run) {
    st = kernel->execute(in, out);
    ASSERT_TRUE(st.isOk()) << st.message();
    for (size_t i = 0; i < c.expected.size(); ++i) {
      std::string err = compareOutput(c.expected[i], outBufs[i].data(), outBufs[i].size(), atol, rtol);
      EXPECT_EQ(err, "") << "output " << i << ", run " << run;
    }
  }
}

}  // namespace qnn::conformance
