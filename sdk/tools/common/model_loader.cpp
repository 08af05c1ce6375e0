#include "tools/common/model_loader.h"

#include <cstddef>
#include <cstring>
#include <utility>

#include "adapters/client_layouts.h"
#include "adapters/client_interface.h"
#include "tools/common/log_level.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

// A by-value interface table of N members: passed exactly as the QNN_INTERFACE_VER_TYPE of
// headers whose table has N members (a struct of N pointers, in memory on x86_64 and by
// reference to a caller's copy on aarch64).
template <size_t N>
struct Table {
  const void* slots[N];
};

struct ComposeArgs {
  Qnn_BackendHandle_t backend;
  Qnn_ContextHandle_t context;
  const GraphConfigInfo_t** configs;
  uint32_t numConfigs;
  const char* dlcPath;  // non-null: <prefix>_composeGraphsFromDlc
  GraphInfoPtr_t** info;
  uint32_t* count;
  bool debug;
  QnnLog_Callback_t log;
  QnnLog_Level_t level;
};

template <size_t N>
ModelError_t callWith(void* fn, const std::vector<const void*>& slots, const ComposeArgs& a) {
  Table<N> t;
  std::memcpy(t.slots, slots.data(), sizeof t.slots);
  if (a.dlcPath) {
    using F = ModelError_t (*)(Qnn_BackendHandle_t, Table<N>, Qnn_ContextHandle_t, const GraphConfigInfo_t**,
                               const char*, const uint32_t, GraphInfoPtr_t**, uint32_t*, bool, QnnLog_Callback_t,
                               QnnLog_Level_t);
    return reinterpret_cast<F>(fn)(a.backend, t, a.context, a.configs, a.dlcPath, a.numConfigs, a.info, a.count,
                                   a.debug, a.log, a.level);
  }
  using F = ModelError_t (*)(Qnn_BackendHandle_t, Table<N>, Qnn_ContextHandle_t, const GraphConfigInfo_t**,
                             const uint32_t, GraphInfoPtr_t**, uint32_t*, bool, QnnLog_Callback_t, QnnLog_Level_t);
  return reinterpret_cast<F>(fn)(a.backend, t, a.context, a.configs, a.numConfigs, a.info, a.count, a.debug, a.log,
                                 a.level);
}

ModelError_t callCompose(void* fn, const std::vector<const void*>& slots, const ComposeArgs& a) {
  switch (slots.size()) {
#define QNN_TABLE_CASE(n) \
  case n:                 \
    return callWith<n>(fn, slots, a);
    QNN_TABLE_CASE(44) QNN_TABLE_CASE(48) QNN_TABLE_CASE(51) QNN_TABLE_CASE(54) QNN_TABLE_CASE(55)
    QNN_TABLE_CASE(56) QNN_TABLE_CASE(59) QNN_TABLE_CASE(62) QNN_TABLE_CASE(64) QNN_TABLE_CASE(66)
    QNN_TABLE_CASE(67) QNN_TABLE_CASE(68) QNN_TABLE_CASE(69) QNN_TABLE_CASE(71) QNN_TABLE_CASE(75)
#undef QNN_TABLE_CASE
    default:
      throw ToolError("no by-value interface table of " + std::to_string(slots.size()) + " members");
  }
}
static_assert(sizeof(QNN_INTERFACE_VER_TYPE) == 71 * sizeof(void*), "the current table is API 2.32's");

// The members handed to a library built against API 2.<minor>. From 2.14 on the tensor layout
// is the current one and every table is a prefix of the next: the current table, cut or padded
// with nulls. Before 2.14 the backend's adapters for that client layout (adapters/client_interface.h).
std::vector<const void*> tableFor(const ModelApi& m, const QnnBackend& backend, const QNN_INTERFACE_VER_TYPE* api) {
  std::vector<const void*> slots(m.members, nullptr);
  const std::string version = "2." + std::to_string(m.minor);
  if (m.minor >= 14) {
    const auto* current = reinterpret_cast<const void* const*>(api ? api : &backend.api());
    std::memcpy(slots.data(), current, std::min<size_t>(m.members, 71) * sizeof(void*));
    return slots;
  }
  if (api)
    throw ToolError("a model library of QNN API " + version +
                    " cannot compose through this tool's recording interface (adapter use cases need a library "
                    "of API 2.14 or newer)");
  using ForClient = Qnn_ErrorHandle_t (*)(uint32_t, uint32_t, const void***, uint32_t*);
  auto forClient = reinterpret_cast<ForClient>(backend.symbol("OpenQnn_getProvidersForClientApi"));
  if (!forClient)
    throw ToolError("a model library of QNN API " + version + " creates tensors in that version's layout: it needs an "
                    "OpenQNN backend (the backend '" + backend.path() + "' has no adapters for it)");
  const void** list = nullptr;
  uint32_t n = 0;
  if (forClient(2, m.minor, &list, &n) != QNN_SUCCESS || n == 0 || !list || !list[0])
    throw ToolError("the backend has no interface for a model library of QNN API " + version);
  // The provider header (backendId, name, versions) is 40 bytes in every version; the table follows.
  const auto* provider = static_cast<const unsigned char*>(list[0]);
  std::memcpy(slots.data(), provider + offsetof(QnnInterface_t, QNN_INTERFACE_VER_NAME), m.members * sizeof(void*));
  return slots;
}

}  // namespace

ModelLibrary::ModelLibrary() = default;
ModelLibrary::~ModelLibrary() { release(); }

void ModelLibrary::release() {
  if (info_ && free_) free_(&info_, count_);
  info_ = nullptr;
  count_ = 0;
  graphs_.clear();
  convertedInfo_.clear();
  converted_.reset();
}

void ModelLibrary::load(const std::string& path, const std::string& prefix, const std::string& dlcPath) {
  if (!lib_.open(path)) throw ToolError("cannot load model library '" + path + "': " + lib_.error());
  dlcPath_ = dlcPath;
  const std::string composeName = prefix + (dlcPath.empty() ? "_composeGraphs" : "_composeGraphsFromDlc");
  const std::string freeName = prefix + "_freeGraphsInfo";
  if (dlcPath.empty())
    compose_ = lib_.function<ComposeGraphsFnHandleType_t>(composeName.c_str());
  else
    composeFromDlc_ = lib_.function<ComposeGraphsFromDlcFnHandleType_t>(composeName.c_str());
  free_ = lib_.function<FreeGraphInfoFnHandleType_t>(freeName.c_str());
  if ((!compose_ && !composeFromDlc_) || !free_)
    throw ToolError("model library '" + path + "' does not export " +
                    (!compose_ && !composeFromDlc_ ? composeName : freeName) +
                    (dlcPath.empty() ? " (check --model_prefix)" : " (--dlc_path needs libQnnModelDlc.so as --model)"));
  modelApi_ = compose_ ? modelApiOf(reinterpret_cast<const void*>(compose_))
                       : modelApiOf(reinterpret_cast<const void*>(composeFromDlc_), true);
}

void ModelLibrary::compose(const QnnBackend& backend, Qnn_ContextHandle_t context,
                           const std::vector<const GraphConfigInfo_t*>& configs, bool debug,
                           const QNN_INTERFACE_VER_TYPE* api) {
  release();
  const GraphConfigInfo_t** configArray =
      configs.empty() ? nullptr : const_cast<const GraphConfigInfo_t**>(configs.data());
  QnnLog_Callback_t log = backend.logLevel() != 0 ? stderrLogCallback : nullptr;
  const ModelApi& m = modelApi_;
  const std::string layout = "model library '" + lib_.path() + "': QNN API 2." + std::to_string(m.minor) + ", " +
                             std::to_string(m.members) + "-member interface table (" + m.how + ")";
  if (!m.certain && m.minor != QNN_API_VERSION_MINOR) logLine(QNN_LOG_LEVEL_WARN, backend.logLevel(), layout);
  else logLine(QNN_LOG_LEVEL_VERBOSE, backend.logLevel(), layout);
  const std::vector<const void*> slots = tableFor(m, backend, api);
  const ComposeArgs args{backend.backend(), context, configArray, static_cast<uint32_t>(configs.size()),
                         composeFromDlc_ ? dlcPath_.c_str() : nullptr, &info_, &count_, debug, log,
                         backend.logLevel()};
  void* fn = composeFromDlc_ ? reinterpret_cast<void*>(composeFromDlc_) : reinterpret_cast<void*>(compose_);
  ModelError_t err = callCompose(fn, slots, args);
  const std::string what = composeFromDlc_ ? "the DLC '" + dlcPath_ + "'" : "the graphs of '" + lib_.path() + "'";
  if (err != MODEL_NO_ERROR)
    throw ToolError("composing " + what + " failed (model error " + std::to_string(err) +
                    (err == MODEL_FILE_ERROR ? ": the file is missing, damaged or not a DLC" : "") +
                    ")");
  if (!info_ || count_ == 0) throw ToolError("model library '" + lib_.path() + "' composed no graphs");
  for (uint32_t i = 0; i < count_; ++i)
    if (!info_[i] || !info_[i]->graphName) throw ToolError("model library '" + lib_.path() + "' returned an empty graph entry");
  const adapters::ClientLayout clientLayout = adapters::layoutForMinor(m.minor);
  if (clientLayout.tensorStride == sizeof(Qnn_Tensor_t)) {
    for (uint32_t i = 0; i < count_; ++i) graphs_.push_back(info_[i]);
    return;
  }
  // Tensor arrays at the library's stride, copied into the current layout.
  converted_ = std::make_unique<adapters::Converted>(clientLayout);
  convertedInfo_.reserve(count_);
  for (uint32_t i = 0; i < count_; ++i) {
    GraphInfo_t copy = *info_[i];
    copy.inputTensors = converted_->tensors(info_[i]->inputTensors, info_[i]->numInputTensors);
    copy.outputTensors = converted_->tensors(info_[i]->outputTensors, info_[i]->numOutputTensors);
    convertedInfo_.push_back(copy);
  }
  for (auto& info : convertedInfo_) graphs_.push_back(&info);
}

}  // namespace qnn::tools
