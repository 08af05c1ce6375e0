// The HTP settings of one graph, resolved from GraphIR::backendConfig (device,
// context and graph custom configs) with the simulator's defaults, and the
// parsers that validate the HTP custom config structs into those settings.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <vector>

#include "QnnDevice.h"
#include "core/status.h"
#include "htp_sim/htp_arch.h"

namespace qnn::htp {

using Settings = std::map<std::string, std::string>;
// Accepted-but-changed notes of a config call (sdk::ConfigWarnings).
using Warnings = std::vector<std::string>;

struct GraphOptions {
  uint32_t socModel = kDefaultSocModel;
  uint32_t arch = kDefaultArch;
  uint32_t vtcmMB = 0;        // budget the graph may use; 0 in the config means the whole VTCM
  uint32_t optMode = 0;       // finalize optimization mode 0..3
  bool fp16 = false;          // float tensors computed in fp16 (QNN_PRECISION_FLOAT16), else in fp32
  uint32_t hvxThreads = 0;    // 0 in the config means all of the arch's threads
  bool foldReluIntoConv = true;
  uint32_t contextPriority = 0;  // Qnn_Priority_t
  // QNN_HTP_GRAPH_CONFIG_OPTION_FP16_CLAMP_OVERFLOW (API 2.39): in fp16 mode a finite result too large for
  // half is stored as +-65504 (the largest half) instead of +-inf.
  bool fp16ClampOverflow = false;
};

// Never fails: settings were validated when they were set.
// A SoC model of the SoC table whose Hexagon has an HTP; `what` names the caller in the message.
sdk::Status checkSocHasHtp(uint32_t socModel, const char* what);

GraphOptions resolveGraphOptions(const Settings& settings);

// The parsers are lenient where the vendor's backend is (docs/compatibility.md,
// "Configs, properties and queries"): a meaningful value out of range is
// clamped, a conflicting one overridden, each with a note in `warnings`;
// malformed structs and unknown options are refused.
// QnnHtpDevice_CustomConfig_t -> "device.*".
sdk::Status applyDeviceCustomConfig(const void* custom, Settings* settings, Warnings* warnings);
// QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO: the on-chip extension's SoC (else its
// arch) and a VTCM smaller than the arch's, as for offline preparation.
sdk::Status applyDevicePlatformInfo(const QnnDevice_PlatformInfo_t& info, Settings* settings, Warnings* warnings);
sdk::Status applyContextCustomConfig(const void* custom, Settings* settings, Warnings* warnings);
// QnnHtpGraph_CustomConfig_t -> "graph.*"; *precision is set for QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION.
// `executed`: the graph has run, so options fixed at the first execution no longer change.
sdk::Status applyGraphCustomConfig(const void* custom, Settings* settings, uint32_t* precision, bool executed,
                                   Warnings* warnings);

}  // namespace qnn::htp
