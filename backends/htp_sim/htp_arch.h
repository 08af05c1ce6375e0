// The simulated hardware: the SoC table of the vendor's documentation (SoC
// model id -> Hexagon architecture) and, per HTP architecture, the parameters of
// the simulator's cost model (VTCM size, HVX threads, HMX throughput). The
// numbers are model parameters documented in docs/htp-simulator.md, not
// measurements of a device.
#pragma once

#include <cstdint>
#include <string>

namespace qnn::htp {

struct SocInfo {
  uint32_t socModel;
  const char* name;
  uint32_t arch;    // Hexagon version (68, 69, 73, 75, 79, 81); 66 = no HTP; 0 = N/A
  uint32_t vtcmMB;  // the SoC's VTCM where it differs from its architecture's; 0: the architecture's
};

struct ArchInfo {
  uint32_t arch;
  uint32_t vtcmMB;             // VTCM size
  uint32_t hvxThreads;         // HVX contexts (1024-bit vectors)
  uint32_t hmxInt8MacsPerCycle;  // HMX matrix unit, 8-bit x 8-bit
  bool fp16;                   // an fp16 unit (V69 and later); without one float graphs still run, with a warning
};

// The SoC with this model id, nullptr if the table has none.
const SocInfo* findSoc(uint32_t socModel);
// The HTP architecture's parameters, nullptr if the simulator has no HTP of that version.
const ArchInfo* findArch(uint32_t arch);
// VTCM of a device: the SoC's when the table states one for it and the device is that
// SoC's architecture, else the architecture's; 0 if the simulator has no such HTP.
uint32_t deviceVtcmMB(uint32_t socModel, uint32_t arch);
// "V68, V69, V73, V75, V79, V81": the architectures the simulator models.
std::string archList();
// What the simulator is without a device config.
constexpr uint32_t kDefaultSocModel = 60;  // SC8380XP, the SoC of ONNX Runtime's examples
constexpr uint32_t kDefaultArch = 73;

// HVX vector width in bytes (1024 bits).
constexpr uint32_t kHvxVectorBytes = 128;
// Clock of the HTP core for a DCVS voltage corner (QnnHtpPerfInfrastructure_VoltageCorner_t); 0: unknown corner.
uint32_t clockMHzForCorner(uint32_t corner);
// The nominal clock used when no power config is active.
constexpr uint32_t kNominalClockMHz = 1200;

}  // namespace qnn::htp
