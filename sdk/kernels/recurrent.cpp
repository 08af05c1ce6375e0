// Gru and Lstm (float32; fixed-point graphs run them on dequantized data).
//  * Gru: ONNX's GRU over the whole sequence X [seq, batch, input] with the
//    gates' weights split per gate (update z, reset r, new n) and six optional
//    biases; initial_h [1, batch, hidden] (zeros when absent). direction 1 walks
//    the sequence backwards; Y [seq, batch, hidden] keeps the time order of X.
//      z = sigmoid(Wxz x + bxz + Whz h + bhz),  r = sigmoid(Wxr x + bxr + Whr h + bhr)
//      n = tanh(Wxn x + bxn + Whn (r * h) + bhn)        (linear_before_reset 0)
//      n = tanh(Wxn x + bxn + r * (Whn h + bhn))        (linear_before_reset 1)
//      h = (1 - z) * n + z * h
//  * Lstm: Android NNAPI's LSTM step (QNN's op mirrors its inputs): forget f,
//    cell candidate g, output o gates, the input gate i when its weights are
//    given (CIFG otherwise: i = 1 - f), optional peepholes (diagonal cell
//    weights; o's uses the new cell state), per-gate layer normalization
//    (normalize the accumulation over the units, eps 1e-8, times the weights,
//    then add the gate bias), cell clip and a projection with its clip
//    (thresholds 0 = none):
//      C = clip(f * C + i * tanh(g)),  m = o * tanh(C),  h = clip(Wproj m + bproj) or m
//    in[0] [batch, input] is one step; a rank-3 in[0] [seq, batch, input] runs
//    the steps in order (direction 1: backwards) and out[2] is then [seq, batch,
//    output] — an extension for clients that hand over a whole sequence.
//    Outputs: out[0] h, out[1] C, out[2] the output (= h); optional out[3..6]
//    the activated gates i, f, tanh(g), o of the last step and out[7] m (the
//    hidden state before projection; its dims must then be [batch, num_units]).
//  time_major (QnnOpDef.h 2.32) false selects batch-major sequences [batch,
//  seq, ...] for in[0] and the sequence output; absent, the 2.7 definition's
//  time-major layout holds.
//  An absent optional input is a NULL tensor (rank 0) or past the end of the
//  input list.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

inline float sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

bool present(const std::vector<TensorView>& inputs, size_t i) { return i < inputs.size() && !inputs[i].dims.empty(); }

const float* dataOf(const std::vector<TensorView>& inputs, size_t i) {
  return present(inputs, i) ? inputs[i].as<const float>() : nullptr;
}

// y[b * rows + u] += sum_k w[u * cols + k] * x[b * xStride + k], for every batch row b.
void addMatVec(const float* w, uint32_t rows, uint32_t cols, const float* x, size_t xStride, uint32_t batch, float* y) {
  for (uint32_t b = 0; b < batch; ++b) {
    const float* xb = x + size_t(b) * xStride;
    float* yb = y + size_t(b) * rows;
    for (uint32_t u = 0; u < rows; ++u) {
      const float* wu = w + size_t(u) * cols;
      float acc = 0.f;
      for (uint32_t k = 0; k < cols; ++k) acc += wu[k] * xb[k];
      yb[u] += acc;
    }
  }
}

// y[b * n + u] = bias[u] (0 without bias).
void fillBias(float* y, const float* bias, uint32_t n, uint32_t batch) {
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t u = 0; u < n; ++u) y[size_t(b) * n + u] = bias ? bias[u] : 0.f;
}

// Sequence layouts: time-major [seq, batch, n] or batch-major [batch, seq, n].
// QnnOpDef.h 2.32 adds time_major to Gru/Lstm; without it the 2.7 definition's
// time-major layout holds (an explicit false selects batch-major).
bool batchMajorFrom(const OpParams& params) { return params.has("time_major") && !params.b("time_major", true); }

const float* stepRows(const float* x, bool batchMajor, uint32_t t, uint32_t seq, uint32_t batch, uint32_t n) {
  (void)seq;
  return batchMajor ? x + size_t(t) * n : x + size_t(t) * batch * n;
}

void storeStep(float* y, bool batchMajor, uint32_t t, uint32_t seq, uint32_t batch, uint32_t n, const float* h) {
  for (uint32_t b = 0; b < batch; ++b) {
    float* dst = batchMajor ? y + (size_t(b) * seq + t) * n : y + (size_t(t) * batch + b) * n;
    std::copy(h + size_t(b) * n, h + size_t(b + 1) * n, dst);
  }
}

Status checkDims(const char* op, const char* role, const TensorView& t, const std::vector<uint32_t>& want) {
  if (t.dims != want)
    return sdk::invalidTensor(std::string(op) + ": " + role + " is " + dimsToString(t.dims) + ", expected " +
                              dimsToString(want));
  return Status::ok();
}

Status checkAllFloat(const char* op, const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].dims.empty() && inputs[i].dtype != DType::kFloat32)
      return sdk::invalidTensor(std::string(op) + ": in[" + std::to_string(i) + "] must be FLOAT_32");
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i].dtype != DType::kFloat32)
      return sdk::invalidTensor(std::string(op) + ": out[" + std::to_string(i) + "] must be FLOAT_32");
  return Status::ok();
}

class GruKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const uint32_t direction = params.u32("direction", 0);
    if (direction > 1) return sdk::invalidParam("Gru: direction must be 0 (forward) or 1 (reverse)");
    reverse_ = direction == 1;
    const uint32_t lbr = params.u32("linear_before_reset", 0);
    if (lbr > 1) return sdk::invalidParam("Gru: linear_before_reset must be 0 or 1");
    linearBeforeReset_ = lbr == 1;
    batchMajor_ = batchMajorFrom(params);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Gru";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 7, 14, outputs, outputs.size() == 1 ? 1 : 2));
    QNN_SDK_RETURN_IF_ERROR(checkAllFloat(op, inputs, outputs));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (X)", inputs[0], 3));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (W_xz)", inputs[1], 2));
    seq_ = inputs[0].dims[batchMajor_ ? 1 : 0], batch_ = inputs[0].dims[batchMajor_ ? 0 : 1];
    in_ = inputs[0].dims[2], hidden_ = inputs[1].dims[0];
    for (size_t i = 1; i <= 3; ++i) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "an input weight", inputs[i], {hidden_, in_}));
    for (size_t i = 4; i <= 6; ++i)
      QNN_SDK_RETURN_IF_ERROR(checkDims(op, "a recurrent weight", inputs[i], {hidden_, hidden_}));
    for (size_t i = 7; i <= 12; ++i)
      if (present(inputs, i)) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "a bias", inputs[i], {hidden_}));
    if (present(inputs, 13)) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[13] (initial_h)", inputs[13], {1, batch_, hidden_}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(
        op, outputs[0], batchMajor_ ? std::vector<uint32_t>{batch_, seq_, hidden_} : std::vector<uint32_t>{seq_, batch_, hidden_}));
    if (outputs.size() == 2) QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {1, batch_, hidden_}));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t bh = size_t(batch_) * hidden_;
    std::vector<float> h(bh, 0.f), z(bh), r(bh), n(bh), hn(bh), rh(bh);
    if (const float* h0 = dataOf(inputs, 13)) std::copy(h0, h0 + bh, h.begin());
    const float* x = inputs[0].as<const float>();
    const float *wz = inputs[1].as<const float>(), *wr = inputs[2].as<const float>(), *wn = inputs[3].as<const float>();
    const float *uz = inputs[4].as<const float>(), *ur = inputs[5].as<const float>(), *un = inputs[6].as<const float>();
    const float *bxz = dataOf(inputs, 7), *bxr = dataOf(inputs, 8), *bxn = dataOf(inputs, 9);
    const float *bhz = dataOf(inputs, 10), *bhr = dataOf(inputs, 11), *bhn = dataOf(inputs, 12);
    float* y = outputs[0].as<float>();
    for (uint32_t s = 0; s < seq_; ++s) {
      const uint32_t t = reverse_ ? seq_ - 1 - s : s;
      const float* xt = stepRows(x, batchMajor_, t, seq_, batch_, in_);
      const size_t xs = batchMajor_ ? size_t(seq_) * in_ : in_;
      fillBias(z.data(), bxz, hidden_, batch_);
      fillBias(r.data(), bxr, hidden_, batch_);
      fillBias(n.data(), bxn, hidden_, batch_);
      addMatVec(wz, hidden_, in_, xt, xs, batch_, z.data());
      addMatVec(wr, hidden_, in_, xt, xs, batch_, r.data());
      addMatVec(wn, hidden_, in_, xt, xs, batch_, n.data());
      addMatVec(uz, hidden_, hidden_, h.data(), hidden_, batch_, z.data());
      addMatVec(ur, hidden_, hidden_, h.data(), hidden_, batch_, r.data());
      for (size_t i = 0; i < bh; ++i) {
        z[i] = sigmoid(z[i] + (bhz ? bhz[i % hidden_] : 0.f));
        r[i] = sigmoid(r[i] + (bhr ? bhr[i % hidden_] : 0.f));
      }
      fillBias(hn.data(), bhn, hidden_, batch_);
      if (linearBeforeReset_) {
        addMatVec(un, hidden_, hidden_, h.data(), hidden_, batch_, hn.data());
        for (size_t i = 0; i < bh; ++i) n[i] = std::tanh(n[i] + r[i] * hn[i]);
      } else {
        for (size_t i = 0; i < bh; ++i) rh[i] = r[i] * h[i];
        addMatVec(un, hidden_, hidden_, rh.data(), hidden_, batch_, hn.data());
        for (size_t i = 0; i < bh; ++i) n[i] = std::tanh(n[i] + hn[i]);
      }
      for (size_t i = 0; i < bh; ++i) h[i] = (1.f - z[i]) * n[i] + z[i] * h[i];
      storeStep(y, batchMajor_, t, seq_, batch_, hidden_, h.data());
    }
    if (outputs.size() == 2) std::copy(h.begin(), h.end(), outputs[1].as<float>());
    return Status::ok();
  }

 private:
  bool reverse_ = false, linearBeforeReset_ = false, batchMajor_ = false;
  uint32_t seq_ = 0, batch_ = 0, in_ = 0, hidden_ = 0;
};

// Input positions of QNN's Lstm.
enum LstmIn : size_t {
  kX = 0, kWxf = 1, kWxc = 2, kWxo = 3, kWhf = 4, kWhc = 5, kWho = 6, kBf = 7, kBc = 8, kBo = 9, kHIn = 10, kCIn = 11,
  kLnI = 12, kLnF = 13, kLnC = 14, kLnO = 15, kWxi = 16, kWhi = 17, kPi = 18, kPf = 19, kPo = 20, kBi = 21,
  kWProj = 22, kBProj = 23,
};

class LstmKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const uint32_t direction = params.u32("direction", 0);
    if (direction > 1) return sdk::invalidParam("Lstm: direction must be 0 (forward) or 1 (reverse)");
    reverse_ = direction == 1;
    cellClip_ = params.f32("cell_clip_threshold", 0.f);
    projClip_ = params.f32("output_clip_threshold", 0.f);
    batchMajor_ = batchMajorFrom(params);
    if (!(cellClip_ >= 0.f) || !(projClip_ >= 0.f))
      return sdk::invalidParam("Lstm: cell_clip_threshold and output_clip_threshold must be >= 0");
    for (const char* name : {"input_gate_qscale", "forget_gate_qscale", "cell_gate_qscale", "output_gate_qscale",
                             "hidden_state_offset", "hidden_state_qscale"})
      if (params.has(name) && params.f32(name, 0.f) != 0.f)
        return sdk::notSupported(std::string("Lstm: ") + name + " other than 0 is not supported on the CPU backend");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Lstm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 12, 24, outputs, std::clamp<size_t>(outputs.size(), 3, 8)));
    QNN_SDK_RETURN_IF_ERROR(checkAllFloat(op, inputs, outputs));
    const TensorView& x = inputs[kX];
    if (x.rank() != 2 && x.rank() != 3)
      return sdk::invalidTensor(std::string(op) + ": in[0] must be [batch, input] or [seq, batch, input], got " +
                                dimsToString(x.dims));
    const bool bm = x.rank() == 3 && batchMajor_;
    seq_ = x.rank() == 3 ? x.dims[bm ? 1 : 0] : 1;
    batch_ = x.rank() == 3 ? x.dims[bm ? 0 : 1] : x.dims[0], in_ = x.dims[x.rank() - 1];
    xStride_ = bm ? size_t(seq_) * in_ : in_;
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (W_xf)", inputs[kWxf], 2));
    units_ = inputs[kWxf].dims[0];
    projected_ = present(inputs, kWProj);
    if (projected_) QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[22] (W_proj)", inputs[kWProj], 2));
    out_ = projected_ ? inputs[kWProj].dims[0] : units_;
    if (projected_) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[22] (W_proj)", inputs[kWProj], {out_, units_}));
    cifg_ = !present(inputs, kWxi);
    for (size_t i : {kWxf, kWxc, kWxo}) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "an input weight", inputs[i], {units_, in_}));
    for (size_t i : {kWhf, kWhc, kWho})
      QNN_SDK_RETURN_IF_ERROR(checkDims(op, "a recurrent weight", inputs[i], {units_, out_}));
    for (size_t i : {kBf, kBc, kBo}) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "a gate bias", inputs[i], {units_}));
    QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[10] (output state)", inputs[kHIn], {batch_, out_}));
    QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[11] (cell state)", inputs[kCIn], {batch_, units_}));
    if (!cifg_) {
      QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[16] (W_xi)", inputs[kWxi], {units_, in_}));
      if (!present(inputs, kWhi) || !present(inputs, kBi))
        return sdk::invalidTensor(std::string(op) + ": with in[16] (W_xi) also in[17] (W_hi) and in[21] (b_i) are needed");
      QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[17] (W_hi)", inputs[kWhi], {units_, out_}));
      QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[21] (b_i)", inputs[kBi], {units_}));
    } else if (present(inputs, kWhi) || present(inputs, kPi) || present(inputs, kLnI)) {
      return sdk::invalidTensor(std::string(op) + ": input-gate tensors given without in[16] (W_xi)");
    }
    peephole_ = present(inputs, kPf) || present(inputs, kPo);
    if (peephole_) {
      if (!present(inputs, kPf) || !present(inputs, kPo) || (!cifg_ && !present(inputs, kPi)))
        return sdk::invalidTensor(std::string(op) + ": peepholes need the cell-to-forget and cell-to-output weights "
                                  "(and cell-to-input unless the input gate is coupled)");
      for (size_t i : {kPi, kPf, kPo})
        if (present(inputs, i)) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "a peephole weight", inputs[i], {units_}));
    }
    layerNorm_ = present(inputs, kLnF);
    if (layerNorm_) {
      for (size_t i : {kLnF, kLnC, kLnO})
        if (!present(inputs, i)) return sdk::invalidTensor(std::string(op) + ": layer normalization needs in[13..15]");
      if (!cifg_ && !present(inputs, kLnI))
        return sdk::invalidTensor(std::string(op) + ": layer normalization with an input gate needs in[12]");
      for (size_t i : {kLnI, kLnF, kLnC, kLnO})
        if (present(inputs, i)) QNN_SDK_RETURN_IF_ERROR(checkDims(op, "a layer-norm weight", inputs[i], {units_}));
    } else if (present(inputs, kLnI) || present(inputs, kLnC) || present(inputs, kLnO)) {
      return sdk::invalidTensor(std::string(op) + ": layer-norm weights given without in[13] (forget)");
    }
    if (present(inputs, kBProj)) {
      if (!projected_) return sdk::invalidTensor(std::string(op) + ": in[23] (b_proj) given without in[22] (W_proj)");
      QNN_SDK_RETURN_IF_ERROR(checkDims(op, "in[23] (b_proj)", inputs[kBProj], {out_}));
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {batch_, out_}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {batch_, units_}));
    if (x.rank() == 3)
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(
          op, outputs[2], bm ? std::vector<uint32_t>{batch_, seq_, out_} : std::vector<uint32_t>{seq_, batch_, out_}));
    else QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[2], {batch_, out_}));
    for (size_t i = 3; i < outputs.size(); ++i) QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[i], {batch_, units_}));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t bu = size_t(batch_) * units_, bo = size_t(batch_) * out_;
    std::vector<float> h(inputs[kHIn].as<const float>(), inputs[kHIn].as<const float>() + bo);
    std::vector<float> c(inputs[kCIn].as<const float>(), inputs[kCIn].as<const float>() + bu);
    std::vector<float> gi(bu), gf(bu), gg(bu), go(bu), m(bu);
    const float* x = inputs[kX].as<const float>();
    float* y = outputs[2].as<float>();
    for (uint32_t s = 0; s < seq_; ++s) {
      const uint32_t t = reverse_ ? seq_ - 1 - s : s;
      const float* xt = stepRows(x, batchMajor_ && inputs[kX].rank() == 3, t, seq_, batch_, in_);
      if (!cifg_) gate(inputs, kWxi, kWhi, kBi, xt, h.data(), gi.data());
      gate(inputs, kWxf, kWhf, kBf, xt, h.data(), gf.data());
      gate(inputs, kWxc, kWhc, kBc, xt, h.data(), gg.data());
      gate(inputs, kWxo, kWho, kBo, xt, h.data(), go.data());
      // The peepholes of i and f read the previous cell state; layer norm and the
      // biases come after them (gate() left the accumulations unnormalized).
      const float *pi = dataOf(inputs, kPi), *pf = dataOf(inputs, kPf), *po = dataOf(inputs, kPo);
      for (size_t k = 0; k < bu; ++k) {
        const size_t u = k % units_;
        if (!cifg_ && pi) gi[k] += pi[u] * c[k];
        if (pf) gf[k] += pf[u] * c[k];
      }
      if (!cifg_) finishGate(inputs, kBi, kLnI, gi.data());
      finishGate(inputs, kBf, kLnF, gf.data());
      finishGate(inputs, kBc, kLnC, gg.data());
      for (size_t k = 0; k < bu; ++k) {
        gf[k] = sigmoid(gf[k]);
        gi[k] = cifg_ ? 1.f - gf[k] : sigmoid(gi[k]);
        gg[k] = std::tanh(gg[k]);
        c[k] = gf[k] * c[k] + gi[k] * gg[k];
        if (cellClip_ > 0.f) c[k] = std::clamp(c[k], -cellClip_, cellClip_);
        if (po) go[k] += po[k % units_] * c[k];
      }
      finishGate(inputs, kBo, kLnO, go.data());
      for (size_t k = 0; k < bu; ++k) go[k] = sigmoid(go[k]), m[k] = go[k] * std::tanh(c[k]);
      if (projected_) {
        fillBias(h.data(), dataOf(inputs, kBProj), out_, batch_);
        addMatVec(inputs[kWProj].as<const float>(), out_, units_, m.data(), units_, batch_, h.data());
        if (projClip_ > 0.f)
          for (float& v : h) v = std::clamp(v, -projClip_, projClip_);
      } else {
        h = m;
      }
      storeStep(y, batchMajor_ && inputs[kX].rank() == 3, t, seq_, batch_, out_, h.data());
    }
    std::copy(h.begin(), h.end(), outputs[0].as<float>());
    std::copy(c.begin(), c.end(), outputs[1].as<float>());
    const std::vector<float>* extra[] = {&gi, &gf, &gg, &go, &m};
    for (size_t i = 3; i < outputs.size(); ++i) {
      float* dst = outputs[i].as<float>();
      if (i == 3 && cifg_) {  // the coupled input gate is 1 - f
        for (size_t k = 0; k < bu; ++k) dst[k] = 1.f - gf[k];
      } else {
        std::copy(extra[i - 3]->begin(), extra[i - 3]->end(), dst);
      }
    }
    return Status::ok();
  }

 private:
  // acc = Wx x + Wh h, plus the bias unless layer norm adds it after normalizing.
  void gate(const std::vector<TensorView>& inputs, size_t wx, size_t wh, size_t bias, const float* xt, const float* h,
            float* acc) const {
    fillBias(acc, layerNorm_ ? nullptr : inputs[bias].as<const float>(), units_, batch_);
    addMatVec(inputs[wx].as<const float>(), units_, in_, xt, xStride_, batch_, acc);
    addMatVec(inputs[wh].as<const float>(), units_, out_, h, out_, batch_, acc);
  }

  // With layer norm: acc = normalize(acc) * ln + bias, per batch row.
  void finishGate(const std::vector<TensorView>& inputs, size_t bias, size_t ln, float* acc) const {
    if (!layerNorm_) return;
    const float* w = inputs[ln].as<const float>();
    const float* b = inputs[bias].as<const float>();
    for (uint32_t r = 0; r < batch_; ++r) {
      float* a = acc + size_t(r) * units_;
      double sum = 0, sq = 0;
      for (uint32_t u = 0; u < units_; ++u) sum += a[u], sq += double(a[u]) * a[u];
      const double mean = sum / units_, var = std::max(sq / units_ - mean * mean, 0.0);
      const float inv = float(1.0 / std::sqrt(var + 1e-8));
      for (uint32_t u = 0; u < units_; ++u) a[u] = (a[u] - float(mean)) * inv * w[u] + b[u];
    }
  }

  bool reverse_ = false, cifg_ = false, peephole_ = false, layerNorm_ = false, projected_ = false, batchMajor_ = false;
  size_t xStride_ = 0;
  float cellClip_ = 0.f, projClip_ = 0.f;
  uint32_t seq_ = 1, batch_ = 0, in_ = 0, units_ = 0, out_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeRecurrent(const std::string& opType) {
  if (opType == "Gru") return std::make_unique<GruKernel>();
  if (opType == "Lstm") return std::make_unique<LstmKernel>();
  return nullptr;
}

}  // namespace qnn::ops
