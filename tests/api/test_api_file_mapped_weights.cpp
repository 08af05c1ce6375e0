// Weights left in the context binary's file: QnnContext_createFromBinaryWithCallback
// (and QnnContext_createFromBinaryListAsync with version-2 params) asks the
// client, through its raw or DMA buffer callback, for the binary's weights
// region, and uses the client's memory in place (ONNX Runtime's QNN EP maps the
// file and answers with the mapping). Binaries keep tensors of 4 KiB or more
// in that page-aligned, uncompressed region (docs/context-binary-format.md, 1.3).
// Measured here: loading from a mapped file adds next to no anonymous memory for
// a model whose weights its kernels read as they are (an embedding table read
// by the CPU's Gather), where loading from a buffer copies them; the memory goes
// back to the client at QnnContext_free, once.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

constexpr uint32_t kRows = 16384, kCols = 512;  // a 32 MiB float32 embedding table
constexpr uint32_t kLookups = 4;

float tableValue(uint32_t row, uint32_t col) { return float(row) + float(col) / 1024.f; }

// Header fields of a 1.3 binary (docs/context-binary-format.md).
uint64_t u64At(const uint8_t* p, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[at + i];
  return v;
}
uint32_t u32At(const uint8_t* p, size_t at) { return uint32_t(u64At(p, at) & 0xffffffffu); }

// Anonymous resident memory of this process (RssAnon of /proc/self/status), bytes.
size_t anonResidentBytes() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  size_t kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "RssAnon: %zu kB", &kb) == 1) break;
  std::fclose(f);
  return kb * 1024;
}

// What the client's callbacks saw.
struct ClientLog {
  const uint8_t* file = nullptr;  // the mapping of the whole binary
  size_t fileSize = 0;
  int fd = -1;
  int provides = 0, releases = 0;
  Qnn_ContextBinaryDataRequest_t lastRequest{};
  const void* releasedPtr = nullptr;
  Qnn_ContextBinarySize_t releasedSize = 0;
  Qnn_ErrorHandle_t answer = QNN_SUCCESS;  // what dataProvide answers
  bool answerTooSmall = false;             // an alignedSize that cannot hold the request
};

Qnn_ErrorHandle_t rawProvide(Qnn_ContextBinaryDataRequest_t req, Qnn_ContextBinaryRawDataResponse_t* resp, void* p) {
  auto* log = static_cast<ClientLog*>(p);
  ++log->provides;
  log->lastRequest = req;
  if (log->answer != QNN_SUCCESS) return log->answer;
  if (req.offset > log->fileSize || req.size > log->fileSize - req.offset) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
  resp->memPtr = const_cast<uint8_t*>(log->file + req.offset);
  resp->dataStartOffset = 0;
  resp->alignedSize = log->answerTooSmall ? req.size - 1 : req.size;
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t rawRelease(Qnn_ContextBinaryRawDataMem_t mem, void* p) {
  auto* log = static_cast<ClientLog*>(p);
  ++log->releases;
  log->releasedPtr = mem.memPtr;
  log->releasedSize = mem.memSize;
  return QNN_SUCCESS;
}

// As ONNX Runtime's Windows mapper answers: the mapping starts on a boundary
// below the requested offset, and dataStartOffset says where the data begins.
Qnn_ErrorHandle_t dmaProvide(Qnn_ContextBinaryDataRequest_t req, Qnn_ContextBinaryDmaDataResponse_t* resp, void* p) {
  auto* log = static_cast<ClientLog*>(p);
  ++log->provides;
  log->lastRequest = req;
  if (log->answer != QNN_SUCCESS) return log->answer;
  if (!req.isBackendMappingNeeded || req.size == 0) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
  const uint64_t aligned = req.offset & ~uint64_t(65535);
  resp->dmaBuffer.fd = log->fd;
  resp->dmaBuffer.data = const_cast<uint8_t*>(log->file + aligned);
  resp->dataStartOffset = req.offset - aligned;
  resp->alignedSize = req.size + (req.offset - aligned);
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t dmaRelease(Qnn_ContextBinaryDmaDataMem_t mem, void* p) {
  auto* log = static_cast<ClientLog*>(p);
  ++log->releases;
  log->releasedPtr = mem.dmaBuffer.data;
  log->releasedSize = mem.memSize;
  return QNN_SUCCESS;
}

Qnn_ContextBinaryCallback_t rawCallback(ClientLog* log) {
  Qnn_ContextBinaryCallback_t cb;
  std::memset(&cb, 0, sizeof cb);
  cb.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
  cb.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
  cb.rawBufferCallback.v1 = {rawProvide, rawRelease, log};
  return cb;
}

Qnn_ContextBinaryCallback_t dmaCallback(ClientLog* log) {
  Qnn_ContextBinaryCallback_t cb;
  std::memset(&cb, 0, sizeof cb);
  cb.type = QNN_CONTEXT_CALLBACK_DMA_BUFFER;
  cb.dmaBufferCallback.version = QNN_CONTEXT_CALLBACK_DMA_BUFFER_VERSION_1;
  cb.dmaBufferCallback.v1 = {dmaProvide, dmaRelease, log};
  return cb;
}

class FileMappedWeights : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    path = ::testing::TempDir() + "file_mapped_weights_" + std::to_string(getpid()) + ".bin";
    writeBinaryFile();
    fd = open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    void* m = mmap(nullptr, fileSize, PROT_READ, MAP_PRIVATE, fd, 0);
    ASSERT_NE(m, MAP_FAILED);
    file = static_cast<const uint8_t*>(m);
    log.file = file;
    log.fileSize = fileSize;
    log.fd = fd;
  }
  void TearDown() override {
    EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
    if (file) munmap(const_cast<uint8_t*>(file), fileSize);
    if (fd >= 0) close(fd);
    std::remove(path.c_str());
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // One graph "embed": y = Gather(table, ids, axis 0); the binary goes to `path`.
  void writeBinaryFile() {
    std::vector<float> table(size_t(kRows) * kCols);
    for (uint32_t r = 0; r < kRows; ++r)
      for (uint32_t c = 0; c < kCols; ++c) table[size_t(r) * kCols + c] = tableValue(r, c);
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(api().graphCreate(ctx, "embed", nullptr, &g), QNN_SUCCESS);
    TensorSpec t("table", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kRows, kCols}, table.data(),
                 uint32_t(table.size() * 4));
    TensorSpec ids("ids", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {kLookups});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {kLookups, kCols});
    for (TensorSpec* s : {&t, &ids, &y}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &s->tensor), QNN_SUCCESS);
    Qnn_Param_t axis = QNN_PARAM_INIT;
    axis.paramType = QNN_PARAMTYPE_SCALAR;
    axis.name = "axis";
    axis.scalarParam.dataType = QNN_DATATYPE_INT_32;
    axis.scalarParam.int32Value = 0;
    Qnn_Tensor_t in[] = {t.tensor, ids.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"gather", "qti.aisw", "Gather", 1, &axis, 2, in, 1, &y.tensor};
    ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    std::vector<uint8_t> bin = contextBinary(api(), ctx);
    ASSERT_FALSE(bin.empty());
    ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(bin.data(), 1, bin.size(), f), bin.size());
    std::fclose(f);
    fileSize = bin.size();
  }

  // Runs "embed" on rows {5, 16383, 0, 777}; checks every value.
  void expectLookups(Qnn_ContextHandle_t ctx) {
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(api().graphRetrieve(ctx, "embed", &g), QNN_SUCCESS);
    int32_t rows[kLookups] = {5, int32_t(kRows - 1), 0, 777};
    std::vector<float> y(size_t(kLookups) * kCols, -1.f);
    TensorSpec in("ids", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {kLookups}, rows, sizeof rows);
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {kLookups, kCols}, y.data(),
                   uint32_t(y.size() * 4));
    in.tensor.v1.id = out.tensor.v1.id = 0xffffffffu;  // by name
    ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
    for (uint32_t i = 0; i < kLookups; ++i)
      for (uint32_t c = 0; c < kCols; ++c)
        ASSERT_EQ(y[size_t(i) * kCols + c], tableValue(uint32_t(rows[i]), c)) << "lookup " << i << " column " << c;
  }

  // The weights region as the header gives it (offset 40, size 48).
  uint64_t regionOffset() const { return u64At(file, 40); }
  uint64_t regionSize() const { return u64At(file, 48); }
  // Where the compressed payload ends (headerSize at 12, storedSize at 32).
  uint64_t payloadEnd() const { return u32At(file, 12) + u64At(file, 32); }

  LoadedBackend lib{GetParam() ? htpBackendPath() : cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  std::string path;
  int fd = -1;
  const uint8_t* file = nullptr;
  size_t fileSize = 0;
  ClientLog log;
};

TEST_P(FileMappedWeights, TheBinaryKeepsTheTableInAPageAlignedRegion) {
  EXPECT_EQ(file[10] | (file[11] << 8), 3) << "format minor";
  EXPECT_EQ(regionOffset() % 4096, 0u);
  EXPECT_GE(regionSize(), uint64_t(kRows) * kCols * 4);
  EXPECT_EQ(regionOffset() + regionSize(), fileSize);
  // The table's bytes are in the file as they are.
  float first[2];
  std::memcpy(first, file + regionOffset(), sizeof first);
  EXPECT_EQ(first[0], tableValue(0, 0));
  EXPECT_EQ(first[1], tableValue(0, 1));
}

TEST_P(FileMappedWeights, RawCallbackLeavesTheWeightsInTheFile) {
  const bool sanitized =
#if defined(__SANITIZE_ADDRESS__)
      true;
#else
      false;
#endif
  const double tableBytes = double(kRows) * kCols * 4;
  Qnn_ContextBinaryCallback_t cb = rawCallback(&log);
  // Loaded from the mapping through the callback.
  size_t before = anonResidentBytes();
  auto t0 = std::chrono::steady_clock::now();
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, fileSize, &ctx, nullptr,
                                                      nullptr),
            QNN_SUCCESS);
  double mappedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  double mappedGrowth = double(anonResidentBytes()) - double(before);
  EXPECT_EQ(log.provides, 1);
  EXPECT_EQ(log.lastRequest.offset, regionOffset());
  EXPECT_EQ(log.lastRequest.size, regionSize());
  EXPECT_EQ(log.lastRequest.isBackendMappingNeeded, 0);
  expectLookups(ctx);
  EXPECT_EQ(log.releases, 0) << "released while the context uses it";
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(log.releases, 1);
  EXPECT_EQ(log.releasedPtr, file + regionOffset());
  EXPECT_EQ(log.releasedSize, regionSize());
  // The same binary loaded from a buffer: its weights are copied.
  before = anonResidentBytes();
  t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, file, fileSize, &ctx, nullptr), QNN_SUCCESS);
  double copiedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  double copiedGrowth = double(anonResidentBytes()) - double(before);
  expectLookups(ctx);
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(log.provides, 1) << "createFromBinary called the callback of another load";
  std::printf("32 MiB embedding table: load through the callback %.2f ms, +%.1f MiB anonymous memory; "
              "from a buffer %.2f ms, +%.1f MiB\n",
              mappedMs, mappedGrowth / 1048576.0, copiedMs, copiedGrowth / 1048576.0);
  if (!sanitized) {
    // Through the callback the load itself copies nothing; a buffer load copies the table.
    EXPECT_GT(copiedGrowth - mappedGrowth, 0.9 * tableBytes) << "the mapped weights were copied";
    // The CPU's Gather reads the table as it is: nothing else is resident. The
    // HTP simulator's float kernels keep their working (fp32 / fp16-rounded)
    // form of float weights, one per weights (WeightFormCache), as the HTP's
    // own converts float weights: that form is the +32 MiB there.
    if (!GetParam()) {
      EXPECT_LT(mappedGrowth, 0.1 * tableBytes) << "the mapped weights were copied";
    }
  }
}

TEST_P(FileMappedWeights, DmaCallbackWithAStartBelowTheRequestThroughTheList) {
  Qnn_ContextBinaryCallback_t cb = dmaCallback(&log);
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, fileSize, &ctx, nullptr,
                                                      nullptr),
            QNN_SUCCESS);
  EXPECT_EQ(log.lastRequest.isBackendMappingNeeded, 1);
  expectLookups(ctx);
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(log.releases, 1);
  EXPECT_EQ(log.releasedPtr, file + (regionOffset() & ~uint64_t(65535)));
  EXPECT_EQ(log.releasedSize, regionSize() + (regionOffset() & 65535));
  // The list with version-2 params, as ONNX Runtime loads EP context binaries;
  // the callback struct is gone before the load runs.
  struct Done {
    std::mutex m;
    std::condition_variable cv;
    Qnn_ContextHandle_t ctx = nullptr;
    Qnn_ErrorHandle_t status = 1;
    bool done = false;
  } done;
  auto notify = [](Qnn_ContextHandle_t c, Qnn_GraphHandle_t, const char*, QnnContext_createFromBinaryAsyncNotifyType_t type,
                   void* p, Qnn_ErrorHandle_t status) {
    if (type != QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) return;
    auto* d = static_cast<Done*>(p);
    std::lock_guard<std::mutex> lock(d->m);
    d->ctx = c;
    d->status = status;
    d->done = true;
    d->cv.notify_all();
  };
  {
    Qnn_ContextBinaryCallback_t transient = dmaCallback(&log);
    QnnContext_ParamsV2_t v2{nullptr, file, fileSize, nullptr, notify, &done, &transient};
    QnnContext_Params_t p{QNN_CONTEXT_PARAMS_VERSION_2, {}};
    p.v2 = &v2;
    const QnnContext_Params_t* list[] = {&p, nullptr};
    ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, nullptr), QNN_SUCCESS);
    std::memset(&transient, 0xee, sizeof transient);
  }
  {
    std::unique_lock<std::mutex> lock(done.m);
    ASSERT_TRUE(done.cv.wait_for(lock, std::chrono::seconds(60), [&] { return done.done; }));
  }
  ASSERT_EQ(done.status, QNN_SUCCESS);
  EXPECT_EQ(log.provides, 2);
  expectLookups(done.ctx);
  ASSERT_EQ(api().contextFree(done.ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(log.releases, 2);
}

// With the callback the buffer may stop where the weights region begins.
TEST_P(FileMappedWeights, ABufferWithoutTheRegionNeedsTheCallback) {
  const uint64_t metadata = payloadEnd();
  ASSERT_LT(metadata, regionOffset());
  Qnn_ContextHandle_t ctx = reinterpret_cast<Qnn_ContextHandle_t>(0x1234);
  EXPECT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, file, metadata, &ctx, nullptr),
            QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(ctx, reinterpret_cast<Qnn_ContextHandle_t>(0x1234));
  Qnn_ContextBinaryCallback_t cb = rawCallback(&log);
  ASSERT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, metadata, &ctx, nullptr,
                                                      nullptr),
            QNN_SUCCESS);
  expectLookups(ctx);
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  // A buffer cut inside the payload or inside the region is refused either way.
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, metadata - 1, &ctx,
                                                      nullptr, nullptr),
            QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, fileSize - 1, &ctx,
                                                      nullptr, nullptr),
            QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(log.provides, 1);
  EXPECT_EQ(log.releases, 1);
}

TEST_P(FileMappedWeights, AFailingOrShortAnswerFailsTheLoadAndReturnsTheMemory) {
  Qnn_ContextBinaryCallback_t cb = rawCallback(&log);
  Qnn_ContextHandle_t ctx = reinterpret_cast<Qnn_ContextHandle_t>(0x1234);
  log.answer = QNN_COMMON_ERROR_MEM_ALLOC;
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, fileSize, &ctx, nullptr,
                                                      nullptr),
            QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(ctx, reinterpret_cast<Qnn_ContextHandle_t>(0x1234));
  EXPECT_EQ(log.provides, 1);
  EXPECT_EQ(log.releases, 0) << "nothing was given, nothing to return";
  log.answer = QNN_SUCCESS;
  log.answerTooSmall = true;
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, file, fileSize, &ctx, nullptr,
                                                      nullptr),
            QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(ctx, reinterpret_cast<Qnn_ContextHandle_t>(0x1234));
  EXPECT_EQ(log.releases, 1) << "memory given but not usable goes back at once";
  // The client retries without the callback (ONNX Runtime does): the load copies.
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, file, fileSize, &ctx, nullptr), QNN_SUCCESS);
  expectLookups(ctx);
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(log.provides, 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, FileMappedWeights, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
