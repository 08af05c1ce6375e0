#include "tools/common/qnn_backend.h"

#include "QnnBackend.h"
#include "QnnCommon.h"
#include "tools/common/arg_parser.h"
#include "tools/common/log_level.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {

std::vector<OpPackageSpec> parseOpPackages(const std::string& value, bool allowTarget) {
  std::vector<OpPackageSpec> out;
  for (const auto& item : splitString(value, ',')) {
    auto parts = splitString(item, ':');
    if (parts.size() < 2 || parts.size() > (allowTarget ? 3u : 2u) || parts[0].empty() || parts[1].empty())
      throw UsageError("--op_packages entry '" + item + "' must be " +
                       (allowTarget ? "path:interface_provider[:target]" : "path:interface_provider"));
    OpPackageSpec s{parts[0], parts[1], parts.size() == 3 ? parts[2] : ""};
    if (!s.target.empty() && s.target != "CPU" && s.target != "HTP")
      throw UsageError("--op_packages target must be CPU or HTP, got '" + s.target + "'");
    out.push_back(s);
  }
  return out;
}

QnnBackend::~QnnBackend() {
  if (device_ && api_.deviceFree) api_.deviceFree(device_);
  if (backend_ && api_.backendFree) api_.backendFree(backend_);
  if (log_ && api_.logFree) api_.logFree(log_);
}

void QnnBackend::load(const std::string& path, QnnLog_Level_t logLevel, const QnnDevice_Config_t** deviceConfigs,
                      QnnLog_Callback_t logCallback) {
  if (!lib_.open(path)) throw ToolError("cannot load backend '" + path + "': " + lib_.error());
  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
  auto get = lib_.function<GetProviders>("QnnInterface_getProviders");
  if (!get) throw ToolError("'" + path + "' is not a QNN backend (no QnnInterface_getProviders)");
  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (get(&providers, &n) != QNN_SUCCESS || n == 0 || !providers)
    throw ToolError("backend '" + path + "' reports no interface providers");
  const QnnInterface_t* chosen = nullptr;
  for (uint32_t i = 0; i < n && !chosen; ++i) {
    const Qnn_Version_t& v = providers[i]->apiVersion.coreApiVersion;
    if (v.major == QNN_API_VERSION_MAJOR && v.minor >= QNN_API_VERSION_MINOR) chosen = providers[i];
  }
  if (!chosen) throw ToolError("backend '" + path + "' has no provider for QNN API " +
                               std::to_string(QNN_API_VERSION_MAJOR) + "." + std::to_string(QNN_API_VERSION_MINOR));
  api_ = chosen->QNN_INTERFACE_VER_NAME;
  logLevel_ = logLevel;
  if (logLevel != 0 && api_.logCreate) check(api_.logCreate(logCallback ? logCallback : stderrLogCallback, logLevel, &log_), "QnnLog_create");
  if (!api_.backendCreate) throw ToolError("backend '" + path + "' does not implement QnnBackend_create");
  check(api_.backendCreate(log_, nullptr, &backend_), "QnnBackend_create");
  // A backend without devices answers NOT_SUPPORTED; it then runs without one,
  // unless device configs were asked for.
  if (deviceConfigs && !api_.deviceCreate)
    throw ToolError("backend '" + path + "' has no QnnDevice_create for the backend extension's device configs");
  if (api_.deviceCreate) {
    Qnn_ErrorHandle_t st = api_.deviceCreate(log_, deviceConfigs, &device_);
    if (st != QNN_SUCCESS) device_ = nullptr;
    if (deviceConfigs) check(st, "QnnDevice_create with the backend extension's device configs");
  }
}

void QnnBackend::registerOpPackages(const std::vector<OpPackageSpec>& packages) {
  for (const auto& p : packages) {
    if (!api_.backendRegisterOpPackage) throw ToolError("backend does not implement QnnBackend_registerOpPackage");
    check(api_.backendRegisterOpPackage(backend_, p.path.c_str(), p.provider.c_str(),
                                        p.target.empty() ? nullptr : p.target.c_str()),
          "registering op package '" + p.path + "' (" + p.provider + ")");
  }
}

std::string QnnBackend::buildId() const {
  const char* id = nullptr;
  if (api_.backendGetBuildId && api_.backendGetBuildId(&id) == QNN_SUCCESS && id) return id;
  return "";
}

std::string QnnBackend::describe(Qnn_ErrorHandle_t status) const {
  std::string msg;
  const char* text = nullptr;
  if (api_.errorGetMessage && api_.errorGetMessage(status, &text) == QNN_SUCCESS && text && *text) msg = text;
  const uint32_t code = static_cast<uint32_t>(QNN_GET_ERROR_CODE(status));
  // NOT_SUPPORTED (common 1000, backend 4003) is the answer users most need spelled out.
  if (code == QNN_COMMON_ERROR_NOT_SUPPORTED || code == QNN_BACKEND_ERROR_NOT_SUPPORTED)
    msg = "not supported by this backend" + (msg.empty() ? std::string() : ": " + msg);
  if (msg.empty()) msg = "backend error";
  return msg + " (error " + std::to_string(code) + ")";
}

void QnnBackend::check(Qnn_ErrorHandle_t status, const std::string& what) const {
  if (status != QNN_SUCCESS) throw ToolError(what + " failed: " + describe(status));
}

}  // namespace qnn::tools
