// The HTP perf infrastructure (QnnDevice_getInfrastructure -> perfInfra):
// power config ids and their DCVS / RPC votes. The simulator validates and keeps
// the votes; the strongest vote sets the clock the cost model turns cycles into
// microseconds with, and profiles name it. State is process-wide, as on a device.
#pragma once

#include <cstdint>
#include <string>

#include "HTP/QnnHtpDevice.h"

namespace qnn::htp {

// The function table handed out by QnnDevice_getInfrastructure; static storage.
const QnnHtpDevice_Infrastructure_t* perfInfrastructure();

struct PowerState {
  uint32_t clockMHz = 0;        // clock of the strongest core vote
  std::string mode;             // "burst", "balanced", ... or "default" without a vote
  uint32_t rpcControlLatencyUs = 0;
  uint32_t rpcPollingTimeUs = 0;
};
// The aggregate of every live power config id's votes.
PowerState currentPowerState();

}  // namespace qnn::htp
