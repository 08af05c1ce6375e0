#include "htp_sim/htp_hooks.h"

#include <string>

#include "HTP/QnnHtpContext.h"
#include "HTP/QnnHtpDevice.h"
#include "HTP/QnnHtpMem.h"
#include "HTP/QnnHtpProperty.h"
#include "htp_sim/htp_options.h"
#include "htp_sim/htp_perf_infra.h"

namespace qnn::htp {
namespace {

// One on-chip HTP device with one core, described by the HTP extension struct.
class HtpPlatformInfo : public sdk::PlatformInfoStorage {
 public:
  explicit HtpPlatformInfo(const GraphOptions& o) {
    ext_.devType = QNN_HTP_DEVICE_TYPE_ON_CHIP;
    ext_.onChipDevice.vtcmSize = deviceVtcmMB(o.socModel, o.arch);
    ext_.onChipDevice.socModel = o.socModel;
    ext_.onChipDevice.signedPdSupport = true;
    ext_.onChipDevice.dlbcSupport = o.arch >= 73;
    ext_.onChipDevice.arch = static_cast<QnnHtpDevice_Arch_t>(o.arch);
    core_.version = QNN_DEVICE_CORE_INFO_VERSION_1;
    core_.v1.coreId = 0;
    core_.v1.coreType = 0;
    core_.v1.coreInfoExtension = nullptr;
    device_.version = QNN_DEVICE_HARDWARE_DEVICE_INFO_VERSION_1;
    device_.v1.deviceId = 0;
    device_.v1.deviceType = QNN_HTP_DEVICE_TYPE_ON_CHIP;
    device_.v1.numCores = 1;
    device_.v1.cores = &core_;
    device_.v1.deviceInfoExtension = reinterpret_cast<QnnDevice_DeviceInfoExtension_t>(&ext_);
    info_.version = QNN_DEVICE_PLATFORM_INFO_VERSION_1;
    info_.v1.numHwDevices = 1;
    info_.v1.hwDevices = &device_;
  }
  const QnnDevice_PlatformInfo_t* info() const override { return &info_; }

 private:
  QnnHtpDevice_DeviceInfoExtension_t ext_{};
  QnnDevice_CoreInfo_t core_{};
  QnnDevice_HardwareDeviceInfo_t device_{};
  QnnDevice_PlatformInfo_t info_{};
};

class HtpHooks : public sdk::BackendHooks {
 public:
  sdk::Status applyBackendCustomConfig(const void*) override {
    // The API version of these headers defines no HTP backend custom config.
    return sdk::invalidArgument("the HTP backend defines no backend custom config (QnnHtpBackend.h)");
  }
  sdk::Status applyContextCustomConfig(const void* custom, sdk::BackendSettings* settings,
                                       sdk::ConfigWarnings* warnings) override {
    return htp::applyContextCustomConfig(custom, settings, warnings);
  }
  sdk::Status applyDeviceCustomConfig(const void* custom, sdk::BackendSettings* settings,
                                      sdk::ConfigWarnings* warnings) override {
    return htp::applyDeviceCustomConfig(custom, settings, warnings);
  }
  sdk::Status applyDevicePlatformInfo(const QnnDevice_PlatformInfo_t& info, sdk::BackendSettings* settings,
                                      sdk::ConfigWarnings* warnings) override {
    return htp::applyDevicePlatformInfo(info, settings, warnings);
  }
  std::unique_ptr<sdk::PlatformInfoStorage> platformInfo(const sdk::BackendSettings& settings) override {
    return std::make_unique<HtpPlatformInfo>(resolveGraphOptions(settings));
  }
  sdk::Status getInfrastructure(const QnnDevice_Infrastructure_t* infra) override {
    *const_cast<QnnDevice_Infrastructure_t*>(infra) =
        reinterpret_cast<QnnDevice_Infrastructure_t>(const_cast<QnnHtpDevice_Infrastructure_t*>(perfInfrastructure()));
    return sdk::Status::ok();
  }
  sdk::Status checkGlobalSocModel(uint32_t socModel) override {
    return checkSocHasHtp(socModel, "QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL");
  }
  // QnnHtpContext_CustomProperty_t: the buffers a client may provide for a loaded
  // context (weights, spill-fill scratch) and where they must start.
  sdk::Status checkContextCustomProperty(const void* custom) override {
    switch (static_cast<const QnnHtpContext_CustomProperty_t*>(custom)->option) {
      case QNN_HTP_CONTEXT_GET_PROP_BUFFER_START_ALIGNMENT:
      case QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE:
      case QNN_HTP_CONTEXT_GET_PROP_WEIGHTS_BUFFER_SIZE:
      case QNN_HTP_CONTEXT_GET_PROP_MAX_VTCMBACKUP_BUFFER_SIZE:
        return sdk::Status::ok();
      default:
        return sdk::invalidArgument("unknown HTP context property option " +
                                    std::to_string(static_cast<const QnnHtpContext_CustomProperty_t*>(custom)->option));
    }
  }
  void answerContextCustomProperty(void* custom, const sdk::ContextMemoryFacts& facts) override {
    auto* p = static_cast<QnnHtpContext_CustomProperty_t*>(custom);
    switch (p->option) {
      case QNN_HTP_CONTEXT_GET_PROP_BUFFER_START_ALIGNMENT: p->bufferStartAlignment = bufferAlignment(); break;
      case QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE: p->spillfillBufferSize = facts.maxScratchBytes; break;
      case QNN_HTP_CONTEXT_GET_PROP_WEIGHTS_BUFFER_SIZE: p->weightsBufferSize = facts.weightsBytes; break;
      // API 2.39: the buffer VTCM contents are saved to when the context yields the HTP. The
      // simulator's VTCM is host memory owned by each execution, never saved: none is needed.
      case QNN_HTP_CONTEXT_GET_PROP_MAX_VTCMBACKUP_BUFFER_SIZE: p->vtcmBackupBufferSize = 0; break;
      default: break;
    }
  }
  // QnnMemHtp_Descriptor_t: a shared buffer (one rpcmem allocation holding
  // several tensors at offsets, as ExecuTorch's and ONNX Runtime's HTP clients
  // register it) maps like any fd here. QURT addresses name DSP memory, which
  // has no meaning off the device; weights and spill-fill buffers are handed to
  // a context, not registered for a tensor.
  sdk::Status customMemory(const void* customInfo, sdk::FdRegion* out) override {
    if (!customInfo)
      return sdk::invalidArgument("QNN_MEM_TYPE_CUSTOM needs customInfo pointing to a QnnMemHtp_Descriptor_t");
    const auto* d = static_cast<const QnnMemHtp_Descriptor_t*>(customInfo);
    switch (d->type) {
      case QNN_HTP_MEM_SHARED_BUFFER:
        out->fd = d->sharedBufferConfig.fd;
        out->offset = d->sharedBufferConfig.offset;
        out->totalSize = d->size;
        return sdk::Status::ok();
      case QNN_HTP_MEM_QURT:
        return {sdk::StatusCode::kNotSupported, "QNN_HTP_MEM_QURT addresses exist only on the device"};
      default:
        return {sdk::StatusCode::kNotSupported,
                "QnnMemHtp_Descriptor_t type " + std::to_string(static_cast<int>(d->type)) +
                    " is not a tensor memory type (QNN_HTP_MEM_SHARED_BUFFER is)"};
    }
  }
  // The HVX vector length (1024 bits): every simulated buffer starts on a vector.
  uint64_t bufferAlignment() const override { return 128; }
  bool hasCapability(QnnProperty_Key_t key, Qnn_ErrorHandle_t* answer) override {
    // QnnHtpContext_CustomProperty_t (answerContextCustomProperty).
    if (key == QNN_PROPERTY_DEVICE_SUPPORT_INFRASTRUCTURE || key == QNN_PROPERTY_CONTEXT_SUPPORT_CUSTOM_PROPERTY) {
      *answer = QNN_PROPERTY_SUPPORTED;
      return true;
    }
    if (key == QNN_PROPERTY_CUSTOM_HTP_UNSIGNED_PD_SUPPORT) {
      *answer = QNN_PROPERTY_SUPPORTED;
      return true;
    }
    if (key == QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_MICROSCALING) {  // htpAcceptsTensor refuses it
      *answer = QNN_PROPERTY_NOT_SUPPORTED;
      return true;
    }
    return false;
  }
};

}  // namespace

std::shared_ptr<sdk::BackendHooks> createHtpHooks() { return std::make_shared<HtpHooks>(); }

}  // namespace qnn::htp
