#include "htp_sim/htp_options.h"

#include <fcntl.h>

#include <algorithm>
#include <cmath>
#include <cstring>

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

// Float tensors run with or without a precision config (clients that never set one expect
// it), also on V68, which has no fp16 unit: the vendor's x86 HTP library takes float graphs
// for a V68 SoC and computes them in fp32 even under QNN_PRECISION_FLOAT16 (ONNX Runtime's
// QNN EP test UnaryOp_Tan_fp, soc_model SM8350 with fp16 precision, passes there within
// 1e-5, far below half precision). So does the simulator, with this note when such a device
// is configured.
constexpr const char* kNoFp16Unit =
    " has no fp16 unit; like the vendor's x86 HTP library, the simulator still takes float graphs and float "
    "precision configs for it and computes them in fp32 (also with QNN_PRECISION_FLOAT16)";

// Keeps `warnings` holding the note exactly when the device's architecture (now `arch`) lacks an fp16 unit.
void noteFp16Unit(uint32_t arch, Warnings* warnings) {
  warnings->erase(std::remove_if(warnings->begin(), warnings->end(),
                                 [](const std::string& w) { return w.find(kNoFp16Unit) != std::string::npos; }),
                  warnings->end());
  if (const ArchInfo* a = findArch(arch); a && !a->fp16)
    warnings->push_back("HTP device config: HTP V" + std::to_string(arch) + kNoFp16Unit);
}

// Why the on-chip memory options of API 2.39 change nothing off a device.
constexpr const char* kKeepsOnChip =
    "it keeps data resident in the device's on-chip memory between executions, which the simulator does not model; "
    "results are the same";

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
  if (o.vtcmMB == 0) o.vtcmMB = deviceVtcmMB(o.socModel, o.arch);
  o.optMode = get(s, "graph.opt_mode", 0);
  o.fp16 = get(s, "graph.fp16", 0) != 0 && arch && arch->fp16;  // no fp16 unit: fp32 (kNoFp16Unit)
  o.hvxThreads = get(s, "graph.hvx_threads", 0);
  if (o.hvxThreads == 0 && arch) o.hvxThreads = arch->hvxThreads;
  o.foldReluIntoConv = get(s, "graph.fold_relu_off", 0) == 0;
  o.fp16ClampOverflow = get(s, "graph.fp16_clamp_overflow", 0) != 0;
  o.contextPriority = get(s, "context.priority", 0);
  return o;
}

sdk::Status applyDeviceCustomConfig(const void* custom, Settings* s, Warnings* warnings) {
  const auto& c = *static_cast<const QnnHtpDevice_CustomConfig_t*>(custom);
  switch (c.option) {
    case QNN_HTP_DEVICE_CONFIG_OPTION_SOC: {
      // API 2.39 lays the union out at offset 8 (docs/abi-deviations-2.39-part.txt): a client built
      // with those headers leaves bytes 4..7 as padding (zero when it value-initializes the struct,
      // as ONNX Runtime's QNN EP does) and puts the SoC at offset 8, inside 2.32's 12 bytes too.
      uint32_t socModel = c.socModel;
      if (socModel == 0) std::memcpy(&socModel, static_cast<const char*>(custom) + 8, sizeof(socModel));
      QNN_SDK_RETURN_IF_ERROR(checkSocHasHtp(socModel, "HTP device config"));
      const SocInfo* soc = findSoc(socModel);
      // The SoC decides the architecture: an arch config that disagrees is overwritten, as the vendor's backend does.
      if (uint32_t arch = get(*s, "device.arch", soc->arch); arch != soc->arch) {
        warnings->push_back("HTP device config: arch V" + std::to_string(arch) + " set by a custom config differs from " +
                            "SoC model " + std::to_string(socModel) + " (" + soc->name + "); using its V" +
                            std::to_string(soc->arch));
        (*s)["device.arch"] = std::to_string(soc->arch);
      }
      (*s)["device.soc"] = std::to_string(socModel);
      noteFp16Unit(soc->arch, warnings);
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_ARCH: {
      if (c.arch.deviceId != 0)
        return sdk::invalidArgument("HTP device config: device id " + std::to_string(c.arch.deviceId) +
                                    " does not exist (the simulator has device 0)");
      if (c.arch.arch == QNN_HTP_DEVICE_ARCH_NONE) {
        // A client built with API 2.39's headers puts the arch at offset 12 (its union starts at 8),
        // past 2.32's 12-byte struct, so the simulator cannot read it; value-initialized, its
        // 2.32-layout reading is this one (device 0, arch NONE).
        warnings->push_back("HTP device config: arch NONE clears the architecture (an arch config built with API "
                            "2.39 headers, its arch at offset 12, reads as this and is not applied)");
        s->erase("device.arch");
        noteFp16Unit(archOf(*s), warnings);
        return sdk::Status::ok();
      }
      if (!findArch(c.arch.arch))
        return sdk::invalidArgument("HTP device config: HTP architecture " + std::to_string(c.arch.arch) +
                                    " is not one of " + archList());
      if (const SocInfo* soc = findSoc(get(*s, "device.soc", 0)); soc && soc->arch != static_cast<uint32_t>(c.arch.arch)) {
        warnings->push_back("HTP device config: arch V" + std::to_string(c.arch.arch) + " differs from SoC " +
                            soc->name + "'s V" + std::to_string(soc->arch) + "; the SoC config wins");
        return sdk::Status::ok();
      }
      (*s)["device.arch"] = std::to_string(c.arch.arch);
      noteFp16Unit(c.arch.arch, warnings);
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_SECUREPD:
      if (c.useSecureProcessDomain.deviceId != 0)
        return sdk::invalidArgument("HTP device config: secure PD for device " +
                                    std::to_string(c.useSecureProcessDomain.deviceId) + ", which does not exist");
      (*s)["device.secure_pd"] = c.useSecureProcessDomain.useSecureProcessDomain ? "1" : "0";
      return sdk::Status::ok();
    case QNN_HTP_DEVICE_CONFIG_OPTION_SIGNEDPD:
      if (c.useSignedProcessDomain.deviceId != 0)
        return sdk::invalidArgument("HTP device config: signed PD for device " +
                                    std::to_string(c.useSignedProcessDomain.deviceId) + ", which does not exist");
      (*s)["device.signed_pd"] = c.useSignedProcessDomain.useSignedProcessDomain ? "1" : "0";
      return sdk::Status::ok();
    // API 2.39 (QnnHtpDeviceConfigShared.h): options only 2.39's headers define, so they come in
    // 2.39's layout, the payload at offset 8 (our QnnHtpDevice_CustomConfig_t keeps 2.32's).
    case QNN_HTP_DEVICE_CONFIG_OPTION_ASYNC_EXECUTE: {
      const auto& a = *reinterpret_cast<const QnnHtpDevice_AsyncExecute_t*>(static_cast<const char*>(custom) + 8);
      if (a.deviceId != 0)
        return sdk::invalidArgument("HTP device config: async execute for device " + std::to_string(a.deviceId) +
                                    ", which does not exist");
      (*s)["device.async_execute"] = a.enableAsyncExecute ? "1" : "0";
      if (a.enableAsyncExecute)
        warnings->push_back("HTP device config: ASYNC_EXECUTE accepted with no effect in the simulator: "
                            "QnnGraph_executeAsync runs with or without it");
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_DYNAMIC_PARTITIONING: {
      const auto& d =
          *reinterpret_cast<const QnnHtpDevice_UseDynamicPartitioning_t*>(static_cast<const char*>(custom) + 8);
      if (d.deviceId != 0)
        return sdk::invalidArgument("HTP device config: dynamic partitioning for device " +
                                    std::to_string(d.deviceId) + ", which does not exist");
      (*s)["device.dynamic_partitioning"] = d.useDynamicPartitioning ? "1" : "0";
      if (d.useDynamicPartitioning)
        warnings->push_back("HTP device config: DYNAMIC_PARTITIONING accepted with no effect in the simulator: "
                            "it models one whole HTP, nothing to partition");
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_APP_UID: {
      uint32_t uid = 0;
      std::memcpy(&uid, static_cast<const char*>(custom) + 8, sizeof(uid));
      (*s)["device.app_uid"] = std::to_string(uid);
      warnings->push_back("HTP device config: APP_UID " + std::to_string(uid) +
                          " recorded with no effect in the simulator: no DSP process to attribute");
      return sdk::Status::ok();
    }
    case QNN_HTP_DEVICE_CONFIG_OPTION_HTP_EXTENSION:
      warnings->push_back("HTP device config: HTP_EXTENSION accepted and ignored: its payload is not defined in "
                          "the public headers");
      return sdk::Status::ok();
    default:
      return sdk::invalidArgument("HTP device config: unknown option " + std::to_string(c.option));
  }
}

sdk::Status applyDevicePlatformInfo(const QnnDevice_PlatformInfo_t& info, Settings* s, Warnings* warnings) {
  if (info.version != QNN_DEVICE_PLATFORM_INFO_VERSION_1)
    return sdk::invalidArgument("HTP device platform info: unknown version " + std::to_string(info.version));
  if (info.v1.numHwDevices == 0 || !info.v1.hwDevices)
    return sdk::invalidArgument("HTP device platform info: no hardware device");
  if (info.v1.numHwDevices > 1)
    warnings->push_back("HTP device platform info: " + std::to_string(info.v1.numHwDevices) +
                        " devices described; the simulator models device 0");
  const QnnDevice_HardwareDeviceInfo_t& hw = info.v1.hwDevices[0];
  const auto* ext = hw.version == QNN_DEVICE_HARDWARE_DEVICE_INFO_VERSION_1
                        ? reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(hw.v1.deviceInfoExtension)
                        : nullptr;
  if (!ext) {
    warnings->push_back("HTP device platform info: no HTP device extension; nothing to take from it");
    return sdk::Status::ok();
  }
  if (ext->devType != QNN_HTP_DEVICE_TYPE_ON_CHIP)
    return sdk::invalidArgument("HTP device platform info: device type " + std::to_string(ext->devType) +
                                "; the simulator models on-chip HTPs");
  const QnnHtpDevice_OnChipDeviceInfoExtension_t& chip = ext->onChipDevice;
  // The SoC decides when the table knows it; otherwise the architecture does.
  QnnHtpDevice_CustomConfig_t c{};
  if (checkSocHasHtp(chip.socModel, "HTP device platform info").isOk()) {
    c.option = QNN_HTP_DEVICE_CONFIG_OPTION_ARCH;
    c.arch = {0, chip.arch};
    if (findArch(chip.arch)) QNN_SDK_RETURN_IF_ERROR(applyDeviceCustomConfig(&c, s, warnings));
    c.option = QNN_HTP_DEVICE_CONFIG_OPTION_SOC;
    c.socModel = chip.socModel;
  } else {
    if (!findArch(chip.arch))
      return sdk::invalidArgument("HTP device platform info: neither SoC model " + std::to_string(chip.socModel) +
                                  " nor architecture " + std::to_string(chip.arch) + " is one the simulator models");
    if (chip.socModel)
      warnings->push_back("HTP device platform info: SoC model " + std::to_string(chip.socModel) +
                          " is not in the SoC table; using architecture V" + std::to_string(chip.arch));
    c.option = QNN_HTP_DEVICE_CONFIG_OPTION_ARCH;
    c.arch = {0, chip.arch};
  }
  QNN_SDK_RETURN_IF_ERROR(applyDeviceCustomConfig(&c, s, warnings));
  // A smaller VTCM than the architecture's becomes the graphs' default budget.
  if (chip.vtcmSize && chip.vtcmSize < deviceVtcmMB(socOf(*s), archOf(*s)))
    (*s)["graph.vtcm_mb"] = std::to_string(chip.vtcmSize);
  return sdk::Status::ok();
}

// QnnHtpContext_CustomConfig_t. The simulator keeps every setting where prepare and
// the runtime can see it ("context.<name>"); none of them changes results. The options of
// API 2.39 that only steer the device's loader log one line when enabled.
sdk::Status applyContextCustomConfig(const void* custom, Settings* s, Warnings* warnings) {
  const auto& c = *static_cast<const QnnHtpContext_CustomConfig_t*>(custom);
  auto flag = [s](const char* key, bool value) {
    (*s)[key] = value ? "1" : "0";
    return sdk::Status::ok();
  };
  auto flagNoEffect = [&](const char* key, bool value, const std::string& what, const std::string& why) {
    if (value) warnings->push_back("HTP context config: " + what + " accepted with no effect in the simulator: " + why);
    return flag(key, value);
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
    // API 2.39.
    case QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_WEIGHT_SHARING_RAM_PRELOAD_ENABLED:
      return flagNoEffect("context.lora_ram_preload", c.loraWeightSharingRamPreloadEnabled,
                          "LORA_WEIGHT_SHARING_RAM_PRELOAD_ENABLED", "adapter weights are host memory already");
    case QNN_HTP_CONTEXT_CONFIG_OPTION_REFERENCE_WEIGHT_SHARING_ENABLED:
      return flagNoEffect("context.reference_weight_sharing", c.referenceWeightSharingEnabled,
                          "REFERENCE_WEIGHT_SHARING_ENABLED", "a placement of weights across SoC-specific binaries");
    case QNN_HTP_CONTEXT_CONFIG_OPTION_GRAPH_SPLITTING_ENABLED:
      return flagNoEffect("context.graph_splitting", c.graphSplittingEnabled, "GRAPH_SPLITTING_ENABLED (deprecated)",
                          "splitting a graph into subgraphs changes no result");
    case QNN_HTP_CONTEXT_CONFIG_OPTION_GRAPH_SPLITTING_CONFIGS:
      return flagNoEffect("context.graph_splitting", c.graphSplittingConfigs.graphSplittingEnabled,
                          "GRAPH_SPLITTING_CONFIGS", "splitting a graph into subgraphs changes no result");
    case QNN_HTP_CONTEXT_CONFIG_OPTION_REUSED_IO_LIMIT:
      (*s)["context.reused_io_limit_mb"] = std::to_string(c.reusedIoLimitMb);
      if (c.reusedIoLimitMb)
        warnings->push_back("HTP context config: REUSED_IO_LIMIT of " + std::to_string(c.reusedIoLimitMb) +
                            " MB recorded; the simulator maps I/O in host memory with no DSP address-space limit");
      return sdk::Status::ok();
    case QNN_HTP_CONTEXT_CONFIG_OPTION_CONCURRENT_DESERIALIZATION_EXTRA_SIZE: {
      // The header's rule: at most 102400 KB (100 MB); a larger value is clamped.
      constexpr uint32_t kMaxKB = 102400;
      const uint32_t kb = std::min(c.concurrentDeserializationExtraSizeKB, kMaxKB);
      if (kb != c.concurrentDeserializationExtraSizeKB)
        warnings->push_back("HTP context config: CONCURRENT_DESERIALIZATION_EXTRA_SIZE " +
                            std::to_string(c.concurrentDeserializationExtraSizeKB) + " KB clamped to " +
                            std::to_string(kMaxKB) + " KB");
      (*s)["context.concurrent_deserialization_extra_kb"] = std::to_string(kb);
      return sdk::Status::ok();
    }
    case QNN_HTP_CONTEXT_CONFIG_OPTION_CONCURRENT_DESERIALIZATION_PATCH:
      if (c.concurrentDeserializationPatchFd < 0 || fcntl(c.concurrentDeserializationPatchFd, F_GETFD) == -1)
        return sdk::invalidArgument("HTP context config: CONCURRENT_DESERIALIZATION_PATCH file descriptor " +
                                    std::to_string(c.concurrentDeserializationPatchFd) + " is not open");
      (*s)["context.concurrent_deserialization_patch_fd"] = std::to_string(c.concurrentDeserializationPatchFd);
      warnings->push_back("HTP context config: CONCURRENT_DESERIALIZATION_PATCH accepted with no effect in the "
                          "simulator: its patch format is not public");
      return sdk::Status::ok();
    case QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_PRELOAD_BUFFER_GROUPS: {
      const QnnHtpContext_LoraPreloadBufferGroups_t* g = c.loraPreloadBufferGroups;
      if (!g || (g->numGroups && !g->groups))
        return sdk::invalidArgument("HTP context config: LORA_PRELOAD_BUFFER_GROUPS needs its groups");
      for (uint32_t i = 0; i < g->numGroups; ++i) {
        const QnnHtpContext_LoraPreloadGroup_t& group = g->groups[i];
        if (group.numGraphs && !group.graphNames)
          return sdk::invalidArgument("HTP context config: LORA_PRELOAD_BUFFER_GROUPS group " + std::to_string(i) +
                                      " has no graph names");
        for (uint32_t k = 0; k < group.numGraphs; ++k)
          if (!group.graphNames[k])
            return sdk::invalidArgument("HTP context config: LORA_PRELOAD_BUFFER_GROUPS group " + std::to_string(i) +
                                        ": graph name " + std::to_string(k) + " is NULL");
      }
      (*s)["context.lora_preload_groups"] = std::to_string(g->numGroups);
      warnings->push_back("HTP context config: LORA_PRELOAD_BUFFER_GROUPS (" + std::to_string(g->numGroups) +
                          " groups) accepted with no effect in the simulator: preload buffers are host memory");
      return sdk::Status::ok();
    }
    case QNN_HTP_CONTEXT_CONFIG_OPTION_PARALLEL_WEIGHT_LOADING: {
      const QnnHtpContext_ParallelWeightLoading_t& p = c.parallelWeightLoading;
      if (p.mode > QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_OFF)
        return sdk::invalidArgument("HTP context config: unknown parallel weight loading mode " +
                                    std::to_string(p.mode));
      (*s)["context.parallel_weight_loading"] = std::to_string(p.mode);
      (*s)["context.parallel_weight_loading_threshold_mb"] = std::to_string(p.thresholdInMbOverride);
      if (p.mode != QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_ADAPTIVE || p.thresholdInMbOverride)
        warnings->push_back("HTP context config: PARALLEL_WEIGHT_LOADING accepted with no effect in the simulator: "
                            "weights are read once, in one thread");
      return sdk::Status::ok();
    }
    default:
      return sdk::invalidArgument("HTP context config: unknown option " + std::to_string(c.option));
  }
}

sdk::Status applyGraphCustomConfig(const void* custom, Settings* s, uint32_t* precision, bool executed,
                                   Warnings* warnings) {
  const auto& c = *static_cast<const QnnHtpGraph_CustomConfig_t*>(custom);
  const uint32_t archVersion = archOf(*s);
  const ArchInfo* arch = findArch(archVersion);
  if (!arch) return sdk::invalidArgument("HTP graph config: the device's architecture has no HTP");
  const std::string device = "HTP V" + std::to_string(archVersion);
  auto flag = [s](const char* key, bool value) {
    (*s)[key] = value ? "1" : "0";
    return sdk::Status::ok();
  };
  // A flag recorded that, enabled, changes nothing off a device: one line naming it and why.
  auto flagNoEffect = [&](const char* key, bool value, const std::string& what, const std::string& why) {
    if (value) warnings->push_back("HTP graph config: " + what + " accepted with no effect in the simulator: " + why);
    return flag(key, value);
  };
  // VTCM: 0 (QNN_HTP_GRAPH_CONFIG_OPTION_MAX) is the whole VTCM; more than the device has is clamped to it.
  auto vtcm = [&](uint64_t requestedBytes, const std::string& asked) {
    const uint32_t deviceMB = deviceVtcmMB(socOf(*s), archVersion);
    const uint64_t maxBytes = uint64_t(deviceMB) << 20;
    if (requestedBytes > maxBytes)
      warnings->push_back("HTP graph config: VTCM size " + asked + " exceeds the " + std::to_string(deviceMB) +
                          " MB of " + device + "; using " + std::to_string(deviceMB) + " MB");
    if (requestedBytes == 0 || requestedBytes >= maxBytes) {
      s->erase("graph.vtcm_mb");
      return sdk::Status::ok();
    }
    (*s)["graph.vtcm_mb"] = std::to_string(std::max<uint64_t>(1, requestedBytes >> 20));
    return sdk::Status::ok();
  };
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
          return flag("graph.dlbc", v != 0.f);
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_DLBC_WEIGHTS:
          return flag("graph.dlbc_weights", v != 0.f);
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_SPARSE_WEIGHTS_COMPRESSION:
          return flag("graph.sparse_weights_compression", v != 0.f);
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_SLC_ALLOCATOR:
          return flag("graph.slc_allocator", v != 0.f);
        // API 2.39 (QnnHtpGraph.h): on-chip memory residency, results unchanged; recorded and logged.
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_VTCM_RETENTION:
          if (v != 0.f && v != 1.f)
            return sdk::invalidArgument("HTP graph config: VTCM retention is enabled with 0 or 1");
          return flagNoEffect("graph.vtcm_retention", v != 0.f, "optimization ENABLE_VTCM_RETENTION", kKeepsOnChip);
        case QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_CACHED_WEIGHTS:
          return flagNoEffect("graph.cached_weights", v != 0.f, "optimization ENABLE_CACHED_WEIGHTS", kKeepsOnChip);
        default:
          return sdk::invalidArgument("HTP graph config: unknown optimization type " +
                                      std::to_string(c.optimizationOption.type));
      }
    }
    case QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION:
      // FLOAT32 is the default of API 2.32 (the vendor's default became FP16 in QNN 2.35).
      if (c.precision != QNN_PRECISION_FLOAT16 && c.precision != QNN_PRECISION_FLOAT32)
        return sdk::invalidArgument("HTP graph config: unknown precision " + std::to_string(c.precision));
      if (!arch->fp16 && c.precision == QNN_PRECISION_FLOAT16)
        warnings->push_back("HTP graph config: precision FLOAT16 on " + device +
                            ", which has no fp16 unit: float tensors are computed in fp32, as the vendor's x86 "
                            "HTP library does");
      if (c.precision == QNN_PRECISION_FLOAT16)
        (*s)["graph.fp16"] = "1";
      else
        s->erase("graph.fp16");
      *precision = c.precision;
      return sdk::Status::ok();
    case QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE:
      return vtcm(uint64_t(c.vtcmSizeInMB) << 20, std::to_string(c.vtcmSizeInMB) + " MB");
    case QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE_IN_BYTES:
      return vtcm(c.vtcmSizeInBytes, std::to_string(c.vtcmSizeInBytes) + " bytes");
    case QNN_HTP_GRAPH_CONFIG_OPTION_FOLD_RELU_ACTIVATION_INTO_CONV_OFF:
      return flag("graph.fold_relu_off", c.foldReluActivationIntoConvOff);
    case QNN_HTP_GRAPH_CONFIG_OPTION_SHORT_DEPTH_CONV_ON_HMX_OFF:
      return flag("graph.short_depth_conv_hmx_off", c.shortDepthConvOnHmxOff);
    case QNN_HTP_GRAPH_CONFIG_OPTION_NUM_HVX_THREADS: {
      // Fixed at the first execution (QnnHtpGraph.h); 0 is the default, more than the device has is clamped.
      if (executed) {
        warnings->push_back("HTP graph config: the number of HVX threads is fixed at the first execution; " +
                            std::to_string(c.numHvxThreads) + " is not applied to this graph");
        return sdk::Status::ok();
      }
      if (c.numHvxThreads > arch->hvxThreads)
        warnings->push_back("HTP graph config: " + std::to_string(c.numHvxThreads) + " HVX threads exceed the " +
                            std::to_string(arch->hvxThreads) + " of " + device + "; using " +
                            std::to_string(arch->hvxThreads));
      if (c.numHvxThreads == 0 || c.numHvxThreads >= arch->hvxThreads)
        s->erase("graph.hvx_threads");
      else
        (*s)["graph.hvx_threads"] = std::to_string(c.numHvxThreads);
      return sdk::Status::ok();
    }
    case QNN_HTP_GRAPH_CONFIG_OPTION_FINALIZE_CONFIG: {
      const char* key = c.finalizeConfig.key;
      if (!key || !*key) return sdk::invalidArgument("HTP graph config: a finalize config needs a key");
      const Qnn_Scalar_t& v = c.finalizeConfig.value;
      std::string text;
      switch (v.dataType) {
        case QNN_DATATYPE_INT_32: text = std::to_string(v.int32Value); break;
        case QNN_DATATYPE_UINT_32: text = std::to_string(v.uint32Value); break;
        case QNN_DATATYPE_INT_64: text = std::to_string(v.int64Value); break;
        case QNN_DATATYPE_UINT_64: text = std::to_string(v.uint64Value); break;
        case QNN_DATATYPE_FLOAT_32: text = std::to_string(v.floatValue); break;
        case QNN_DATATYPE_BOOL_8: text = v.bool8Value ? "1" : "0"; break;
        default:
          return sdk::invalidArgument(std::string("HTP graph config: finalize config '") + key +
                                      "' has a value of datatype " + std::to_string(v.dataType) +
                                      "; integers, float32 and bool8 are accepted");
      }
      (*s)[std::string("graph.finalize.") + key] = text;
      return sdk::Status::ok();
    }
    case QNN_HTP_GRAPH_CONFIG_OPTION_NUM_CORES:
      // The simulated device has one HTP core.
      if (c.numCores > 1)
        warnings->push_back("HTP graph config: " + std::to_string(c.numCores) + " cores requested; the device has " +
                            "1, using 1");
      return sdk::Status::ok();
    case QNN_HTP_GRAPH_CONFIG_OPTION_PARALLEL_GRAPH_EXECUTION_CONFIG: {
      const auto& p = c.parallelGraphExecutionConfig;
      if (p.concurrency != QNN_HTP_GRAPH_CONCURRENCY_OPTION_NONE &&
          p.concurrency != QNN_HTP_GRAPH_CONCURRENCY_OPTION_ALL_SHARED)
        return sdk::invalidArgument("HTP graph config: unknown graph concurrency option " +
                                    std::to_string(p.concurrency));
      const auto& v = p.vtcmConfig;
      if (uint64_t(v.offsetInBytes) + v.sizeInBytes > v.sizeTotalInBytes)
        return sdk::invalidArgument("HTP graph config: parallel execution VTCM offset " +
                                    std::to_string(v.offsetInBytes) + " + size " + std::to_string(v.sizeInBytes) +
                                    " exceeds the addressable " + std::to_string(v.sizeTotalInBytes) + " bytes");
      (*s)["graph.concurrency"] = std::to_string(p.concurrency);
      return v.sizeInBytes ? vtcm(v.sizeInBytes, std::to_string(v.sizeInBytes) + " bytes") : sdk::Status::ok();
    }
    case QNN_HTP_GRAPH_CONFIG_OPTION_HMX_BOUNDING: {
      // QnnHtpGraph.h: only for V81 and later, an error on other SoCs. Recorded; clocks are not modelled per unit.
      if (archVersion < 81)
        return sdk::invalidArgument("HTP graph config: HMX bounding needs an HTP V81 or later; the device is " + device);
      const QnnHtp_HmxBoundingInfo_t& b = c.hmxBoundingInfo;
      if (!(b.targetHmxFreqHz >= 0.f) || !(b.targetDspCoreFreq >= 0.f))
        return sdk::invalidArgument("HTP graph config: HMX bounding frequencies must be non-negative numbers");
      (*s)["graph.hmx_bounding.hmx_hz"] = std::to_string(b.targetHmxFreqHz);
      (*s)["graph.hmx_bounding.core_hz"] = std::to_string(b.targetDspCoreFreq);
      return sdk::Status::ok();
    }
    case QNN_HTP_GRAPH_CONFIG_OPTION_WEIGHTS_PACKING:
      return flag("graph.weights_packing", c.weightsPacking);
    case QNN_HTP_GRAPH_CONFIG_OPTION_ASSUME_SAME_QUANT:
      return flag("graph.assume_same_quant", c.assumeSameQuant);
    case QNN_HTP_GRAPH_CONFIG_OPTION_SHARE_IO_BUFFER:
      return flag("graph.share_io_buffer", c.shareIOBuffer);
    case QNN_HTP_GRAPH_CONFIG_OPTION_ADVANCED_ACTIVATION_FUSION:
      return flag("graph.advanced_activation_fusion", c.advancedActivationFusion);
    case QNN_HTP_GRAPH_CONFIG_OPTION_HIGH_PRECISION_SIGMOID:
      return flagNoEffect("graph.high_precision_sigmoid", c.highPrecisionSigmoid, "HIGH_PRECISION_SIGMOID",
                          "the simulator computes Sigmoid in fp32 and rounds only its result to half, the most "
                          "precise an fp16 result can be (fixed point: a table exact per input code)");
    case QNN_HTP_GRAPH_CONFIG_OPTION_MONOLITHIC_LSTM:
      return flag("graph.monolithic_lstm", c.monolithicLstm);
    // API 2.39 options 18-20 (QnnHtpGraph.h: each a bool).
    case QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION_COMPENSATION:
      return flagNoEffect("graph.precision_compensation", c.precisionCompensation, "PRECISION_COMPENSATION",
                          "its arithmetic is not publicly defined, and the simulator's fp16 ops already compute in "
                          "fp32 with one rounding of each result");
    case QNN_HTP_GRAPH_CONFIG_OPTION_ENABLE_PREDICATION:
      return flagNoEffect("graph.enable_predication", c.enablePredication, "ENABLE_PREDICATION",
                          "predicated execution is a choice of the device's generated code; results are the same");
    case QNN_HTP_GRAPH_CONFIG_OPTION_FP16_CLAMP_OVERFLOW:
      // Honoured (GraphOptions::fp16ClampOverflow): fp16 results that overflow saturate to +-65504.
      return flag("graph.fp16_clamp_overflow", c.fp16ClampOverflow);
    default:
      return sdk::invalidArgument("HTP graph config: unknown option " + std::to_string(c.option));
  }
}

}  // namespace qnn::htp
