// Memory exhaustion under a capped address space (RLIMIT_AS), in a child process (its own
// executable, so no backend with running threads exists before the fork): a static tensor
// whose copy cannot be allocated, and a graph whose activations cannot be, are refused with
// QNN_COMMON_ERROR_MEM_ALLOC (never a crash or an abort), and the same backend and context keep
// working for a graph that fits. Not under AddressSanitizer (its shadow memory needs the address
// space the limit takes away).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"
#include "tests/api/relu_chain.h"

#if defined(__SANITIZE_ADDRESS__)
#define QNN_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define QNN_TEST_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define QNN_TEST_UNDER_ASAN 1
#endif

namespace qnn::test {
namespace {

size_t virtualBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  statm >> pages;
  return pages * size_t(sysconf(_SC_PAGESIZE));
}

// Runs in the child; returns the exit status (0: every expectation held), printing what failed.
[[maybe_unused]] int limitedScenario() {  // unused where the sanitizers skip the test
  LoadedBackend lib(cpuBackendPath());
  if (!lib.ok()) return 10;
  const auto& api = lib.api();
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  if (api.backendCreate(nullptr, nullptr, &backend) != QNN_SUCCESS) return 11;
  if (api.contextCreate(backend, nullptr, nullptr, &ctx) != QNN_SUCCESS) return 12;
  {
    ReluChain warm(api, ctx, "warm", 1024, 2);  // the backend's threads and pools exist before the cap
    if (warm.execute() != QNN_SUCCESS) return 13;
  }
  // The client's buffers, allocated before the cap (reserved, hardly touched): a 768 MiB static
  // tensor and 512 MiB activations in and out.
  const uint32_t n = 192u << 20, m = 1u << 27;  // floats
  float* data = static_cast<float*>(std::malloc(size_t(n) * 4));
  float* x = static_cast<float*>(std::malloc(size_t(m) * 4));
  float* y = static_cast<float*>(std::malloc(size_t(m) * 4));
  if (!data || !x || !y) return 14;
  x[0] = -1.f, x[1] = 2.f, y[0] = y[1] = 9.f;
  // Then an address space with room for 256 MiB more: no copy of those fits.
  rlimit limit{};
  getrlimit(RLIMIT_AS, &limit);
  limit.rlim_cur = virtualBytes() + (256u << 20);
  if (setrlimit(RLIMIT_AS, &limit) != 0) return 15;
  int failures = 0;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) {
      std::fprintf(stderr, "memory_limit: %s\n", what.c_str());
      ++failures;
    }
  };
  Qnn_GraphHandle_t g = nullptr;
  expect(api.graphCreate(ctx, "huge", nullptr, &g) == QNN_SUCCESS, "graphCreate");
  TensorSpec w("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, n}, data, n * 4u);
  const Qnn_ErrorHandle_t rc = api.tensorCreateGraphTensor(g, &w.tensor);
  expect(rc == QNN_COMMON_ERROR_MEM_ALLOC, "static tensor beyond the limit: error " + std::to_string(rc));
  // in -> Relu -> mid -> Relu -> out over 2^27 floats: the backend's 512 MiB intermediate cannot exist.
  Qnn_GraphHandle_t g2 = nullptr;
  expect(api.graphCreate(ctx, "wide", nullptr, &g2) == QNN_SUCCESS, "graphCreate wide");
  TensorSpec in("in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, m});
  TensorSpec mid("mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, m});
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, m});
  expect(api.tensorCreateGraphTensor(g2, &in.tensor) == QNN_SUCCESS, "in");
  expect(api.tensorCreateGraphTensor(g2, &mid.tensor) == QNN_SUCCESS, "mid");
  expect(api.tensorCreateGraphTensor(g2, &out.tensor) == QNN_SUCCESS, "out");
  Qnn_OpConfig_t r1 = QNN_OPCONFIG_INIT, r2 = QNN_OPCONFIG_INIT;
  r1.v1 = {"r1", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &mid.tensor};
  r2.v1 = {"r2", "qti.aisw", "Relu", 0, nullptr, 1, &mid.tensor, 1, &out.tensor};
  expect(api.graphAddNode(g2, r1) == QNN_SUCCESS && api.graphAddNode(g2, r2) == QNN_SUCCESS, "addNode");
  const Qnn_ErrorHandle_t fin = api.graphFinalize(g2, nullptr, nullptr);
  if (fin == QNN_SUCCESS) {  // the intermediate is allocated at the first execute
    in.tensor.v1.clientBuf = {x, m * 4u};
    out.tensor.v1.clientBuf = {y, m * 4u};
    const Qnn_ErrorHandle_t ex = api.graphExecute(g2, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr);
    expect(ex == QNN_COMMON_ERROR_MEM_ALLOC || ex == QNN_GRAPH_ERROR_MEM_ALLOC,
           "execute beyond the limit: error " + std::to_string(ex));
    expect(y[0] == 9.f && y[1] == 9.f, "the output was written by a failed execute");
  } else {
    expect(fin == QNN_COMMON_ERROR_MEM_ALLOC || fin == QNN_GRAPH_ERROR_MEM_ALLOC,
           "finalize beyond the limit: error " + std::to_string(fin));
  }
  // The same context still works for what fits.
  {
    ReluChain after(api, ctx, "after", 4096, 3);
    expect(after.execute() == QNN_SUCCESS && after.outputCorrect(), "a small graph after the failures");
  }
  expect(api.contextFree(ctx, nullptr) == QNN_SUCCESS, "contextFree");
  expect(api.backendFree(backend) == QNN_SUCCESS, "backendFree");
  std::free(data);
  std::free(x);
  std::free(y);
  return failures ? 20 + failures : 0;
}

TEST(MemoryLimit, AllocationFailuresAreErrorsAndTheBackendKeepsWorking) {
#ifdef QNN_TEST_UNDER_ASAN
  GTEST_SKIP() << "sanitizer builds need the address space RLIMIT_AS takes away";
#else
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    _exit(limitedScenario());
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
#endif
}

}  // namespace
}  // namespace qnn::test
