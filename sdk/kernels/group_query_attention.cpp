// GroupQueryAttention (op set 2.13): ONNX Runtime's com.microsoft.GroupQueryAttention
// as its QNN EP maps it onto the native op, without the contrib op's extensions the
// EP refuses (local window, softcap, smooth softmax, attention bias, head sink, qk
// output). Inputs in the QNN order: in[0] query [B, S, N*H] (packed QKV
// [B, S, (N + 2 KV) * H] when in[3] and in[4] are absent), in[1] seqlens_k [B]
// INT_32 (each batch's total length - 1), in[2] total_sequence_length (one INT_32),
// in[3] key / in[4] value [B, S, KV*H], in[5] past_key / in[6] past_value
// [B, KV, L, H], in[7] cos_cache / in[8] sin_cache [max_pos, R/2], in[9]
// position_ids [B, S] (INT_32 / INT_64). Outputs: out[0] [B, S, N*H],
// out[1] present_key / out[2] present_value [B, KV, L, H]. Params num_heads N and
// kv_num_heads KV (mandatory, N a multiple of KV), do_rotary (0/1), scale
// (0 = 1 / sqrt(H)). Per batch b: total = seqlens_k[b] + 1; the first prompt
// (S == total_sequence_length) has past = 0, otherwise past = total - S; present
// rows [0, past) are past's, rows [past, past + S) the new key/value, the rest 0.
// Query head n reads kv head n / (N / KV); query row s attends the keys
// [0, past + s] (causal) with softmax(scale * q.k). With do_rotary, q and the new k
// are rotated by the cache rows of position past + s (or position_ids[b][s]) on their
// first R features, halves (x1, x2) -> (x1 cos - x2 sin, x2 cos + x1 sin).
// Computed in double, rounded to float.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

bool present(const std::vector<TensorView>& in, size_t i) { return in.size() > i && !in[i].dims.empty(); }

class GroupQueryAttentionKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("num_heads") || !params.has("kv_num_heads"))
      return sdk::invalidParam("GroupQueryAttention: num_heads and kv_num_heads are mandatory");
    n_ = params.u32("num_heads", 0), kv_ = params.u32("kv_num_heads", 0);
    if (n_ == 0 || kv_ == 0 || n_ % kv_ != 0)
      return sdk::invalidParam("GroupQueryAttention: num_heads (" + std::to_string(n_) +
                               ") must be a positive multiple of kv_num_heads (" + std::to_string(kv_) + ")");
    const uint32_t rotary = params.u32("do_rotary", 0);
    if (rotary > 1) return sdk::invalidParam("GroupQueryAttention: do_rotary must be 0 or 1");
    rotary_ = rotary == 1;
    scale_ = params.f32("scale", 0.f);
    if (!std::isfinite(scale_)) return sdk::invalidParam("GroupQueryAttention: scale must be finite");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "GroupQueryAttention";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 3, 10, out, 3));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (query)", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (query)", in[0], 3));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (seqlens_k)", in[1], {DType::kInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (total_sequence_length)", in[2], {DType::kInt32}));
    b_ = in[0].dims[0], s_ = in[0].dims[1];
    packed_ = !present(in, 3);
    if (packed_ == present(in, 4))
      return sdk::invalidTensor(std::string(op) + ": key (in[3]) and value (in[4]) come together, or neither (packed QKV)");
    const uint32_t width = in[0].dims[2], heads = packed_ ? n_ + 2 * kv_ : n_;
    if (width % heads != 0)
      return sdk::invalidTensor(std::string(op) + ": query width " + std::to_string(width) + " is not a multiple of " +
                                std::to_string(heads) + " heads");
    h_ = width / heads;
    if (in[1].numElements() != b_ || in[2].numElements() != 1)
      return sdk::invalidTensor(std::string(op) + ": seqlens_k must hold batch (" + std::to_string(b_) +
                                ") values and total_sequence_length one");
    if (!packed_)
      for (size_t i : {3, 4}) {
        const std::string slot = i == 3 ? "in[3] (key)" : "in[4] (value)";
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, slot.c_str(), in[i], {DType::kFloat32}));
        if (in[i].dims != std::vector<uint32_t>{b_, s_, kv_ * h_})
          return sdk::invalidTensor(std::string(op) + ": " + slot + " must be " + dimsToString({b_, s_, kv_ * h_}) +
                                    ", got " + dimsToString(in[i].dims));
      }
    // present's length L: out[1]'s dims [B, KV, L, H]; past (if any) of the same dims.
    if (out[1].rank() != 4 || out[1].dims[0] != b_ || out[1].dims[1] != kv_ || out[1].dims[3] != h_)
      return sdk::invalidTensor(std::string(op) + ": out[1] (present_key) must be [" + std::to_string(b_) + ", " +
                                std::to_string(kv_) + ", L, " + std::to_string(h_) + "], got " + dimsToString(out[1].dims));
    l_ = out[1].dims[2];
    const std::vector<uint32_t> kvDims{b_, kv_, l_, h_};
    for (size_t o = 0; o < 3; ++o) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "an output", out[o], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], {b_, s_, n_ * h_}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[2], kvDims));
    hasPast_ = present(in, 5);
    if (hasPast_ != present(in, 6))
      return sdk::invalidTensor(std::string(op) + ": past_key (in[5]) and past_value (in[6]) come together");
    if (hasPast_)
      for (size_t i : {5, 6}) {
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "past key/value", in[i], {DType::kFloat32}));
        if (in[i].dims != kvDims)
          return sdk::invalidTensor(std::string(op) + ": past key/value must be " + dimsToString(kvDims) +
                                    " (present's length), got " + dimsToString(in[i].dims));
      }
    if (rotary_) {
      if (!present(in, 7) || !present(in, 8))
        return sdk::invalidTensor(std::string(op) + ": do_rotary needs cos_cache (in[7]) and sin_cache (in[8])");
      for (size_t i : {7, 8}) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "cos/sin cache", in[i], {DType::kFloat32}));
      if (in[7].rank() != 2 || in[7].dims != in[8].dims || in[7].dims[1] == 0 || 2 * in[7].dims[1] > h_)
        return sdk::invalidTensor(std::string(op) + ": cos/sin caches must be [max_position, R/2] with R <= head size " +
                                  std::to_string(h_) + ", got " + dimsToString(in[7].dims) + " and " +
                                  dimsToString(in[8].dims));
      half_ = in[7].dims[1];
      withIds_ = present(in, 9);
      if (withIds_) {
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[9] (position_ids)", in[9], {DType::kInt32, DType::kInt64}));
        if (in[9].dims != std::vector<uint32_t>{b_, s_})
          return sdk::invalidTensor(std::string(op) + ": position_ids must be " + dimsToString({b_, s_}));
      }
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "GroupQueryAttention";
    const size_t H = h_, S = s_, L = l_, N = n_, KV = kv_;
    const int32_t* seqlens = in[1].as<const int32_t>();
    const int32_t totalLen = *in[2].as<const int32_t>();
    const bool firstPrompt = int64_t(S) == int64_t(totalLen);
    const size_t qStride = packed_ ? (N + 2 * KV) * H : N * H, kvStride = packed_ ? qStride : KV * H;
    const float* q = in[0].as<const float>();
    const float* k = packed_ ? q + N * H : in[3].as<const float>();
    const float* v = packed_ ? q + (N + KV) * H : in[4].as<const float>();
    float *o = out[0].as<float>(), *pk = out[1].as<float>(), *pv = out[2].as<float>();
    const double scale = scale_ == 0.f ? 1.0 / std::sqrt(double(H)) : double(scale_);
    std::memset(pk, 0, out[1].byteSize());
    std::memset(pv, 0, out[2].byteSize());
    std::vector<double> qr(S * N * H), kr(S * KV * H), probs(L);
    for (size_t b = 0; b < b_; ++b) {
      const int64_t total = int64_t(seqlens[b]) + 1;
      const int64_t past = firstPrompt ? 0 : total - int64_t(S);
      if (past < 0 || past + int64_t(S) > int64_t(L) || (past > 0 && !hasPast_))
        return sdk::invalidTensor(std::string(op) + ": batch " + std::to_string(b) + " has seqlens_k " +
                                  std::to_string(seqlens[b]) + ": its " + std::to_string(S) +
                                  " new rows do not fit after the past in the present length " + std::to_string(L) +
                                  (hasPast_ ? "" : " (no past given)"));
      // q and the new k, rotated when do_rotary.
      for (size_t s = 0; s < S; ++s) {
        const float* qs = q + (b * S + s) * qStride;
        const float* ks = k + (b * S + s) * kvStride;
        for (size_t i = 0; i < N * H; ++i) qr[s * N * H + i] = qs[i];
        for (size_t i = 0; i < KV * H; ++i) kr[s * KV * H + i] = ks[i];
        if (!rotary_) continue;
        int64_t pos = past + int64_t(s);
        if (withIds_)
          pos = in[9].dtype == DType::kInt64 ? in[9].as<const int64_t>()[b * S + s] : in[9].as<const int32_t>()[b * S + s];
        if (pos < 0 || pos >= int64_t(in[7].dims[0]))
          return sdk::invalidTensor(std::string(op) + ": position " + std::to_string(pos) + " is outside the caches' " +
                                    std::to_string(in[7].dims[0]) + " rows");
        const float* c = in[7].as<const float>() + size_t(pos) * half_;
        const float* sn = in[8].as<const float>() + size_t(pos) * half_;
        auto rotate = [&](double* x, size_t heads) {
          for (size_t hd = 0; hd < heads; ++hd)
            for (size_t i = 0; i < half_; ++i) {
              double& x1 = x[hd * H + i];
              double& x2 = x[hd * H + half_ + i];
              const double a = x1, bb = x2;
              x1 = a * c[i] - bb * sn[i];
              x2 = bb * c[i] + a * sn[i];
            }
        };
        rotate(&qr[s * N * H], N);
        rotate(&kr[s * KV * H], KV);
      }
      // present = past rows [0, past), then the new rows.
      for (size_t g = 0; g < KV; ++g) {
        const size_t base = (b * KV + g) * L * H;
        if (past > 0) {
          std::memcpy(pk + base, in[5].as<const float>() + base, size_t(past) * H * sizeof(float));
          std::memcpy(pv + base, in[6].as<const float>() + base, size_t(past) * H * sizeof(float));
        }
        for (size_t s = 0; s < S; ++s)
          for (size_t i = 0; i < H; ++i) {
            pk[base + (size_t(past) + s) * H + i] = float(kr[s * KV * H + g * H + i]);
            pv[base + (size_t(past) + s) * H + i] = v[(b * S + s) * kvStride + g * H + i];
          }
      }
      for (size_t hd = 0; hd < N; ++hd) {
        const size_t base = (b * KV + hd / (N / KV)) * L * H;
        for (size_t s = 0; s < S; ++s) {
          const size_t keys = size_t(past) + s + 1;
          double mx = -INFINITY;
          for (size_t t = 0; t < keys; ++t) {
            double dot = 0;
            for (size_t i = 0; i < H; ++i) dot += qr[s * N * H + hd * H + i] * double(pk[base + t * H + i]);
            probs[t] = scale * dot;
            mx = std::max(mx, probs[t]);
          }
          double sum = 0;
          for (size_t t = 0; t < keys; ++t) sum += (probs[t] = std::exp(probs[t] - mx));
          float* os = o + (b * S + s) * N * H + hd * H;
          for (size_t i = 0; i < H; ++i) {
            double acc = 0;
            for (size_t t = 0; t < keys; ++t) acc += probs[t] * double(pv[base + t * H + i]);
            os[i] = float(acc / sum);
          }
        }
      }
    }
    return Status::ok();
  }

 private:
  uint32_t n_ = 0, kv_ = 0, b_ = 0, s_ = 0, h_ = 0, l_ = 0, half_ = 0;
  bool rotary_ = false, packed_ = false, hasPast_ = false, withIds_ = false;
  float scale_ = 0.f;
};

}  // namespace

std::unique_ptr<Kernel> makeGroupQueryAttention(const std::string& opType) {
  if (opType == "GroupQueryAttention") return std::make_unique<GroupQueryAttentionKernel>();
  return nullptr;
}

}  // namespace qnn::ops
