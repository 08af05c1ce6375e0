// Fixture: libQnnCpu.so loaded through dlopen, one backend and one context in
// it, freed after the test. For tests that build and run graphs in that context.
#pragma once

#include <gtest/gtest.h>

#include "backend_loader.h"

namespace qnn::test {

class CpuContextTest : public ::testing::Test {
 protected:
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

  LoadedBackend lib{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
};

}  // namespace qnn::test
