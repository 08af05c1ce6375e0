// Fixture: a backend library loaded through dlopen (libQnnCpu.so for
// CpuContextTest), one backend and one context in it, freed after the test. For
// tests that build and run graphs in that context.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {

template <class Base>
class ContextFixture : public Base {
 protected:
  explicit ContextFixture(const std::string& path) : lib(path) {}
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  }
  void TearDown() override {
    if (ctx) {
      EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    }
    if (backend) {
      EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
    }
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // Graph building for the tests: one tensor, one node of the built-in package.
  void add(Qnn_GraphHandle_t g, TensorSpec& t) { ASSERT_EQ(api().tensorCreateGraphTensor(g, &t.tensor), QNN_SUCCESS); }
  void node(Qnn_GraphHandle_t g, const char* name, const char* type, std::vector<Qnn_Param_t> params,
            std::vector<Qnn_Tensor_t> ins, std::vector<Qnn_Tensor_t> outs) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, uint32_t(params.size()), params.data(), uint32_t(ins.size()), ins.data(),
             uint32_t(outs.size()), outs.data()};
    ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << name;
  }

  LoadedBackend lib;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
};

class CpuContextTest : public ContextFixture<::testing::Test> {
 protected:
  CpuContextTest() : ContextFixture(cpuBackendPath()) {}
};

}  // namespace qnn::test
