// The HTP backend-extension config file (backend_extensions.config_file_path),
// read and validated into plain settings: per-graph VTCM, fp16, optimization
// level, HVX threads, DLBC; the device's SoC, arch and PD session; the context's
// weight sharing. Keys the simulator cannot apply (perf profiles, RPC latency,
// the other context keys, memory and group sections) are kept
// as warnings; malformed JSON and bad values are errors naming file and key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qnn::htpext {

// The vendor's default VTCM of a configured graph without vtcm_mb.
inline constexpr uint32_t kDefaultVtcmMB = 4;

struct GraphSettings {
  std::vector<std::string> names;
  uint32_t vtcmMB = kDefaultVtcmMB;
  bool fp16 = false;
  std::optional<uint32_t> optimizationLevel;  // "O": 0..3
  std::optional<uint32_t> hvxThreads;
  std::optional<bool> dlbc;
};

struct DeviceSettings {
  uint32_t deviceId = 0;
  std::optional<uint32_t> socModel;
  std::optional<uint32_t> arch;  // 68, 69, 73, 75, 79, 81
  std::optional<bool> signedPd;
};

struct ExtensionConfig {
  std::vector<GraphSettings> graphs;  // only entries that name at least one graph
  std::optional<DeviceSettings> device;
  std::optional<bool> weightSharing;  // context.weight_sharing_enabled
  std::vector<std::string> warnings;
};

// An empty path reads nothing (no settings). Throws std::runtime_error with a
// message naming the file and the key.
ExtensionConfig readExtensionConfig(const std::string& path);

}  // namespace qnn::htpext
