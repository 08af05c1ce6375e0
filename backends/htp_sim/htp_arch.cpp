#include "htp_sim/htp_arch.h"

namespace qnn::htp {
namespace {

// The SoC table: model id (Qnn_SocModel_t), Hexagon architecture and, where it differs from
// the architecture's, the VTCM size. Sources per row in docs/htp-simulator.md.
constexpr SocInfo kSocs[] = {
    {60, "SC8380XP", 73, 0}, {37, "SC8280X", 68, 0},  {44, "SC7280X", 68, 0}, {57, "SM8650", 75, 0},
    {43, "SM8550", 73, 0},   {42, "SM8475", 69, 0},   {36, "SM8450", 69, 0},  {30, "SM8350", 68, 0},
    {41, "SM7450", 69, 0},   {35, "SM7325", 68, 0},   {21, "SM8250", 66, 0},  {25, "SM7250", 66, 0},
    {29, "SM7225", 66, 0},   {51, "QCS7230", 66, 0},  {40, "SM6225", 66, 0},  {31, "SM4350", 66, 0},
    {28, "SM4250", 66, 0},   {16, "QCS610", 66, 0},   {33, "QCS410", 66, 0},  {19, "QCM6125", 66, 0},
    {49, "QRB4210", 66, 0},  {59, "QCM4490", 0, 0},   {32, "SM7350", 68, 0},  {34, "SM8325", 68, 0},
    {38, "SM7315", 68, 0},   {50, "SM6450", 73, 0},   {54, "SM7475", 69, 0},  {68, "SM8635", 73, 0},
    // Later SoCs and ones the vendor's documentation table above lacks (ExecuTorch's Qualcomm SoC table).
    {69, "SM8750", 79, 0},   {87, "SM8850", 81, 0},   {97, "SM8845", 81, 0},  {75, "SXR2330P", 79, 0},
    {72, "SA8797", 81, 16},  {95, "SAR2230P", 81, 4}, {96, "SW6100", 81, 4},  {39, "SA8295", 68, 8},
    {62, "SA8540", 68, 8},   {93, "QCM6490", 68, 2},  {52, "SA8255", 73, 0},  {77, "QCS9100", 73, 0},
    {45, "SXR1230P", 73, 2}, {46, "SSG2115P", 73, 2}, {58, "SSG2125P", 73, 2}, {53, "SXR2230P", 69, 0},
};

// Cost-model parameters per architecture (docs/htp-simulator.md).
constexpr ArchInfo kArchs[] = {
    {68, 4, 4, 2048, false},
    {69, 8, 4, 4096, true},
    {73, 8, 6, 8192, true},
    {75, 8, 6, 8192, true},
    {79, 8, 6, 8192, true},
    {81, 8, 6, 8192, true},
};

}  // namespace

const SocInfo* findSoc(uint32_t socModel) {
  for (const SocInfo& s : kSocs)
    if (s.socModel == socModel) return &s;
  return nullptr;
}

const ArchInfo* findArch(uint32_t arch) {
  for (const ArchInfo& a : kArchs)
    if (a.arch == arch) return &a;
  return nullptr;
}

uint32_t deviceVtcmMB(uint32_t socModel, uint32_t arch) {
  const ArchInfo* a = findArch(arch);
  if (!a) return 0;
  const SocInfo* soc = findSoc(socModel);
  return soc && soc->arch == arch && soc->vtcmMB ? soc->vtcmMB : a->vtcmMB;
}

std::string archList() {
  std::string s;
  for (const ArchInfo& a : kArchs) s += (s.empty() ? "V" : ", V") + std::to_string(a.arch);
  return s;
}

uint32_t clockMHzForCorner(uint32_t corner) {
  switch (corner) {
    case 16: return kNominalClockMHz;  // DCVS_VOLTAGE_CORNER_DISABLE: no vote, nominal
    case 32: return 300;               // MIN
    case 48: return 500;               // SVS2
    case 64: return 800;               // SVS
    case 80: return 1000;              // SVS_PLUS
    case 96: return 1200;              // NOM
    case 112: return 1300;             // NOM_PLUS
    case 128: return 1400;             // TURBO
    case 144: return 1500;             // TURBO_PLUS
    case 146: return 1550;             // TURBO_L2
    case 147: return 1600;             // TURBO_L3
    case 160: return 1600;             // MAX
    default: return 0;
  }
}

}  // namespace qnn::htp
