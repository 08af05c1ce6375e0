#include "htp_options.h"

#include <cmath>

#include "HTP/QnnHtpContext.h"
#include "HTP/QnnHtpDevice.h"
#include "HTP/QnnHtpGraph.h"

namespace qnn::htp {
namespace {

uint32_t get(const Settings& s, const char* key, uint32_t def) {
  auto it = s.find(key);
  return it == s.end() ? def : static_cast<uint32_t>(std::stoul(it->second));
}

// The SoC the settings name: the device config's, else QnnGlobalConfig_Set's
// unless the device config chose an architecture that SoC does not have.
uint32_t socOf(const Settings& s) {
  if (uint32_t soc = get(s, "device.soc", 0)) return soc;
  uint32_t global = get(s, "global.soc", 0);
  const SocInfo* info = findSoc(global);
  if (!info) return 0;
  uint32_t arch = get(s, "device.arch", 0);
  return arch == 0 || arch == info->arch ? global : 0;
}

// The architecture of the settings' device: the arch config, else the SoC's, else the default.
uint32_t archOf(const Settings& s) {
  if (uint32_t a = get(s, "device.arch", 0)) return a;
  if (const SocInfo* soc = findSoc(socOf(s))) return soc->arch;
  return kDefaultArch;
}

}  // namespace

sdk::Status checkSocHasHtp(uint32_t socModel, const char* what) {
  const SocInfo* soc = findSoc(socModel);
  if (!soc)
    return sdk::invalidArgument(std::string(what) + ": SoC model " + std::to_string(socModel) +
                                " is not in the supported SoC table");
  if (!findArch(soc->arch))
    return sdk::invalidArgument(std::string(what) + ": SoC model " + std::to_string(socModel) + " (" + soc->name +
                                ") has no HTP (Hexagon " +
                                (soc->arch ? "V" + std::to_string(soc->arch) : std::string("N/A")) + ")");
  return sdk::Status::ok();
}

GraphOptions resolveGraphOptions(const Settings& s) {
  GraphOptions o;
  o.arch = archOf(s);
  o.socModel = socOf(s);
  if (o.socModel == 0 && !s.count("device.arch")) o.socModel = kDefaultSocModel;
  const ArchInfo* arch = findArch(o.arch);
  o.vtcmMB = get(s, "graph.vtcm_mb", 0);
  if (o.vtcmMB == 0 && arch) o.vtcmMB = arch->vtcmMB;
  o.optMode = get(s, "graph.opt_mode", 0);
  o.fp16 = get(s, "graph.fp16", 0) != 0;
  o.hvxThreads = get(s, "graph.hvx_threads", 0);
  if (o.hvxThreads == 0 && arch) o.hvxThreads = arch->hvxThreads;
  o.foldReluIntoConv = get(s, "graph.fold_relu_off", 0) == 0;
  o.contextPriority = get(s, "context.priority", 0);
  return o;
}

sdk::Status applyDeviceCustomConfig(const void* custom, Settings* s) {
  const auto& c = *static_cast<const QnnHtpDevice_CustomConfig_t*>(custom);
  switch (c.option) {
    case QNN_HTP_DEVICE_CONFIG_OPTION_SOC: {
      QNN_SDK_RETURN_IF_ERROR(checkSocHasHtp(c.socModel, "HTP device config"));
      const SocInfo* soc = findSoc(c.socModel);
      uint32_t arch = get(*s, "device.arch", soc->arch);
      if (arch != soc->arch)
        return sdk::invalidArgument("HTP device config: SoC model " + std::to_string(c.socModel) + " (" + soc->name +
                                    ") is Hexagon V" + std::to_string(soc->arch) + ", the arch config says V" +
                                    std::to_string(arch));
      (*s)["device.soc"] = std::to_string(c.socModel);
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_ARCH: {
      if (c.arch.deviceId != 0)
        return sdk::invalidArgument("HTP device config: device id " + std::to_string(c.arch.deviceId) +
                                    " does not exist (the simulator has device 0)");
      if (c.arch.arch == QNN_HTP_DEVICE_ARCH_NONE) {
        s->erase("device.arch");
        return sdk::Status::ok();
      }
      if (!findArch(c.arch.arch))
        return sdk::invalidArgument("HTP device config: HTP architecture " + std::to_string(c.arch.arch) +
                                    " is not one of V68, V69, V73, V75");
      if (const SocInfo* soc = findSoc(get(*s, "device.soc", 0)); soc && soc->arch != static_cast<uint32_t>(c.arch.arch))
        return sdk::invalidArgument("HTP device config: arch V" + std::to_string(c.arch.arch) + " differs from SoC " +
                                    soc->name + "'s V" + std::to_string(soc->arch));
      (*s)["device.arch"] = std::to_string(c.arch.arch);
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_SIGNEDPD:
      if (c.useSignedProcessDomain.deviceId != 0)
        return sdk::invalidArgument("HTP device config: signed PD for device " +
                                    std::to_string(c.useSignedProcessDomain.deviceId) + ", which does not exist");
      (*s)["device.signed_pd"] = c.useSignedProcessDomain.useSignedProcessDomain ? "1" : "0";
      return sdk::Status::ok();
    default:
      return sdk::invalidArgument("HTP device config: unknown option " + std::to_string(c.option));
  }
}

// QnnHtpContext_CustomConfig_t. The simulator keeps every setting where prepare and
// the runtime can see it ("context.<name>"); none of them changes results.
sdk::Status applyContextCustomConfig(const void* custom, Settings* s) {
  const auto& c = *static_cast<const QnnHtpContext_CustomConfig_t*>(custom);
  auto flag = [s](const char* key, bool value) {
    (*s)[key] = value ? "1" : "0";
    return sdk::Status::ok();
  };
  auto group = [s](const char* key, const QnnHtpContext_GroupRegistration_t& g) {
    if (!g.firstGroupHandle)
      return sdk::invalidArgument(std::string("HTP context config: ") + key +
                                  " needs the handle of the group's first context");
    (*s)[std::string(key) + ".max_spill_fill"] = std::to_string(g.maxSpillFillBuffer);
    (*s)[key] = "1";
    return sdk::Status::ok();
  };
  switch (c.option) {
    case QNN_HTP_CONTEXT_CONFIG_OPTION_WEIGHT_SHARING_ENABLED:
      return flag("context.weight_sharing", c.weightSharingEnabled);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_MULTI_CONTEXTS:
      return group("context.multi_context_group", c.groupRegistration);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_FILE_READ_MEMORY_BUDGET:
      (*s)["context.file_read_budget_mb"] = std::to_string(c.fileReadMemoryBudgetInMb);
      return sdk::Status::ok();
    case QNN_HTP_CONTEXT_CONFIG_OPTION_DSP_MEMORY_PROFILING_ENABLED:
      return flag("context.dsp_memory_profiling", c.dspMemoryProfilingEnabled);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES:
      return flag("context.share_resources", c.shareResources);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_IO_MEM_ESTIMATION:
      return flag("context.io_mem_estimation", c.ioMemEstimation);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_PREPARE_ONLY:
      return flag("context.prepare_only", c.isPrepareOnly);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_INIT_ACCELERATION:
      return flag("context.init_acceleration", c.initAcceleration);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_SKIP_VALIDATION_ON_BINARY_SECTION:
      return flag("context.skip_binary_section_validation", c.skipValidationOnBinarySection);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES_OPTIMIZATION_TYPE:
      if (c.shareResOptType > CONCURRENT_OPTIMIZATION)
        return sdk::invalidArgument("HTP context config: unknown share-resources optimization type " +
                                    std::to_string(c.shareResOptType));
      (*s)["context.share_resources_type"] = std::to_string(c.shareResOptType);
      return sdk::Status::ok();
    case QNN_HTP_CONTEXT_CONFIG_OPTION_USE_EXTENDED_UDMA:
      return flag("context.extended_udma", c.useExtendedUdma);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_CONCURRENT_RESOURCE_SHARING:
      return group("context.concurrent_group", c.concurrentGroupRegistration);
    case QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_WEIGHT_SHARING_ENABLED:
      return flag("context.lora_weight_sharing", c.loraWeightSharingEnabled);
    default:
      return sdk::invalidArgument("HTP context config: unknown option " + std::to_string(c.option));
  }
}

sdk::Status applyGraphCustomConfig(const void* custom, Settings* s, uint32_t* precision) {
  const auto& c = *static_cast<const QnnHtpGraph_CustomConfig_t*>(custom);
  const uint32_t archVersion = archOf(*s);
  const ArchInfo* arch = findArch(archVersion);
  if (!arch) return sdk::invalidArgument("HTP graph config: the device's architecture has no HTP");
  switch (c.option) {
    case QNN_HTP_GRAPH_CONFIG_OPTION_OPTIMIZATION: {
      float v = c.optimizationOption.floatValue;
      switch (c.optimizationOption.type) {
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG:
          if (!(v >= 0.f && v <= 3.f) || v != std::floor(v))
            return sdk::invalidArgument("HTP graph config: finalize optimization mode " + std::to_string(v) +
                                        " is not 0, 1, 2 or 3");
          (*s)["graph.opt_mode"] = std::to_string(static_cast<uint32_t>(v));
          return sdk::Status::ok();
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_SCHEDULE_THRESHOLD:
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_RETRIES:
          if (!(v >= 0.f) || v != std::floor(v))
            return sdk::invalidArgument("HTP graph config: optimization value " + std::to_string(v) +
                                        " must be a non-negative integer");
          (*s)[c.optimizationOption.type == QNN_HTP_GRAPH_OPTIMIZATION_TYPE_SCHEDULE_THRESHOLD
                   ? "graph.schedule_threshold"
                   : "graph.finalize_retries"] = std::to_string(static_cast<uint32_t>(v));
          return sdk::Status::ok();
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_DLBC:
          if (v != 0.f && v != 1.f) return sdk::invalidArgument("HTP graph config: DLBC is enabled with 0 or 1");
          (*s)["graph.dlbc"] = v != 0.f ? "1" : "0";
          return sdk::Status::ok();
        default:
          return sdk::invalidArgument("HTP graph config: unknown optimization type " +
                                      std::to_string(c.optimizationOption.type));
      }
    }
    case QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION:
      if (c.precision == QNN_PRECISION_FLOAT16) {
        if (!arch->fp16)
          return sdk::invalidArgument("HTP graph config: fp16 precision needs an HTP with fp16 (V69 or later); the "
                                      "device is V" + std::to_string(archVersion));
        (*s)["graph.fp16"] = "1";
      } else if (c.precision == QNN_PRECISION_FLOAT32) {
        return sdk::invalidArgument("HTP graph config: the HTP computes floats in fp16 only; QNN_PRECISION_FLOAT32 "
                                    "is not supported");
      } else {
        return sdk::invalidArgument("HTP graph config: unknown precision " + std::to_string(c.precision));
      }
      *precision = c.precision;
      return sdk::Status::ok();
    case QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE:
      if (c.vtcmSizeInMB > arch->vtcmMB)
        return sdk::invalidArgument("HTP graph config: VTCM size " + std::to_string(c.vtcmSizeInMB) +
                                    " MB exceeds the " + std::to_string(arch->vtcmMB) + " MB of HTP V" +
                                    std::to_string(archVersion));
      (*s)["graph.vtcm_mb"] = std::to_string(c.vtcmSizeInMB);
      return sdk::Status::ok();
    case QNN_HTP_GRAPH_CONFIG_OPTION_FOLD_RELU_ACTIVATION_INTO_CONV_OFF:
      (*s)["graph.fold_relu_off"] = c.foldReluActivationIntoConvOff ? "1" : "0";
      return sdk::Status::ok();
    case QNN_HTP_GRAPH_CONFIG_OPTION_SHORT_DEPTH_CONV_ON_HMX_OFF:
      (*s)["graph.short_depth_conv_hmx_off"] = c.shortDepthConvOnHmxOff ? "1" : "0";
      return sdk::Status::ok();
    case QNN_HTP_GRAPH_CONFIG_OPTION_NUM_HVX_THREADS:
      if (c.numHvxThreads == 0 || c.numHvxThreads > arch->hvxThreads)
        return sdk::invalidArgument("HTP graph config: " + std::to_string(c.numHvxThreads) +
                                    " HVX threads; HTP V" + std::to_string(archVersion) + " has 1 to " +
                                    std::to_string(arch->hvxThreads));
      (*s)["graph.hvx_threads"] = std::to_string(c.numHvxThreads);
      return sdk::Status::ok();
    default:
      return sdk::invalidArgument("HTP graph config: unknown option " + std::to_string(c.option));
  }
}

}  // namespace qnn::htp
