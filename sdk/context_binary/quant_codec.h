// The byte form of a QuantInfo, shared by the context-binary tensor record and
// binary sections (docs/context-binary-format.md): kind, scale, offset, axis,
// bitwidth, then the per-channel scales and offsets; a blockwise-expansion encoding (kind 3) adds
// numBlocks, blockScaleBitwidth, the storage width (8 or 16) and the block multipliers (u16 each).
#pragma once

#include "byte_io/byte_io.h"
#include "core/tensor_view.h"

namespace qnn::sdk::binary {

inline constexpr uint32_t kMaxQuantKind = static_cast<uint32_t>(QuantInfo::Kind::kBlockwiseExpansion);

inline void writeQuant(ByteWriter& w, const QuantInfo& q) {
  w.u32(static_cast<uint32_t>(q.kind));
  w.f32(q.scale);
  w.i32(q.offset);
  w.i32(q.axis);
  w.u32(q.bitwidth);
  w.u32(static_cast<uint32_t>(q.scales.size()));
  for (float s : q.scales) w.f32(s);
  w.u32(static_cast<uint32_t>(q.offsets.size()));
  for (int32_t o : q.offsets) w.i32(o);
  if (q.kind != QuantInfo::Kind::kBlockwiseExpansion) return;
  w.u32(q.numBlocks);
  w.u32(q.blockScaleBitwidth);
  w.u32(q.blockScales16 ? 16u : 8u);
  w.u32(static_cast<uint32_t>(q.blockScales.size()));
  for (uint16_t b : q.blockScales) w.u16(b);
}

// False on truncation or an unknown kind; `error` says which.
inline bool readQuant(ByteReader& r, QuantInfo* q, const char** error) {
  uint32_t kind = 0, n = 0;
  r.u32(&kind);
  r.f32(&q->scale);
  r.i32(&q->offset);
  r.i32(&q->axis);
  r.u32(&q->bitwidth);
  if (!r.ok()) return (*error = "truncated quantization"), false;
  if (kind > kMaxQuantKind) return (*error = "unknown quantization kind"), false;
  q->kind = static_cast<QuantInfo::Kind>(kind);
  if (!r.count(&n, 4)) return (*error = "bad scale count"), false;
  q->scales.resize(n);
  for (float& f : q->scales) r.f32(&f);
  if (!r.count(&n, 4)) return (*error = "bad offset count"), false;
  q->offsets.resize(n);
  for (int32_t& o : q->offsets) r.i32(&o);
  if (!r.ok()) return (*error = "truncated quantization"), false;
  if (q->kind != QuantInfo::Kind::kBlockwiseExpansion) return true;
  uint32_t storage = 0;
  r.u32(&q->numBlocks);
  r.u32(&q->blockScaleBitwidth);
  r.u32(&storage);
  if (!r.ok()) return (*error = "truncated quantization"), false;
  if (storage != 8 && storage != 16) return (*error = "bad block-scale storage width"), false;
  q->blockScales16 = storage == 16;
  if (!r.count(&n, 2)) return (*error = "bad block-scale count"), false;
  if (q->scales.size() != q->offsets.size() || static_cast<uint64_t>(q->scales.size()) * q->numBlocks != n)
    return (*error = "block-scale count does not match channels x blocks"), false;
  q->blockScales.resize(n);
  for (uint16_t& b : q->blockScales) r.u16(&b);
  if (!r.ok()) return (*error = "truncated quantization"), false;
  return true;
}

}  // namespace qnn::sdk::binary
