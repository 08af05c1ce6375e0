// The Saver loaded in this process, recording from several threads at once:
// every call lands in the trace as one intact record, in a consistent order
// (each free follows the create of its handle), and misuse is still refused.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "QnnInterface.h"
#include "Saver/QnnSaver.h"
#include "Saver/QnnSaverCommon.h"
#include "trace/trace_reader.h"

namespace fs = std::filesystem;

namespace {

TEST(SaverInProcess, ConcurrentCallsAreRecordedIntactAndHandlesValidated) {
  fs::path dir = fs::temp_directory_path() / ("qnn_saver_threads_" + std::to_string(getpid()));
  fs::remove_all(dir);
  unsetenv("QNN_SAVER_BACKEND");
  void* lib = dlopen(QNN_TEST_SAVER_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
  auto init = reinterpret_cast<Init>(dlsym(lib, "QnnSaver_initialize"));
  auto get = reinterpret_cast<GetProviders>(dlsym(lib, "QnnInterface_getProviders"));
  ASSERT_TRUE(init && get);
  std::string dirText = dir.string();
  QnnSaver_Config_t out = QNN_SAVER_CONFIG_INIT;
  out.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
  out.outputDirectory = dirText.c_str();
  const QnnSaver_Config_t* cfg[] = {&out, nullptr};
  ASSERT_EQ(init(cfg), QNN_SUCCESS);
  // Configuration after the first call is refused, as with the vendor's Saver.
  EXPECT_EQ(init(cfg), QNN_SAVER_ERROR_ALREADY_INSTANTIATED);

  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(get(&providers, &n), QNN_SUCCESS);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(providers[0]->backendId, uint32_t(QNN_BACKEND_ID_SAVER));
  const QNN_INTERFACE_VER_TYPE& api = providers[0]->QNN_INTERFACE_VER_NAME;
  // Every member of the table is filled.
  const void* const* members = reinterpret_cast<const void* const*>(&api);
  for (size_t k = 0; k < sizeof(api) / sizeof(void*); ++k) EXPECT_NE(members[k], nullptr) << k;

  constexpr int kThreads = 4, kRounds = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        Qnn_BackendHandle_t b = nullptr;
        Qnn_ContextHandle_t c = nullptr;
        EXPECT_EQ(api.backendCreate(nullptr, nullptr, &b), QNN_SUCCESS);
        EXPECT_EQ(api.contextCreate(b, nullptr, nullptr, &c), QNN_SUCCESS);
        EXPECT_EQ(api.contextFree(c, nullptr), QNN_SUCCESS);
        EXPECT_EQ(api.backendFree(b), QNN_SUCCESS);
      }
    });
  for (auto& t : threads) t.join();

  // Misuse: freed, forged and wrong-kind handles.
  Qnn_BackendHandle_t b = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &b), QNN_SUCCESS);
  EXPECT_EQ(api.contextFree(b, nullptr), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api.backendFree(reinterpret_cast<void*>(0xdeadbeef)), QNN_BACKEND_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api.backendFree(b), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(b), QNN_BACKEND_ERROR_INVALID_HANDLE);
  // A refused call is in the trace too, with its result.
  EXPECT_EQ(api.contextCreateFromBinaryListAsync(nullptr, nullptr, nullptr, nullptr, nullptr),
            QNN_BACKEND_ERROR_INVALID_HANDLE);

  qnn::trace::Trace trace;
  ASSERT_TRUE(qnn::trace::readTrace((dir / "saver_output.qnntrace").string(), trace)) << trace.error;
  ASSERT_EQ(trace.calls.size(), 2u + kThreads * kRounds * 4 + 6);
  std::map<uint64_t, bool> live;  // backend handle id -> created and not yet freed
  std::set<uint64_t> threadIds;
  for (size_t k = 0; k < trace.calls.size(); ++k) {
    const auto& c = trace.calls[k];
    EXPECT_EQ(c.seq, k);
    threadIds.insert(c.threadId);
    std::string name = qnn::trace::callName(c.callId);
    if (name == "QnnBackend_create" && c.result == QNN_SUCCESS) live[c.args.field("backend")->u] = true;
    if (name == "QnnBackend_free" && c.result == QNN_SUCCESS) {
      uint64_t id = c.args.field("backend")->u;
      EXPECT_TRUE(live[id]) << "free before create at " << k;
      live[id] = false;
    }
  }
  EXPECT_GE(threadIds.size(), 2u);
  EXPECT_EQ(trace.calls.back().result, uint64_t(QNN_BACKEND_ERROR_INVALID_HANDLE));
  fs::remove_all(dir);
}

}  // namespace
