// libQnnSystem.so through dlopen and the public System headers: provider table,
// getBinaryInfo / getMetadata against what the client created on libQnnCpu.so,
// refusal of truncated, corrupted and foreign binaries, and handle misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpSystemContext.h"
#include "tests/api/backend_loader.h"
#include "tests/tools/system/context_binary_fixture.h"
#include "tests/tools/system/system_loader.h"

namespace qnn::test {
namespace {

class SystemLibrary : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_TRUE(fixture().error.empty()) << fixture().error;
    ASSERT_EQ(api().systemContextCreate(&ctx), QNN_SUCCESS);
    ASSERT_NE(ctx, nullptr);
  }
  void TearDown() override {
    if (ctx) {
      EXPECT_EQ(api().systemContextFree(ctx), QNN_SUCCESS);
    }
  }
  const QNN_SYSTEM_INTERFACE_VER_TYPE& api() { return lib.api(); }
  static const ContextBinaryFixture& fixture() { return contextBinaryFixture(); }

  Qnn_ErrorHandle_t getInfo(std::vector<uint8_t>& bytes, const QnnSystemContext_BinaryInfo_t** info) {
    Qnn_ContextBinarySize_t infoSize = 0;
    return api().systemContextGetBinaryInfo(ctx, bytes.data(), bytes.size(), info, &infoSize);
  }

  LoadedSystemLibrary lib{systemLibraryPath()};
  QnnSystemContext_Handle_t ctx = nullptr;
};

void expectTensor(const Qnn_Tensor_t& got, const ExpectedTensor& want) {
  SCOPED_TRACE(want.name);
  ASSERT_EQ(got.version, QNN_TENSOR_VERSION_1);
  const Qnn_TensorV1_t& v = got.v1;
  EXPECT_EQ(v.id, want.id);
  ASSERT_NE(v.name, nullptr);
  EXPECT_STREQ(v.name, want.name.c_str());
  EXPECT_EQ(v.type, want.type);
  EXPECT_EQ(v.dataFormat, QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER);
  EXPECT_EQ(v.dataType, want.dtype);
  ASSERT_EQ(v.rank, want.dims.size());
  ASSERT_NE(v.dimensions, nullptr);
  EXPECT_EQ(std::vector<uint32_t>(v.dimensions, v.dimensions + v.rank), want.dims);
  const Qnn_QuantizeParams_t& q = v.quantizeParams;
  if (want.encoding == QNN_QUANTIZATION_ENCODING_UNDEFINED) {
    EXPECT_NE(q.encodingDefinition, QNN_DEFINITION_DEFINED);
    return;
  }
  EXPECT_EQ(q.encodingDefinition, QNN_DEFINITION_DEFINED);
  ASSERT_EQ(q.quantizationEncoding, want.encoding);
  if (want.encoding == QNN_QUANTIZATION_ENCODING_SCALE_OFFSET) {
    EXPECT_EQ(q.scaleOffsetEncoding.scale, want.scale);
    EXPECT_EQ(q.scaleOffsetEncoding.offset, want.offset);
  } else {
    const auto& a = q.axisScaleOffsetEncoding;
    EXPECT_EQ(a.axis, want.axis);
    ASSERT_EQ(a.numScaleOffsets, want.scales.size());
    ASSERT_NE(a.scaleOffset, nullptr);
    for (uint32_t i = 0; i < a.numScaleOffsets; ++i) {
      EXPECT_EQ(a.scaleOffset[i].scale, want.scales[i]) << i;
      EXPECT_EQ(a.scaleOffset[i].offset, want.offsets[i]) << i;
    }
  }
}

// Names, inputs and outputs of every graph (the fields every graph info version starts with).
void expectGraphs(const QnnSystemContext_GraphInfo_t* graphs, uint32_t n, const ContextBinaryFixture& f,
                  QnnSystemContext_GraphInfoVersion_t version) {
  ASSERT_EQ(n, f.graphs.size());
  ASSERT_NE(graphs, nullptr);
  for (size_t g = 0; g < f.graphs.size(); ++g) {
    const ExpectedGraph& want = f.graphs[g];
    SCOPED_TRACE(want.name);
    ASSERT_EQ(graphs[g].version, version);
    const auto& gi = graphs[g].graphInfoV1;
    EXPECT_STREQ(gi.graphName, want.name.c_str());
    ASSERT_EQ(gi.numGraphInputs, want.inputs.size());
    ASSERT_EQ(gi.numGraphOutputs, want.outputs.size());
    for (size_t i = 0; i < want.inputs.size(); ++i) expectTensor(gi.graphInputs[i], want.inputs[i]);
    for (size_t i = 0; i < want.outputs.size(); ++i) expectTensor(gi.graphOutputs[i], want.outputs[i]);
  }
}

void expectMatchesFixture(const QnnSystemContext_BinaryInfo_t& info, const ContextBinaryFixture& f) {
  ASSERT_EQ(info.version, QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2);
  const auto& v = info.contextBinaryInfoV2;
  EXPECT_EQ(v.backendId, f.backendId);
  ASSERT_NE(v.buildId, nullptr);
  EXPECT_GT(std::strlen(v.buildId), 0u);
  EXPECT_EQ(v.coreApiVersion.major, uint32_t(QNN_API_VERSION_MAJOR));
  EXPECT_EQ(v.coreApiVersion.minor, uint32_t(QNN_API_VERSION_MINOR));
  EXPECT_EQ(v.contextBlobVersion.major, 1u);
  EXPECT_EQ(v.contextBlobSize, f.bytes.size());
  EXPECT_EQ(v.numContextTensors, 0u);
  EXPECT_EQ(v.platformInfo, nullptr);
  expectGraphs(v.graphs, v.numGraphs, f, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1);
}

TEST_F(SystemLibrary, ProviderTable) {
  const QnnSystemInterface_t& p = lib.provider();
  EXPECT_EQ(p.systemApiVersion.major, uint32_t(QNN_SYSTEM_API_VERSION_MAJOR));
  EXPECT_EQ(p.systemApiVersion.minor, uint32_t(QNN_SYSTEM_API_VERSION_MINOR));
  ASSERT_NE(p.providerName, nullptr);
  EXPECT_NE(api().systemContextCreate, nullptr);
  EXPECT_NE(api().systemContextGetBinaryInfo, nullptr);
  EXPECT_NE(api().systemContextGetMetaData, nullptr);
  EXPECT_NE(api().systemContextFree, nullptr);
  uint32_t n = 0;
  const QnnSystemInterface_t** list = nullptr;
  EXPECT_EQ(lib.getProviders()(nullptr, &n), QNN_SYSTEM_INTERFACE_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(lib.getProviders()(&list, nullptr), QNN_SYSTEM_INTERFACE_ERROR_INVALID_PARAMETER);
  // The table entries are the exported functions.
  EXPECT_EQ(reinterpret_cast<void*>(api().systemContextGetMetaData), lib.symbol("QnnSystemContext_getMetadata"));
}

TEST_F(SystemLibrary, BinaryInfoListsEveryGraphInputAndOutput) {
  std::vector<uint8_t> bytes = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t infoSize = 0;
  ASSERT_EQ(api().systemContextGetBinaryInfo(ctx, bytes.data(), bytes.size(), &info, &infoSize), QNN_SUCCESS);
  ASSERT_NE(info, nullptr);
  EXPECT_GT(infoSize, sizeof(QnnSystemContext_BinaryInfo_t));
  expectMatchesFixture(*info, fixture());
}

// HTP binaries: binary info version 3, graph info version 3 whose graphBlobInfo is the HTP's
// QnnHtpSystemContext_GraphBlobInfo_t version 1, where ONNX Runtime reads the spill-fill size. float_graph's
// one intermediate tensor ("sum": 1x4x4x3 float, 192 bytes) takes two 128-byte HVX vectors: 256 bytes;
// quant_graph has none. The largest equals the backend's own answer for the context.
TEST_F(SystemLibrary, HtpBinaryInfoVersion3CarriesTheSpillFillSize) {
  const ContextBinaryFixture& f = htpContextBinaryFixture();
  ASSERT_TRUE(f.error.empty()) << f.error;
  std::vector<uint8_t> bytes = f.bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  ASSERT_EQ(getInfo(bytes, &info), QNN_SUCCESS);
  ASSERT_EQ(info->version, QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3);
  const auto& v = info->contextBinaryInfoV3;
  EXPECT_EQ(v.backendId, uint32_t(QNN_BACKEND_ID_HTP));
  ASSERT_NE(v.buildId, nullptr);
  ASSERT_NE(v.socVersion, nullptr);
  EXPECT_EQ(v.coreApiVersion.major, uint32_t(QNN_API_VERSION_MAJOR));
  EXPECT_EQ(v.contextBlobVersion.major, 1u);
  EXPECT_EQ(v.contextBlobSize, bytes.size());
  EXPECT_EQ(v.contextMetadataSize, 0u);
  EXPECT_EQ(v.socModel, 60u);  // the simulator's SoC without device configs (SC8380XP)
  const std::map<std::string, uint64_t> spillFill = {{"float_graph", 256}, {"quant_graph", 0}};
  expectGraphs(v.graphs, v.numGraphs, f, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3);
  uint64_t largest = 0;
  for (size_t g = 0; g < f.graphs.size() && g < v.numGraphs; ++g) {
    const ExpectedGraph& want = f.graphs[g];
    SCOPED_TRACE(want.name);
    const auto& gi = v.graphs[g].graphInfoV3;
    EXPECT_EQ(gi.numUpdateableTensors, 0u);
    ASSERT_EQ(gi.graphBlobInfoSize, sizeof(QnnHtpSystemContext_GraphBlobInfo_t));
    ASSERT_NE(gi.graphBlobInfo, nullptr);
    const auto* blob = static_cast<const QnnHtpSystemContext_GraphBlobInfo_t*>(gi.graphBlobInfo);
    ASSERT_EQ(blob->version, QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_VERSION_V1);
    EXPECT_EQ(blob->contextBinaryGraphBlobInfoV1.spillFillBufferSize, spillFill.at(want.name));
    EXPECT_EQ(blob->contextBinaryGraphBlobInfoV1.vtcmSize, 8u);  // MB: all of SoC 60's VTCM (no VTCM config)
    largest = std::max(largest, blob->contextBinaryGraphBlobInfoV1.spillFillBufferSize);
  }
  EXPECT_EQ(largest, f.htpSpillFill);
}

// Clients older than API 2.14 (system API 1.1) get an HTP binary's info as version 2 in their layout:
// 48-byte graph infos (version, then the version-1 fields at offset 8), the V3 fields moved to V2's places.
TEST_F(SystemLibrary, OldClientsGetHtpBinaryInfoAsVersion2) {
  const ContextBinaryFixture& f = htpContextBinaryFixture();
  ASSERT_TRUE(f.error.empty()) << f.error;
  using ForClient = Qnn_ErrorHandle_t (*)(uint32_t, uint32_t, const void***, uint32_t*);
  auto forClient = reinterpret_cast<ForClient>(lib.symbol("OpenQnn_getSystemProvidersForClientApi"));
  ASSERT_NE(forClient, nullptr);
  const void** list = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(forClient(2, 13, &list, &n), QNN_SUCCESS);
  ASSERT_EQ(n, 1u);
  // System API 1.1's provider: backendId, providerName, version, then create/getBinaryInfo/getMetadata/free.
  struct OldProvider {
    uint32_t backendId;
    const char* providerName;
    Qnn_Version_t systemApiVersion;
    void* members[4];
  };
  const auto* p = static_cast<const OldProvider*>(list[0]);
  using GetInfo = Qnn_ErrorHandle_t (*)(QnnSystemContext_Handle_t, void*, uint64_t, const QnnSystemContext_BinaryInfo_t**,
                                        Qnn_ContextBinarySize_t*);
  auto getInfoOld = reinterpret_cast<GetInfo>(p->members[1]);
  std::vector<uint8_t> bytes = f.bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t size = 0;
  ASSERT_EQ(getInfoOld(ctx, bytes.data(), bytes.size(), &info, &size), QNN_SUCCESS);
  ASSERT_EQ(info->version, QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2);
  const auto& v2 = info->contextBinaryInfoV2;
  EXPECT_EQ(v2.backendId, uint32_t(QNN_BACKEND_ID_HTP));
  EXPECT_EQ(v2.contextBlobSize, bytes.size());
  EXPECT_EQ(v2.hwInfoBlobSize, 0u);
  ASSERT_EQ(v2.numGraphs, f.graphs.size());
  const auto* entries = reinterpret_cast<const unsigned char*>(v2.graphs);
  for (size_t g = 0; g < f.graphs.size(); ++g) {
    int32_t version = 0;
    std::memcpy(&version, entries + 48 * g, sizeof version);
    EXPECT_EQ(version, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1);
    QnnSystemContext_GraphInfoV1_t v1{};
    std::memcpy(&v1, entries + 48 * g + 8, sizeof v1);
    EXPECT_STREQ(v1.graphName, f.graphs[g].name.c_str());
    EXPECT_EQ(v1.numGraphInputs, f.graphs[g].inputs.size());
    EXPECT_EQ(v1.numGraphOutputs, f.graphs[g].outputs.size());
  }
}

TEST_F(SystemLibrary, MetadataMatchesBinaryInfo) {
  const std::vector<uint8_t>& bytes = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  ASSERT_EQ(api().systemContextGetMetaData(ctx, bytes.data(), bytes.size(), &info), QNN_SUCCESS);
  ASSERT_NE(info, nullptr);
  expectMatchesFixture(*info, fixture());
}

TEST_F(SystemLibrary, InfoOutlivesTheBufferAndLaterCalls) {
  // The info belongs to the handle: it survives the client's buffer and a second call.
  const QnnSystemContext_BinaryInfo_t* first = nullptr;
  {
    std::vector<uint8_t> bytes = fixture().bytes;
    ASSERT_EQ(getInfo(bytes, &first), QNN_SUCCESS);
    std::fill(bytes.begin(), bytes.end(), 0);
  }
  std::vector<uint8_t> again = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* second = nullptr;
  ASSERT_EQ(getInfo(again, &second), QNN_SUCCESS);
  expectMatchesFixture(*first, fixture());
  expectMatchesFixture(*second, fixture());
}

TEST_F(SystemLibrary, TruncatedCorruptedAndForeignBinariesAreRefused) {
  const std::vector<uint8_t>& good = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  for (size_t size : {size_t(1), size_t(7), size_t(20), size_t(44), good.size() / 2, good.size() - 1}) {
    std::vector<uint8_t> truncated(good.begin(), good.begin() + size);
    EXPECT_EQ(getInfo(truncated, &info), QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY) << size;
    EXPECT_EQ(info, nullptr);
  }
  for (size_t at : {size_t(9), size_t(30), good.size() / 2, good.size() - 1}) {
    std::vector<uint8_t> corrupted = good;
    corrupted[at] ^= 0x5a;
    EXPECT_EQ(getInfo(corrupted, &info), QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY) << at;
    EXPECT_EQ(info, nullptr);
  }
  std::vector<uint8_t> foreign(good.size(), 0);
  std::memcpy(foreign.data(), "\x7f" "ELF", 4);
  // The call takes no logger: its one line, naming the cause, goes to stderr.
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(getInfo(foreign, &info), QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY);
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("QnnSystemContext_getBinaryInfo: context binary: bad magic (7f 45 4c 46 00 00 00 00): not an "
                      "OpenQNN context binary"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("made by the vendor's QNN SDK"), std::string::npos) << said;
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  EXPECT_EQ(getInfo(trailing, &info), QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY);
  EXPECT_EQ(api().systemContextGetMetaData(ctx, foreign.data(), foreign.size(), &info),
            QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY);
  EXPECT_EQ(info, nullptr);
}

// A binary section (what QnnContext_getBinarySection writes: a LoRA adapter) is described too: its
// backend, size and format version, and per graph the section names its name and updateable tensors,
// no inputs or outputs (a section holds none). The vendor's Genie reads an adapter file's graph count
// this way and applies the file to that many graphs of its binary.
TEST_F(SystemLibrary, BinarySectionInfoNamesItsGraphsAndUpdateableTensors) {
  for (bool htp : {false, true}) {
    SCOPED_TRACE(htp ? "HTP" : "CPU");
    LoadedBackend backendLib(htp ? htpBackendPath() : cpuBackendPath());
    ASSERT_TRUE(backendLib.ok()) << backendLib.error();
    const auto& qnn = backendLib.api();
    Qnn_BackendHandle_t backend = nullptr;
    Qnn_ContextHandle_t context = nullptr;
    ASSERT_EQ(qnn.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(qnn.contextCreate(backend, nullptr, nullptr, &context), QNN_SUCCESS);
    // Two graphs y = x + a, `a` UPDATEABLE_STATIC ([1, 3] in "first", [1, 5] in "second").
    const std::vector<std::pair<std::string, uint32_t>> graphs = {{"first", 3}, {"second", 5}};
    for (const auto& [name, n] : graphs) {
      Qnn_GraphHandle_t g = nullptr;
      ASSERT_EQ(qnn.graphCreate(context, name.c_str(), nullptr, &g), QNN_SUCCESS);
      std::vector<float> values(n, 0.5f);
      TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, n});
      TensorSpec a(name + "_a", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {1, n}, values.data(),
                   n * 4);
      TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, n});
      for (TensorSpec* t : {&x, &a, &y}) ASSERT_EQ(qnn.tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
      Qnn_Tensor_t in[] = {x.tensor, a.tensor};
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, in, 1, &y.tensor};
      ASSERT_EQ(qnn.graphAddNode(g, op), QNN_SUCCESS);
      ASSERT_EQ(qnn.graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    Qnn_ContextBinarySize_t size = 0, written = 0;
    ASSERT_EQ(qnn.contextGetBinarySectionSize(context, nullptr, QNN_CONTEXT_SECTION_UPDATABLE, &size), QNN_SUCCESS);
    std::vector<uint8_t> section(size);
    QnnContext_Buffer_t buf{};
    buf.version = QNN_CONTEXT_BUFFER_VERSION_1;
    buf.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    buf.v1.binaryBuf = {section.data(), size};
    ASSERT_EQ(qnn.contextGetBinarySection(context, nullptr, QNN_CONTEXT_SECTION_UPDATABLE, &buf, &written, nullptr,
                                          nullptr),
              QNN_SUCCESS);
    section.resize(written);
    EXPECT_EQ(qnn.contextFree(context, nullptr), QNN_SUCCESS);
    EXPECT_EQ(qnn.backendFree(backend), QNN_SUCCESS);

    const QnnSystemContext_BinaryInfo_t* info = nullptr;
    ASSERT_EQ(getInfo(section, &info), QNN_SUCCESS);
    const QnnSystemContext_GraphInfo_t* infos = nullptr;
    uint32_t numGraphs = 0;
    if (htp) {
      ASSERT_EQ(info->version, QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3);
      const auto& v = info->contextBinaryInfoV3;
      EXPECT_EQ(v.backendId, uint32_t(QNN_BACKEND_ID_HTP));
      EXPECT_EQ(v.contextBlobSize, section.size());
      EXPECT_EQ(v.contextBlobVersion.major, 1u);  // the section format's major version
      EXPECT_EQ(v.numContextTensors, 0u);
      infos = v.graphs;
      numGraphs = v.numGraphs;
    } else {
      ASSERT_EQ(info->version, QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2);
      const auto& v = info->contextBinaryInfoV2;
      EXPECT_EQ(v.backendId, uint32_t(QNN_BACKEND_ID_CPU));
      EXPECT_EQ(v.contextBlobSize, section.size());
      infos = v.graphs;
      numGraphs = v.numGraphs;
    }
    ASSERT_EQ(numGraphs, graphs.size());
    ASSERT_NE(infos, nullptr);
    for (uint32_t i = 0; i < numGraphs; ++i) {
      SCOPED_TRACE(graphs[i].first);
      const Qnn_Tensor_t* updateable = nullptr;
      if (htp) {
        ASSERT_EQ(infos[i].version, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3);
        const auto& g = infos[i].graphInfoV3;
        EXPECT_STREQ(g.graphName, graphs[i].first.c_str());
        EXPECT_EQ(g.numGraphInputs, 0u);
        EXPECT_EQ(g.numGraphOutputs, 0u);
        ASSERT_EQ(g.numUpdateableTensors, 1u);
        updateable = g.updateableTensors;
      } else {
        ASSERT_EQ(infos[i].version, QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1);
        const auto& g = infos[i].graphInfoV1;
        EXPECT_STREQ(g.graphName, graphs[i].first.c_str());
        EXPECT_EQ(g.numGraphInputs, 0u);
        EXPECT_EQ(g.numGraphOutputs, 0u);
      }
      if (updateable) {
        EXPECT_STREQ(updateable->v1.name, (graphs[i].first + "_a").c_str());
        EXPECT_EQ(updateable->v1.type, QNN_TENSOR_TYPE_UPDATEABLE_STATIC);
        ASSERT_EQ(updateable->v1.rank, 2u);
        EXPECT_EQ(updateable->v1.dimensions[1], graphs[i].second);
      }
    }
    // A damaged section is refused like a damaged binary.
    std::vector<uint8_t> corrupted = section;
    corrupted[corrupted.size() - 2] ^= 0x5a;
    const QnnSystemContext_BinaryInfo_t* none = nullptr;
    EXPECT_EQ(getInfo(corrupted, &none), QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY);
    EXPECT_EQ(none, nullptr);
  }
}

TEST_F(SystemLibrary, InvalidArgumentsAreRefused) {
  std::vector<uint8_t> bytes = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t infoSize = 0;
  EXPECT_EQ(api().systemContextCreate(nullptr), QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemContextGetBinaryInfo(ctx, nullptr, bytes.size(), &info, &infoSize),
            QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemContextGetBinaryInfo(ctx, bytes.data(), 0, &info, &infoSize),
            QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemContextGetBinaryInfo(ctx, bytes.data(), bytes.size(), nullptr, &infoSize),
            QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemContextGetBinaryInfo(ctx, bytes.data(), bytes.size(), &info, nullptr),
            QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemContextGetMetaData(ctx, nullptr, bytes.size(), &info), QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemContextGetMetaData(ctx, bytes.data(), bytes.size(), nullptr),
            QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(info, nullptr);
}

TEST_F(SystemLibrary, NullFreedAndForgedHandlesAreRefused) {
  std::vector<uint8_t> bytes = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t infoSize = 0;
  QnnSystemContext_Handle_t freed = nullptr;
  ASSERT_EQ(api().systemContextCreate(&freed), QNN_SUCCESS);
  ASSERT_EQ(api().systemContextFree(freed), QNN_SUCCESS);
  int local = 0;
  QnnSystemContext_Handle_t forged = &local;
  for (QnnSystemContext_Handle_t h : {QnnSystemContext_Handle_t(nullptr), freed, forged}) {
    EXPECT_EQ(api().systemContextGetBinaryInfo(h, bytes.data(), bytes.size(), &info, &infoSize),
              QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE);
    EXPECT_EQ(api().systemContextGetBinaryInfo(h, bytes.data(), bytes.size(), &info, nullptr),
              QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE);
    EXPECT_EQ(api().systemContextGetMetaData(h, bytes.data(), bytes.size(), &info),
              QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE);
    EXPECT_EQ(api().systemContextFree(h), QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE);
  }
  EXPECT_EQ(info, nullptr);
}

TEST_F(SystemLibrary, HandlesAreIndependent) {
  QnnSystemContext_Handle_t other = nullptr;
  ASSERT_EQ(api().systemContextCreate(&other), QNN_SUCCESS);
  EXPECT_NE(other, ctx);
  std::vector<uint8_t> bytes = fixture().bytes;
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  ASSERT_EQ(getInfo(bytes, &info), QNN_SUCCESS);
  // Freeing another handle leaves this one's info intact.
  ASSERT_EQ(api().systemContextFree(other), QNN_SUCCESS);
  expectMatchesFixture(*info, fixture());
}

}  // namespace
}  // namespace qnn::test
