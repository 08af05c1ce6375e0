// QnnSystemDlc_* of libQnnSystem.so through dlopen and the public headers: a DLC built
// here byte by byte from docs/dlc-format.md (not by the converter), opened from a file
// and from a buffer, its graph composed into a libQnnCpu.so context through the
// client's own interface, finalized and run (out = x + bias, checked against the
// numbers); the tensor mappings; damaged buffers, bad arguments and handle misuse.
#include <gtest/gtest.h>
#include <zlib.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"
#include "System/QnnSystemDlc.h"
#include "tests/tools/system/system_loader.h"

namespace qnn::test {
namespace {

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) { std::memcpy(b.data() + at, &v, 8); }
uint32_t crc(const uint8_t* p, size_t n) { return uint32_t(crc32(0L, p, uInt(n))); }

const float kBias[4] = {0.5f, -1.f, 2.f, 10.f};

// One graph "g": y = ElementWiseAdd(x [1,4] FLOAT_32, bias [1,4] static); x's source name "x:0".
// quantizedY: y is UFIXED_POINT_8 with scale 0.5, offset -3 (for the reflection getters only).
std::vector<uint8_t> buildDlc(bool quantizedY = false) {
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
  if (quantizedY) {
    auto& y = header["graphs"][0]["tensors"]["y"];
    y["data_type"] = "QNN_DATATYPE_UFIXED_POINT_8";
    y["quant_params"] = {{"bitwidth", 8}, {"scale", {0.5}}, {"offset", {-3}}};
  }
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
    if (context) { EXPECT_EQ(qnn().contextFree(context, nullptr), QNN_SUCCESS); }
    if (backend) { EXPECT_EQ(qnn().backendFree(backend), QNN_SUCCESS); }
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

// ---- System API 1.14 ---------------------------------------------------------------------------

// The 73 members system API 1.14 adds after 1.7's 16, in the order of its QnnSystemInterface.h
// (QAIRT 2.50.40), as the exported functions' names.
const char* const kMembersSince1_14[] = {
    "getRecordByName", "getRecordsByType", "getRecordDataSize", "readRecordDataMemoryMapped", "freeRecord", "save",
    "createFromFileWithDestinationDir", "createFromBinaryWithDestinationDir", "getBinarySize", "getBinary",
    "createWithDestinationDir", "getComposableGraphInfoHandles", "getContextBinaryInfoHandles",
    "getComposableGraphInfo", "getContextBinaryInfo", "getComposableGraphInfoGraphName",
    "getComposableGraphInfoNumInputTensors", "getComposableGraphInfoNumOutputTensors", "getGraphInfoInputTensorInfo",
    "getGraphInfoOutputTensorInfo", "getTensorInfoName", "getTensorInfoId", "getTensorInfoType",
    "getTensorInfoDataFormat", "getTensorInfoDataType", "getTensorInfoRank", "getTensorInfoDimensions",
    "getTensorInfoQuantParams", "getQuantParamsEncodingDefinition", "getQuantParamsEncoding",
    "getQuantParamsScaleOffsetScale", "getQuantParamsScaleOffsetOffset", "getQuantParamsBwScaleOffsetBitwidth",
    "getQuantParamsBwScaleOffsetScale", "getQuantParamsBwScaleOffsetOffset", "getQuantParamsAxisScaleOffsetAxis",
    "getQuantParamsAxisScaleOffsetNumScaleOffsets", "getQuantParamsAxisScaleOffsetScaleAtIndex",
    "getQuantParamsAxisScaleOffsetOffsetAtIndex", "getQuantParamsBwAxisScaleOffsetBitwidth",
    "getQuantParamsBwAxisScaleOffsetAxis", "getQuantParamsBwAxisScaleOffsetNumElements",
    "getQuantParamsBwAxisScaleOffsetScaleAtIndex", "getQuantParamsBwAxisScaleOffsetOffsetAtIndex",
    "getContextBinaryInfoBackendId", "getContextBinaryInfoBuildId", "getContextBinaryInfoCoreApiVersion",
    "getContextBinaryInfoBackendApiVersion", "getContextBinaryInfoSocVersion", "getContextBinaryInfoHwInfoBlobVersion",
    "getContextBinaryInfoContextBlobVersion", "getContextBinaryInfoHwInfoBlobSize", "getContextBinaryInfoHwInfoBlob",
    "getContextBinaryInfoContextBlobSize", "getContextBinaryInfoNumContextTensors",
    "getContextBinaryInfoContextTensorInfo", "getContextBinaryInfoNumGraphs", "getContextGraphInfoHandle",
    "getContextBinaryInfoSocModel", "getContextBinaryInfoContextMetadataSize", "getContextBinaryInfoContextMetadata",
    "getContextGraphInfoGraphName", "getContextGraphInfoNumInputTensors", "getContextGraphInfoNumOutputTensors",
    "getContextGraphInfoNumUpdateableTensors", "getContextGraphInfoGraphBlobInfoSize",
    "getContextGraphInfoGraphBlobInfo", "getContextGraphInfoStartOpIndex", "getContextGraphInfoEndOpIndex",
    "getContextGraphInfoInputTensorInfo", "getContextGraphInfoOutputTensorInfo",
    "getContextGraphInfoUpdateableTensorInfo", "freeRecordRange"};

// The 1.14 functions, called by their exported names (the public headers declare them).
class SystemDlc114 : public SystemDlc {
 protected:
// A 1.14 function of the loaded library by its exported name (the declaration gives its type).
#define F(name) reinterpret_cast<decltype(&::QnnSystemDlc_##name)>(sys.symbol("QnnSystemDlc_" #name))
  std::string tempDir() {
    std::string d = ::testing::TempDir() + "system_dlc_114_" + std::to_string(::getpid());
    std::string cmd = "mkdir -p '" + d + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    return d;
  }
  static std::vector<uint8_t> readFile(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  }
  // A record's bytes by name ("" when the DLC has none of that name).
  std::string record(QnnSystemDlc_Handle_t dlc, const char* name) {
    QnnSystemDlc_RecordHandle_t r = reinterpret_cast<QnnSystemDlc_RecordHandle_t>(0x1);
    EXPECT_EQ(F(getRecordByName)(dlc, name, &r), QNN_SUCCESS);
    if (!r) return "";
    const uint8_t* data = nullptr;
    uint64_t size = 0, size2 = 0;
    EXPECT_EQ(F(readRecordDataMemoryMapped)(r, &data, &size), QNN_SUCCESS);
    EXPECT_EQ(F(getRecordDataSize)(r, &size2), QNN_SUCCESS);
    EXPECT_EQ(size, size2);
    std::string out(reinterpret_cast<const char*>(data), size_t(size));
    EXPECT_EQ(F(freeRecord)(r), QNN_SUCCESS);
    EXPECT_EQ(F(freeRecord)(r), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);  // freed once
    return out;
  }
};

TEST_F(SystemDlc114, ProviderOf114OnlyWithTheSwitch) {
  EXPECT_EQ(sys.provider().systemApiVersion.major, 1u);
  EXPECT_EQ(sys.provider().systemApiVersion.minor, 7u);  // the default stays 1.7
  ASSERT_EQ(setenv("QNN_OPENQNN_PROVIDER_API", "2.39", 1), 0);
  const QnnSystemInterface_t** providers = nullptr;
  uint32_t n = 0;
  const Qnn_ErrorHandle_t err = sys.getProviders()(&providers, &n);
  unsetenv("QNN_OPENQNN_PROVIDER_API");
  ASSERT_EQ(err, QNN_SUCCESS);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(providers[0]->systemApiVersion.minor, 14u);
  EXPECT_EQ(providers[0]->systemApiVersion.patch, 0u);
  // 1.7's 16 members first, unchanged; then the 73 at their 1.14 positions.
  const auto* table = reinterpret_cast<void* const*>(&providers[0]->QNN_SYSTEM_INTERFACE_VER_NAME);
  const auto* old = reinterpret_cast<void* const*>(&sys.api());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(table[i], old[i]) << i;
  static_assert(sizeof kMembersSince1_14 / sizeof kMembersSince1_14[0] == 73);
  for (int i = 0; i < 73; ++i)
    EXPECT_EQ(table[16 + i], sys.symbol((std::string("QnnSystemDlc_") + kMembersSince1_14[i]).c_str()))
        << kMembersSince1_14[i];
  // Without the switch again: 1.7.
  ASSERT_EQ(sys.getProviders()(&providers, &n), QNN_SUCCESS);
  EXPECT_EQ(providers[0]->systemApiVersion.minor, 7u);
}

TEST_F(SystemDlc114, RecordsBinaryAndSaveOfAFileDlc) {
  QnnSystemDlc_Handle_t dlc = nullptr;
  const std::string dir = tempDir();
  ASSERT_EQ(F(createFromFileWithDestinationDir)(nullptr, path.c_str(), dir.c_str(), &dlc), QNN_SUCCESS);
  // The topology record is the header's JSON; the raw weights are the data region (the bias first).
  const nlohmann::json model = nlohmann::json::parse(record(dlc, "model"));
  EXPECT_EQ(model["graphs"][0]["name"], "g");
  EXPECT_EQ(model["graphs"][0]["nodes"][0]["type"], "ElementWiseAdd");
  const std::string weights = record(dlc, "model.raw_weights");
  ASSERT_EQ(weights.size(), 64u);  // bytes 64..128 of the file built above
  EXPECT_EQ(std::memcmp(weights.data(), kBias, 16), 0);
  EXPECT_EQ(nlohmann::json::parse(record(dlc, "dlc.metadata"))["converter"], "test");
  const nlohmann::json params = nlohmann::json::parse(record(dlc, "model.params"));
  EXPECT_EQ(params["g"]["bias"]["offset"], 0);
  EXPECT_EQ(params["g"]["bias"]["size"], 16);
  EXPECT_EQ(nlohmann::json::parse(record(dlc, "source.mapping"))["g"]["x:0"], nlohmann::json::array({"x"}));
  const nlohmann::json history = nlohmann::json::parse(record(dlc, "dlc.metadata.history"));
  EXPECT_EQ(history[0]["command"], "by hand");
  EXPECT_EQ(record(dlc, "model.encodings"), "");  // nothing is quantized
  EXPECT_EQ(record(dlc, "no such record"), "");

  QnnSystemDlc_RecordHandle_t* records = nullptr;
  uint32_t numRecords = 9;
  ASSERT_EQ(F(getRecordsByType)(dlc, QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_RAW_WEIGHTS, 0, &records, &numRecords),
            QNN_SUCCESS);
  ASSERT_EQ(numRecords, 1u);
  uint64_t size = 0;
  EXPECT_EQ(F(getRecordDataSize)(records[0], &size), QNN_SUCCESS);
  EXPECT_EQ(size, 64u);
  EXPECT_EQ(F(freeRecordRange)(records[0], 0, 0), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(freeRecordRange)(records[0], 60, 8), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(freeRecordRange)(records[0], 0, 64), QNN_SUCCESS);
  const QnnSystemDlc_RecordHandle_t kept = records[0];
  ASSERT_EQ(F(getRecordsByType)(dlc, QNN_SYSTEM_DLC_RECORD_PREFIX_HTP_CACHE_RECORD, 1, &records, &numRecords),
            QNN_SUCCESS);
  EXPECT_EQ(numRecords, 0u);
  EXPECT_EQ(records, nullptr);

  // The binary is the file, byte for byte; so is a save (a relative path goes under the directory).
  Qnn_SystemDlcBinarySize_t binSize = 0, written = 0;
  ASSERT_EQ(F(getBinarySize)(dlc, &binSize), QNN_SUCCESS);
  ASSERT_EQ(binSize, bytes.size());
  std::vector<uint8_t> bin(binSize);
  EXPECT_EQ(F(getBinary)(dlc, bin.data(), binSize - 1, &written), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(F(getBinary)(dlc, bin.data(), binSize, &written), QNN_SUCCESS);
  EXPECT_EQ(written, binSize);
  EXPECT_EQ(bin, bytes);
  ASSERT_EQ(F(save)(dlc, "saved.dlc"), QNN_SUCCESS);
  EXPECT_EQ(readFile(dir + "/saved.dlc"), bytes);
  EXPECT_EQ(F(save)(dlc, (dir + "/missing/x.dlc").c_str()), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(save)(dlc, nullptr), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);

  EXPECT_EQ(api().systemDlcFree(dlc), QNN_SUCCESS);
  // Sub-handles go with their DLC.
  EXPECT_EQ(F(getRecordDataSize)(kept, &size), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(F(save)(dlc, "again.dlc"), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  std::remove((dir + "/saved.dlc").c_str());

  // Destination directories: required by the From* variants, must exist when given.
  EXPECT_EQ(F(createFromFileWithDestinationDir)(nullptr, path.c_str(), nullptr, &dlc),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(createFromFileWithDestinationDir)(nullptr, path.c_str(), "/nonexistent/dir", &dlc),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(createFromBinaryWithDestinationDir)(nullptr, bytes.data(), bytes.size(), "/nonexistent/dir", &dlc),
            QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(createWithDestinationDir)(nullptr, "/nonexistent/dir", &dlc), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(createWithDestinationDir)(nullptr, nullptr, nullptr), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(F(createFromBinaryWithDestinationDir)(nullptr, bytes.data(), bytes.size(), "", &dlc), QNN_SUCCESS);
  EXPECT_EQ(api().systemDlcFree(dlc), QNN_SUCCESS);
}

TEST_F(SystemDlc114, ComposableGraphReflection) {
  const std::vector<uint8_t> quantized = buildDlc(true);
  QnnSystemDlc_Handle_t dlc = nullptr;
  ASSERT_EQ(api().systemDlcCreateFromBinary(nullptr, quantized.data(), quantized.size(), &dlc), QNN_SUCCESS);
  QnnSystemDlc_GraphInfoHandle_t* graphs = nullptr;
  uint32_t numGraphs = 0;
  ASSERT_EQ(F(getComposableGraphInfoHandles)(dlc, &graphs, &numGraphs), QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 1u);
  QnnSystemDlc_GraphInfoHandle_t* again = nullptr;
  ASSERT_EQ(F(getComposableGraphInfoHandles)(dlc, &again, &numGraphs), QNN_SUCCESS);
  EXPECT_EQ(again[0], graphs[0]);  // the same handles every time
  const char* name = nullptr;
  ASSERT_EQ(F(getComposableGraphInfoGraphName)(graphs[0], &name), QNN_SUCCESS);
  EXPECT_STREQ(name, "g");
  uint32_t numIn = 0, numOut = 0;
  ASSERT_EQ(F(getComposableGraphInfoNumInputTensors)(graphs[0], &numIn), QNN_SUCCESS);
  ASSERT_EQ(F(getComposableGraphInfoNumOutputTensors)(graphs[0], &numOut), QNN_SUCCESS);
  EXPECT_EQ(numIn, 1u);
  EXPECT_EQ(numOut, 1u);
  const QnnSystemDlc_ComposableGraphInfo_t* info = nullptr;
  ASSERT_EQ(F(getComposableGraphInfo)(graphs[0], &info), QNN_SUCCESS);
  ASSERT_EQ(info->version, QNN_SYSTEM_DLC_COMPOSABLE_GRAPH_INFO_VERSION_1);
  EXPECT_STREQ(info->graphInfoV1.graphName, "g");
  ASSERT_EQ(info->graphInfoV1.numGraphInputs, 1u);
  EXPECT_STREQ(info->graphInfoV1.graphInputs[0].v1.name, "x");

  QnnSystemDlc_TensorInfoHandle_t x = nullptr, y = nullptr, tmp = nullptr;
  ASSERT_EQ(F(getGraphInfoInputTensorInfo)(graphs[0], 0, &x), QNN_SUCCESS);
  ASSERT_EQ(F(getGraphInfoOutputTensorInfo)(graphs[0], 0, &y), QNN_SUCCESS);
  EXPECT_EQ(F(getGraphInfoInputTensorInfo)(graphs[0], 1, &tmp), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(F(getTensorInfoName)(y, &name), QNN_SUCCESS);
  EXPECT_STREQ(name, "y");
  Qnn_TensorType_t type{};
  Qnn_DataType_t dtype{};
  Qnn_TensorDataFormat_t format = 99;
  uint32_t rank = 0, id = 0, dims[2] = {0, 0};
  ASSERT_EQ(F(getTensorInfoType)(x, &type), QNN_SUCCESS);
  EXPECT_EQ(type, QNN_TENSOR_TYPE_APP_WRITE);
  ASSERT_EQ(F(getTensorInfoDataType)(y, &dtype), QNN_SUCCESS);
  EXPECT_EQ(dtype, QNN_DATATYPE_UFIXED_POINT_8);
  ASSERT_EQ(F(getTensorInfoDataFormat)(x, &format), QNN_SUCCESS);
  EXPECT_EQ(format, QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER);
  ASSERT_EQ(F(getTensorInfoRank)(x, &rank), QNN_SUCCESS);
  ASSERT_EQ(rank, 2u);
  ASSERT_EQ(F(getTensorInfoDimensions)(x, dims), QNN_SUCCESS);
  EXPECT_EQ(dims[0], 1u);
  EXPECT_EQ(dims[1], 4u);
  ASSERT_EQ(F(getTensorInfoId)(x, &id), QNN_SUCCESS);
  EXPECT_GE(id, 1u);  // its position in the graph's tensor table
  EXPECT_EQ(F(getTensorInfoName)(x, nullptr), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(getTensorInfoName)(graphs[0], &name), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);  // another kind

  // Quantization: x has none, y is 8-bit scale/offset.
  QnnSystemDlc_QuantParamsHandle_t qx = nullptr, qy = nullptr;
  ASSERT_EQ(F(getTensorInfoQuantParams)(x, &qx), QNN_SUCCESS);
  ASSERT_EQ(F(getTensorInfoQuantParams)(y, &qy), QNN_SUCCESS);
  Qnn_Definition_t def{};
  Qnn_QuantizationEncoding_t enc{};
  ASSERT_EQ(F(getQuantParamsEncodingDefinition)(qx, &def), QNN_SUCCESS);
  EXPECT_EQ(def, QNN_DEFINITION_UNDEFINED);
  ASSERT_EQ(F(getQuantParamsEncodingDefinition)(qy, &def), QNN_SUCCESS);
  EXPECT_EQ(def, QNN_DEFINITION_DEFINED);
  ASSERT_EQ(F(getQuantParamsEncoding)(qy, &enc), QNN_SUCCESS);
  EXPECT_EQ(enc, QNN_QUANTIZATION_ENCODING_SCALE_OFFSET);
  float scale = 0.f;
  int32_t offset = 0, axis = 0;
  ASSERT_EQ(F(getQuantParamsScaleOffsetScale)(qy, &scale), QNN_SUCCESS);
  ASSERT_EQ(F(getQuantParamsScaleOffsetOffset)(qy, &offset), QNN_SUCCESS);
  EXPECT_EQ(scale, 0.5f);
  EXPECT_EQ(offset, -3);
  EXPECT_EQ(F(getQuantParamsScaleOffsetScale)(qx, &scale), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(getQuantParamsAxisScaleOffsetAxis)(qy, &axis), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(F(getQuantParamsScaleOffsetScale)(y, &scale), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  // The encodings record holds the same numbers.
  const nlohmann::json encodings = nlohmann::json::parse(record(dlc, "model.encodings"));
  EXPECT_EQ(encodings["g"]["y"]["offset"][0], -3);

  // No context binary in a converter's DLC.
  QnnSystemDlc_ContextBinaryInfoHandle_t* binaries = nullptr;
  uint32_t numBinaries = 7;
  ASSERT_EQ(F(getContextBinaryInfoHandles)(dlc, &binaries, &numBinaries), QNN_SUCCESS);
  EXPECT_EQ(numBinaries, 0u);
  uint32_t backendId = 0;
  EXPECT_EQ(F(getContextBinaryInfoBackendId)(graphs[0], &backendId), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);

  // The handle array belongs to the DLC: keep the handle itself, not the array, past the free.
  const QnnSystemDlc_TensorInfoHandle_t stale = x;
  const auto staleGraph = graphs[0];
  EXPECT_EQ(api().systemDlcFree(dlc), QNN_SUCCESS);
  EXPECT_EQ(F(getTensorInfoName)(stale, &name), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(F(getComposableGraphInfoGraphName)(staleGraph, &name), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
}

// The private hook QnnContext_addToDlc uses (dlc/system_dlc_hook.h), called as a backend does: an
// empty DLC gets a DLC's graphs, is saved, read back, composed and run.
TEST_F(SystemDlc114, GraphsAddedToAnEmptyDlcAreSavedAndRun) {
  using Hook = Qnn_ErrorHandle_t (*)(QnnSystemDlc_Handle_t, const uint8_t*, uint64_t, const char*, char*, size_t);
  const auto hook = reinterpret_cast<Hook>(sys.symbol("OpenQnnSystem_addGraphsToDlc"));
  ASSERT_NE(hook, nullptr);
  const std::string dir = tempDir();
  QnnSystemDlc_Handle_t dlc = nullptr;
  ASSERT_EQ(F(createWithDestinationDir)(nullptr, dir.c_str(), &dlc), QNN_SUCCESS);
  Qnn_SystemDlcBinarySize_t size = 0;
  EXPECT_EQ(F(getBinarySize)(dlc, &size), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);  // no graph yet
  EXPECT_EQ(F(save)(dlc, "empty.dlc"), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  QnnSystemDlc_GraphInfoHandle_t* graphs = nullptr;
  uint32_t numGraphs = 5;
  ASSERT_EQ(F(getComposableGraphInfoHandles)(dlc, &graphs, &numGraphs), QNN_SUCCESS);
  EXPECT_EQ(numGraphs, 0u);

  char why[256] = "";
  ASSERT_EQ(hook(dlc, bytes.data(), bytes.size(), "test", why, sizeof why), QNN_SUCCESS) << why;
  EXPECT_EQ(hook(dlc, bytes.data(), bytes.size(), "test", why, sizeof why), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(why).find("'g' is in the DLC already"), std::string::npos) << why;
  EXPECT_EQ(hook(dlc, bytes.data(), 10, "test", why, sizeof why), QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY);
  ASSERT_EQ(F(getComposableGraphInfoHandles)(dlc, &graphs, &numGraphs), QNN_SUCCESS);
  EXPECT_EQ(numGraphs, 1u);
  ASSERT_EQ(F(save)(dlc, "added.dlc"), QNN_SUCCESS);
  EXPECT_EQ(api().systemDlcFree(dlc), QNN_SUCCESS);
  EXPECT_EQ(hook(dlc, bytes.data(), bytes.size(), "test", why, sizeof why), QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  EXPECT_NE(std::string(why).find("not a live QnnSystemDlc handle"), std::string::npos) << why;

  QnnSystemDlc_Handle_t reloaded = nullptr;
  ASSERT_EQ(api().systemDlcCreateFromFile(nullptr, (dir + "/added.dlc").c_str(), &reloaded), QNN_SUCCESS);
  QnnSystemContext_GraphInfo_t* infos = nullptr;
  ASSERT_EQ(api().systemDlcComposeGraphs(reloaded, nullptr, 0, backend, context, cpu.provider(),
                                         QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &infos, &numGraphs),
            QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 1u);
  EXPECT_EQ(run(context, infos[0], {1.f, 2.f, 3.f, 4.f}), (std::vector<float>{1.5f, 1.f, 5.f, 14.f}));
  EXPECT_EQ(nlohmann::json::parse(record(reloaded, "dlc.metadata"))["converter"], "test");  // kept from the first DLC
  EXPECT_EQ(api().systemDlcFree(reloaded), QNN_SUCCESS);
  std::remove((dir + "/added.dlc").c_str());
}

}  // namespace
}  // namespace qnn::test
