// libQnnHtpNetRunExtensions.so: the OpenQNN backend extension of the HTP. It
// turns the extension config file (htp_extension_config.h) into QnnHtpGraph /
// QnnHtpDevice / QnnHtpContext custom configs the tools pass to QnnGraph_create,
// QnnDevice_create and QnnContext_create. Interface and lifetimes: openqnn_backend_extension.h.
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "HTP/QnnHtpContext.h"
#include "HTP/QnnHtpDevice.h"
#include "HTP/QnnHtpGraph.h"
#include "tools/common/openqnn_backend_extension.h"
#include "tools/extensions/htp/htp_extension_config.h"

namespace qnn::htpext {
namespace {

// Appends a custom config and the QNN config wrapping it. Deques: the wrappers
// and the handed-out lists point into them, so entries never move.
template <typename Custom, typename Config, typename Option>
void appendCustom(std::deque<Custom>& customs, std::deque<Config>& configs, const Custom& custom, Option option) {
  customs.push_back(custom);
  Config config{};
  config.option = option;
  config.customConfig = &customs.back();
  configs.push_back(config);
}

// The configs of one graph.
struct GraphConfigs {
  std::string name;
  std::deque<QnnHtpGraph_CustomConfig_t> custom;
  std::deque<QnnGraph_Config_t> configs;
  std::vector<const QnnGraph_Config_t*> list;

  void add(const QnnHtpGraph_CustomConfig_t& c) { appendCustom(custom, configs, c, QNN_GRAPH_CONFIG_OPTION_CUSTOM); }
  void optimization(QnnHtpGraph_OptimizationType_t type, float value) {
    QnnHtpGraph_CustomConfig_t c = QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT;
    c.option = QNN_HTP_GRAPH_CONFIG_OPTION_OPTIMIZATION;
    c.optimizationOption.type = type;
    c.optimizationOption.floatValue = value;
    add(c);
  }
};

class HtpExtension final : public tools::OpenQnnBackendExtension {
 public:
  bool loadConfig(const char* configPath) override {
    try {
      ExtensionConfig config = readExtensionConfig(configPath ? configPath : "");
      warnings_ = std::move(config.warnings);
      for (const auto& g : config.graphs)
        for (const auto& name : g.names) buildGraph(name, g);
      if (config.device) buildDevice(*config.device);
      if (config.weightSharing) {
        QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
        c.option = QNN_HTP_CONTEXT_CONFIG_OPTION_WEIGHT_SHARING_ENABLED;
        c.weightSharingEnabled = *config.weightSharing;
        appendCustom(contextCustom_, contextConfigs_, c, QNN_CONTEXT_CONFIG_OPTION_CUSTOM);
        contextList_ = {&contextConfigs_.back(), nullptr};
      }
      return true;
    } catch (const std::exception& e) {
      error_ = e.what();
      return false;
    }
  }
  const char* lastError() const override { return error_.c_str(); }
  uint32_t numWarnings() const override { return static_cast<uint32_t>(warnings_.size()); }
  const char* warning(uint32_t i) const override { return i < warnings_.size() ? warnings_[i].c_str() : nullptr; }

  const QnnDevice_Config_t** deviceConfigs() const override {
    return deviceList_.empty() ? nullptr : const_cast<const QnnDevice_Config_t**>(deviceList_.data());
  }
  // context.weight_sharing_enabled: QNN_HTP_CONTEXT_CONFIG_OPTION_WEIGHT_SHARING_ENABLED.
  const QnnContext_Config_t** contextConfigs() const override {
    return contextList_.empty() ? nullptr : const_cast<const QnnContext_Config_t**>(contextList_.data());
  }

  uint32_t numGraphNames() const override { return static_cast<uint32_t>(graphs_.size()); }
  const char* graphName(uint32_t i) const override { return i < graphs_.size() ? graphs_[i].name.c_str() : nullptr; }
  const QnnGraph_Config_t** graphConfigs(const char* name) const override {
    for (const auto& g : graphs_)
      if (name && g.name == name) return const_cast<const QnnGraph_Config_t**>(g.list.data());
    return nullptr;
  }

 private:
  void buildGraph(const std::string& name, const GraphSettings& s) {
    GraphConfigs& g = graphs_.emplace_back();
    g.name = name;
    // Precision first: the backend decides at addNode whether floats are accepted.
    if (s.fp16) {
      QnnHtpGraph_CustomConfig_t c = QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT;
      c.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
      c.precision = QNN_PRECISION_FLOAT16;
      g.add(c);
    }
    QnnHtpGraph_CustomConfig_t vtcm = QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT;
    vtcm.option = QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE;
    vtcm.vtcmSizeInMB = s.vtcmMB;
    g.add(vtcm);
    if (s.optimizationLevel)
      g.optimization(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, static_cast<float>(*s.optimizationLevel));
    if (s.dlbc) g.optimization(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_DLBC, *s.dlbc ? 1.f : 0.f);
    if (s.hvxThreads) {
      QnnHtpGraph_CustomConfig_t c = QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT;
      c.option = QNN_HTP_GRAPH_CONFIG_OPTION_NUM_HVX_THREADS;
      c.numHvxThreads = *s.hvxThreads;
      g.add(c);
    }
    for (const auto& c : g.configs) g.list.push_back(&c);
    g.list.push_back(nullptr);
  }

  void addDevice(const QnnHtpDevice_CustomConfig_t& c) {
    appendCustom(deviceCustom_, deviceConfigs_, c, QNN_DEVICE_CONFIG_OPTION_CUSTOM);
  }

  void buildDevice(const DeviceSettings& s) {
    if (s.socModel) {
      QnnHtpDevice_CustomConfig_t c{};
      c.option = QNN_HTP_DEVICE_CONFIG_OPTION_SOC;
      c.socModel = *s.socModel;
      addDevice(c);
    }
    if (s.arch) {
      QnnHtpDevice_CustomConfig_t c{};
      c.option = QNN_HTP_DEVICE_CONFIG_OPTION_ARCH;
      c.arch.deviceId = s.deviceId;
      c.arch.arch = static_cast<QnnHtpDevice_Arch_t>(*s.arch);
      addDevice(c);
    }
    if (s.signedPd) {
      QnnHtpDevice_CustomConfig_t c{};
      c.option = QNN_HTP_DEVICE_CONFIG_OPTION_SIGNEDPD;
      c.useSignedProcessDomain.deviceId = s.deviceId;
      c.useSignedProcessDomain.useSignedProcessDomain = *s.signedPd;
      addDevice(c);
    }
    for (const auto& d : deviceConfigs_) deviceList_.push_back(&d);
    if (!deviceList_.empty()) deviceList_.push_back(nullptr);
  }

  std::string error_;
  std::vector<std::string> warnings_;
  std::deque<GraphConfigs> graphs_;
  std::deque<QnnHtpDevice_CustomConfig_t> deviceCustom_;
  std::deque<QnnDevice_Config_t> deviceConfigs_;
  std::vector<const QnnDevice_Config_t*> deviceList_;
  std::deque<QnnHtpContext_CustomConfig_t> contextCustom_;
  std::deque<QnnContext_Config_t> contextConfigs_;
  std::vector<const QnnContext_Config_t*> contextList_;
};

}  // namespace
}  // namespace qnn::htpext

extern "C" {

__attribute__((visibility("default"))) qnn::tools::OpenQnnBackendExtension* createBackendInterface() {
  try {
    return new qnn::htpext::HtpExtension();
  } catch (...) {
    return nullptr;
  }
}

__attribute__((visibility("default"))) void destroyBackendInterface(qnn::tools::OpenQnnBackendExtension* extension) {
  delete extension;
}

__attribute__((visibility("default"))) uint32_t OpenQnnBackendExtension_interfaceVersion() {
  return qnn::tools::kOpenQnnExtensionInterfaceVersion;
}

}  // extern "C"
