// The head of libQnnHtp.so's prepared graph, the per-graph record it keeps in the prepared-graph
// blob (docs/context-binary-format.md, "HTP prepared graph"): magic "HTPP", version, then the
// graph options every version starts with. The backend's reader and writer of the whole record
// (backends/htp_sim/htp_prepared_format.cpp) go through these, and libQnnSystem.so reads the head
// alone for a binary's info (sdk/system/binary_info.cpp), so its bytes are laid out in one place.
#pragma once

#include <cstdint>

#include "byte_io/byte_io.h"

namespace qnn::sdk {

inline constexpr uint32_t kHtpPreparedMagic = 0x50505448;  // "HTPP" little-endian

// The options after the version, as stored (u32 each, booleans 0 or 1).
struct HtpPreparedOptions {
  uint32_t socModel = 0, arch = 0, vtcmMB = 0, optMode = 0, fp16 = 0, hvxThreads = 0, foldReluIntoConv = 0,
           contextPriority = 0;
};

inline void writeHtpPreparedHead(binary::ByteWriter& w, uint32_t version, const HtpPreparedOptions& o) {
  w.u32(kHtpPreparedMagic);
  w.u32(version);
  for (uint32_t v : {o.socModel, o.arch, o.vtcmMB, o.optMode, o.fp16, o.hvxThreads, o.foldReluIntoConv,
                     o.contextPriority})
    w.u32(v);
}

// False when the bytes do not start with the magic.
inline bool readHtpPreparedMagic(binary::ByteReader& r) {
  uint32_t magic = 0;
  return r.u32(&magic) && magic == kHtpPreparedMagic;
}

// The options, read after the magic and the version; false when truncated.
inline bool readHtpPreparedOptions(binary::ByteReader& r, HtpPreparedOptions* o) {
  for (uint32_t* v : {&o->socModel, &o->arch, &o->vtcmMB, &o->optMode, &o->fp16, &o->hvxThreads,
                      &o->foldReluIntoConv, &o->contextPriority})
    if (!r.u32(v)) return false;
  return true;
}

}  // namespace qnn::sdk
