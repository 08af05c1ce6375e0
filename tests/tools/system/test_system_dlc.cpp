// QnnSystemDlc_* of libQnnSystem.so through dlopen and the public headers: a DLC built
// here byte by byte from docs/dlc-format.md (not by the converter), opened from a file
// and from a buffer, its graph composed into a libQnnCpu.so context through the
// client's own interface, finalized and run (out = x + bias, checked against the
// numbers); the tensor mappings; damaged buffers, bad arguments and handle misuse.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend_loader.h"
#include "system_loader.h"

namespace qnn::test {
namespace {

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) { std::memcpy(b.data() + at, &v, 8); }
uint32_t crc(const uint8_t* p, size_t n) { return uint32_t(crc32(0L, p, uInt(n))); }

const float kBias[4] = {0.5f, -1.f, 2.f, 10.f};

// One graph "g": y = ElementWiseAdd(x [1,4] FLOAT_32, bias [1,4] static); x's source name "x:0".
std::vector<uint8_t> buildDlc() {
  std::vector<uint8_t> file(64, 0);
  const size_t biasOffset = 64;
  file.insert(file.end(), reinterpret_cast<const uint8_t*>(kBias), reinterpret_cast<const uint8_t*>(kBias) + 16);
  nlohmann::json header = {
      {"format", "openqnn-dlc"},
      {"version", 1},
      {"metadata", {{"converter", "test"}, {"converter_command", "by hand"}, {"model_version", ""}}},
      {"graphs",
       {{{"name", "g"},
         {"inputs", {"x"}},
         {"outputs", {"y"}},
         {"tensors",
          {{"x", {{"type", "QNN_TENSOR_TYPE_APP_WRITE"}, {"data_type", "QNN_DATATYPE_FLOAT_32"}, {"dims", {1, 4}},
                  {"source_name", "x:0"}}},
           {"bias", {{"type", "QNN_TENSOR_TYPE_STATIC"}, {"data_type", "QNN_DATATYPE_FLOAT_32"}, {"dims", {1, 4}},
                     {"data", {{"offset", biasOffset}, {"size", 16}, {"crc32", crc(file.data() + 64, 16)}}}}},
           {"y", {{"type", "QNN_TENSOR_TYPE_APP_READ"}, {"data_type", "QNN_DATATYPE_FLOAT_32"}, {"dims", {1, 4}}}}}},
         {"nodes",
          {{{"name", "add"}, {"package", "qti.aisw"}, {"type", "ElementWiseAdd"}, {"input_names", {"x", "bias"}},
            {"output_names", {"y"}}, {"params", nlohmann::json::object()}}}}}}}};
  const std::string raw = header.dump();
  std::vector<uint8_t> packed(compressBound(uLong(raw.size())));
  uLongf packedSize = uLongf(packed.size());
  compress(packed.data(), &packedSize, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()));
  packed.resize(packedSize);
  file.resize(128, 0);  // header at a multiple of 64
  const size_t headerOffset = file.size();
  file.insert(file.end(), packed.begin(), packed.end());
  std::memcpy(file.data(), "OQNNDLC\0", 8);
  put32(file, 8, 1);
  put64(file, 16, headerOffset);
  put64(file, 24, packed.size());
  put64(file, 32, raw.size());
  put32(file, 40, crc(packed.data(), packed.size()));
  put64(file, 48, file.size());
  std::vector<uint8_t> covered(file.begin(), file.begin() + 44);
  covered.insert(covered.end(), file.begin() + 48, file.begin() + 64);
  put32(file, 44, crc(covered.data(), covered.size()));
  return file;
}

class SystemDlc : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(sys.ok()) << sys.error();
    ASSERT_TRUE(cpu.ok()) << cpu.error();
    bytes = buildDlc();
    path = ::testing::TempDir() + "system_dlc_test.dlc";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    ASSERT_EQ(qnn().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &context), QNN_SUCCESS);
  }
  void TearDown() override {
    if (context) EXPECT_EQ(qnn().contextFree(context, nullptr), QNN_SUCCESS);
    if (backend) EXPECT_EQ(qnn().backendFree(backend), QNN_SUCCESS);
    std::remove(path.c_str());
  }
  const QNN_SYSTEM_INTERFACE_VER_TYPE& api() { return sys.api(); }
  const QNN_INTERFACE_VER_TYPE& qnn() { return cpu.api(); }

  // Finalizes graph "g" of `ctx` and runs it on x; returns y.
  std::vector<float> run(Qnn_ContextHandle_t ctx, const QnnSystemContext_GraphInfo_t& info, std::vector<float> x) {
    Qnn_GraphHandle_t graph = nullptr;
    EXPECT_EQ(qnn().graphRetrieve(ctx, "g", &graph), QNN_SUCCESS);
    EXPECT_EQ(qnn().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
    std::vector<float> y(4, -99.f);
    Qnn_Tensor_t in = info.graphInfoV1.graphInputs[0], out = info.graphInfoV1.graphOutputs[0];
    in.v1.clientBuf = {x.data(), 16};
    out.v1.clientBuf = {y.data(), 16};
    EXPECT_EQ(qnn().graphExecute(graph, &in, 1, &out, 1, nullptr, nullptr), QNN_SUCCESS);
    return y;
  }

  LoadedSystemLibrary sys{systemLibraryPath()};
  LoadedBackend cpu{cpuBackendPath()};
  std::vector<uint8_t> bytes;
  std::string path;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t context = nullptr;
};

TEST_F(SystemDlc, ComposeFromFileAndBufferRunsTheGraph) {
  EXPECT_EQ(reinterpret_cast<void*>(api().systemDlcComposeGraphs), sys.symbol("QnnSystemDlc_composeGraphs"));
  QnnSystemDlc_Handle_t fromFile = nullptr, fromBuffer = nullptr;
  ASSERT_EQ(api().systemDlcCreateFromFile(nullptr, path.c_str(), &fromFile), QNN_SUCCESS);
  std::vector<uint8_t> copy = bytes;
  ASSERT_EQ(api().systemDlcCreateFromBinary(nullptr, copy.data(), copy.size(), &fromBuffer), QNN_SUCCESS);
  std::fill(copy.begin(), copy.end(), 0);  // the library took its own copy

  QnnSystemContext_GraphInfo_t* graphs = nullptr;
  uint32_t numGraphs = 0;
  ASSERT_EQ(api().systemDlcComposeGraphs(fromFile, nullptr, 0, backend, context, cpu.provider(),
                                         QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &graphs, &numGraphs),
            QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 1u);
  ASSERT_EQ(graphs[0].version, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1);
  const auto& g = graphs[0].graphInfoV1;
  EXPECT_STREQ(g.graphName, "g");
  ASSERT_EQ(g.numGraphInputs, 1u);
  ASSERT_EQ(g.numGraphOutputs, 1u);
  EXPECT_STREQ(g.graphInputs[0].v1.name, "x");
  EXPECT_STREQ(g.graphOutputs[0].v1.name, "y");
  EXPECT_EQ(g.graphInputs[0].v1.rank, 2u);
  EXPECT_EQ(run(context, graphs[0], {1.f, 2.f, 3.f, 4.f}), (std::vector<float>{1.5f, 1.f, 5.f, 14.f}));

  // The buffer's DLC into a second context, with a per-graph config list and the V3 info layout.
  Qnn_ContextHandle_t second = nullptr;
  ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &second), QNN_SUCCESS);
  QnnSystemDlc_GraphConfigInfo_t config{};
  config.version = QNN_SYSTEM_DLC_GRAPH_CONFIG_INFO_VERSION_1;
  config.v1 = {"g", nullptr, 0};
  const QnnSystemDlc_GraphConfigInfo_t* configs[] = {&config};
  ASSERT_EQ(api().systemDlcComposeGraphs(fromBuffer, configs, 1, backend, second, cpu.provider(),
                                         QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3, &graphs, &numGraphs),
            QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 1u);
  EXPECT_EQ(graphs[0].version, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3);
  EXPECT_EQ(graphs[0].graphInfoV3.numUpdateableTensors, 0u);
  EXPECT_EQ(graphs[0].graphInfoV3.graphBlobInfo, nullptr);
  EXPECT_EQ(run(second, graphs[0], {0.f, 0.f, 0.f, -10.f}), (std::vector<float>{0.5f, -1.f, 2.f, 0.f}));
  EXPECT_EQ(qnn().contextFree(second, nullptr), QNN_SUCCESS);

  // Tensor mappings: the source name x:0 -> QNN tensor x.
  const Qnn_OpMapping_t* mappings = nullptr;
  uint32_t numMappings = 0;
  ASSERT_EQ(api().systemDlcGetOpMappings(fromFile, &mappings, &numMappings), QNN_SUCCESS);
  ASSERT_EQ(numMappings, 1u);
  ASSERT_EQ(mappings[0].version, QNN_OP_MAPPING_VERSION_1);
  const Qnn_OpMappingV1_t& m = *mappings[0].v1;
  EXPECT_STREQ(m.graphName, "g");
  EXPECT_EQ(m.numOpMappings, 0u);
  ASSERT_EQ(m.numTensorMappings, 1u);
  EXPECT_STREQ(m.tensorMappings[0].name, "x:0");
  ASSERT_EQ(m.tensorMappings[0].numPairs, 1u);
  EXPECT_STREQ(m.tensorMappings[0].pair[0].name, "x");
  EXPECT_EQ(m.tensorMappings[0].pair[0].type, QNN_OP_MAPPING_TYPE_TENSOR);

  EXPECT_EQ(api().systemDlcFree(fromFile), QNN_SUCCESS);
  EXPECT_EQ(api().systemDlcFree(fromBuffer), QNN_SUCCESS);
  EXPECT_EQ(api().systemDlcFree(fromFile), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
}

TEST_F(SystemDlc, DamagedBuffersAndBadArgumentsAreRefused) {
  QnnSystemDlc_Handle_t h = reinterpret_cast<QnnSystemDlc_Handle_t>(0x1234);
  const QnnSystemDlc_Handle_t untouched = h;
  std::vector<uint8_t> bad = bytes;
  bad[0] = 'X';  // magic
  EXPECT_EQ(api().systemDlcCreateFromBinary(nullptr, bad.data(), bad.size(), &h), QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY);
  bad = bytes;
  bad[70] ^= 1;  // weights: CRC
  EXPECT_EQ(api().systemDlcCreateFromBinary(nullptr, bad.data(), bad.size(), &h), QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY);
  EXPECT_EQ(api().systemDlcCreateFromBinary(nullptr, bytes.data(), bytes.size() - 1, &h),
            QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY);
  EXPECT_EQ(api().systemDlcCreateFromBinary(nullptr, bytes.data(), 10, &h), QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY);
  EXPECT_EQ(api().systemDlcCreateFromBinary(nullptr, nullptr, 10, &h), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemDlcCreateFromFile(nullptr, nullptr, &h), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemDlcCreateFromFile(nullptr, "/nonexistent/x.dlc", &h), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(h, untouched);

  QnnSystemDlc_Handle_t dlc = nullptr;
  ASSERT_EQ(api().systemDlcCreateFromFile(nullptr, path.c_str(), &dlc), QNN_SUCCESS);
  QnnSystemContext_GraphInfo_t* graphs = nullptr;
  uint32_t numGraphs = 0;
  EXPECT_EQ(api().systemDlcComposeGraphs(dlc, nullptr, 0, backend, context, cpu.provider(),
                                         QnnSystemContext_GraphInfoVersion_t(7), &graphs, &numGraphs),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  QnnInterface_t old = cpu.provider();
  old.apiVersion.coreApiVersion.minor = 7;  // a 2.7 table has another layout
  EXPECT_EQ(api().systemDlcComposeGraphs(dlc, nullptr, 0, backend, context, old, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1,
                                         &graphs, &numGraphs),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemDlcComposeGraphs(dlc, nullptr, 0, backend, context, cpu.provider(),
                                         QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, nullptr, &numGraphs),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  QnnSystemDlc_GraphConfigInfo_t unnamed{};
  unnamed.version = QNN_SYSTEM_DLC_GRAPH_CONFIG_INFO_VERSION_1;
  const QnnSystemDlc_GraphConfigInfo_t* configs[] = {&unnamed};
  EXPECT_EQ(api().systemDlcComposeGraphs(dlc, configs, 1, backend, context, cpu.provider(),
                                         QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &graphs, &numGraphs),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  // A context of no backend: composing fails, cleanly.
  EXPECT_NE(api().systemDlcComposeGraphs(dlc, nullptr, 0, backend, reinterpret_cast<Qnn_ContextHandle_t>(0x99),
                                         cpu.provider(), QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &graphs, &numGraphs),
            QNN_SUCCESS);
  EXPECT_EQ(api().systemDlcGetOpMappings(dlc, nullptr, &numGraphs), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemDlcFree(dlc), QNN_SUCCESS);

  // Null, freed and forged handles.
  for (QnnSystemDlc_Handle_t hnd : {QnnSystemDlc_Handle_t(nullptr), dlc, QnnSystemDlc_Handle_t(0xdead)}) {
    const Qnn_OpMapping_t* mappings = nullptr;
    uint32_t n = 0;
    EXPECT_EQ(api().systemDlcGetOpMappings(hnd, &mappings, &n), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
    EXPECT_EQ(api().systemDlcComposeGraphs(hnd, nullptr, 0, backend, context, cpu.provider(),
                                           QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &graphs, &numGraphs),
              QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
    EXPECT_EQ(api().systemDlcFree(hnd), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  }
  // A system context handle is not a DLC handle.
  QnnSystemContext_Handle_t sysCtx = nullptr;
  ASSERT_EQ(api().systemContextCreate(&sysCtx), QNN_SUCCESS);
  EXPECT_EQ(api().systemDlcFree(reinterpret_cast<QnnSystemDlc_Handle_t>(sysCtx)), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().systemContextFree(sysCtx), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
