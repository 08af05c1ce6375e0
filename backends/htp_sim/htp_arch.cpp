#include "htp_arch.h"

namespace qnn::htp {
namespace {

// The SoC table of the vendor's documentation (facts: model id and arch).
constexpr SocInfo kSocs[] = {
    {60, "SC8380XP", 73}, {37, "SC8280X", 68},  {44, "SC7280X", 68}, {57, "SM8650", 75},  {43, "SM8550", 73},
    {42, "SM8475", 69},   {36, "SM8450", 69},   {30, "SM8350", 68},  {41, "SM7450", 69},  {35, "SM7325", 68},
    {21, "SM8250", 66},   {25, "SM7250", 66},   {29, "SM7225", 66},  {51, "QCS7230", 66}, {40, "SM6225", 66},
    {31, "SM4350", 66},   {28, "SM4250", 66},   {16, "QCS610", 66},  {33, "QCS410", 66},  {19, "QCM6125", 66},
    {49, "QRB4210", 66},  {59, "QCM4490", 0},   {32, "SM7350", 68},  {34, "SM8325", 68},  {38, "SM7315", 68},
    {50, "SM6450", 73},   {54, "SM7475", 69},   {68, "SM8635", 73},
};

// Cost-model parameters per architecture (docs/htp-simulator.md).
constexpr ArchInfo kArchs[] = {
    {68, 4, 4, 2048, false},
    {69, 8, 4, 4096, true},
    {73, 8, 6, 8192, true},
    {75, 8, 6, 8192, true},
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
