// Conformance cases of Gru and Lstm: hand-computed steps with zero weights
// (every gate at sigmoid(0) = 0.5), then random weights against a double-precision
// reference written from the equations (ONNX's GRU; Android NNAPI's LSTM with
// CIFG, peepholes, layer normalization, clipping and projection).
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;
using Params = std::vector<std::pair<std::string, ParamValue>>;
using Vec = std::vector<double>;

double sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// W [rows, cols] times v (cols), in double.
Vec matVec(const std::vector<float>& w, size_t rows, size_t cols, const Vec& v) {
  Vec y(rows, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t k = 0; k < cols; ++k) y[r] += double(w[r * cols + k]) * v[k];
  return y;
}

// [a, b, n] -> [b, a, n]
std::vector<float> swapLeadingDims(const std::vector<float>& v, uint32_t a, uint32_t b, uint32_t n) {
  std::vector<float> out(v.size());
  for (uint32_t i = 0; i < a; ++i)
    for (uint32_t j = 0; j < b; ++j)
      for (uint32_t k = 0; k < n; ++k) out[(size_t(j) * a + i) * n + k] = v[(size_t(i) * b + j) * n + k];
  return out;
}

void handCases(std::vector<OpCase>& c) {
  const auto zeros = [](Dims d) {
    size_t n = 1;
    for (auto x : d) n *= x;
    return f32Tensor(d, std::vector<float>(n, 0.f), true);
  };
  // GRU, hidden 1, zero weights: z = r = 0.5, n = tanh(b_xn); h = 0.5 n + 0.5 h.
  const float n1 = std::tanh(1.f);
  const float h1 = 0.5f * n1 + 0.5f, h2 = 0.5f * n1 + 0.5f * h1;
  c.push_back(makeCase("Gru_zero_weights_new_bias", "Gru",
                       {f32Tensor({2, 1, 1}, {3.f, -7.f}), zeros({1, 1}), zeros({1, 1}), zeros({1, 1}), zeros({1, 1}),
                        zeros({1, 1}), zeros({1, 1}), nullTensor(), nullTensor(), f32Tensor({1}, {1.f}, true),
                        nullTensor(), nullTensor(), nullTensor(), f32Tensor({1, 1, 1}, {1.f})},
                       {f32Tensor({2, 1, 1}, {h1, h2}), f32Tensor({1, 1, 1}, {h2})}, {}, 1e-6, 1e-6));
  // LSTM, zero weights and biases: f = i = o = 0.5, g = 0: C = C/2, h = tanh(C)/2.
  const float cOut = 0.5f, hOut = 0.5f * std::tanh(0.5f);
  c.push_back(makeCase("Lstm_zero_weights_halves_the_cell", "Lstm",
                       {f32Tensor({1, 2}, {4.f, -1.f}), zeros({1, 2}), zeros({1, 2}), zeros({1, 2}), zeros({1, 1}),
                        zeros({1, 1}), zeros({1, 1}), zeros({1}), zeros({1}), zeros({1}), f32Tensor({1, 1}, {0.3f}),
                        f32Tensor({1, 1}, {1.f})},
                       {f32Tensor({1, 1}, {hOut}), f32Tensor({1, 1}, {cOut}), f32Tensor({1, 1}, {hOut})}, {}, 1e-6,
                       1e-6));
}

// ---- GRU ----
void gruCase(std::vector<OpCase>& c, const std::string& name, uint32_t seq, uint32_t batch, uint32_t in, uint32_t hid,
             bool reverse, bool lbr, bool biases, bool initial, uint64_t seed, bool batchMajor = false) {
  CaseRng rng(seed);
  auto x = rng.floats(size_t(seq) * batch * in, -2.f, 2.f);
  std::vector<std::vector<float>> w(3), u(3), b(6);
  for (auto& m : w) m = rng.floats(size_t(hid) * in);
  for (auto& m : u) m = rng.floats(size_t(hid) * hid);
  for (auto& v : b) v = rng.floats(hid);
  auto h0 = rng.floats(size_t(batch) * hid);
  std::vector<float> y(size_t(seq) * batch * hid), yh(size_t(batch) * hid);
  for (uint32_t bt = 0; bt < batch; ++bt) {
    Vec h(hid, 0.0);
    if (initial)
      for (uint32_t k = 0; k < hid; ++k) h[k] = h0[bt * hid + k];
    for (uint32_t s = 0; s < seq; ++s) {
      const uint32_t t = reverse ? seq - 1 - s : s;
      Vec xt(x.begin() + (size_t(t) * batch + bt) * in, x.begin() + (size_t(t) * batch + bt + 1) * in);
      const Vec xz = matVec(w[0], hid, in, xt), xr = matVec(w[1], hid, in, xt), xn = matVec(w[2], hid, in, xt);
      const Vec hz = matVec(u[0], hid, hid, h), hr = matVec(u[1], hid, hid, h), hn = matVec(u[2], hid, hid, h);
      Vec z(hid), r(hid), rh(hid), hnew(hid);
      auto bias = [&](int i, uint32_t k) { return biases ? double(b[i][k]) : 0.0; };
      for (uint32_t k = 0; k < hid; ++k) {
        z[k] = sig(xz[k] + bias(0, k) + hz[k] + bias(3, k));
        r[k] = sig(xr[k] + bias(1, k) + hr[k] + bias(4, k));
        rh[k] = r[k] * h[k];
      }
      const Vec hrh = matVec(u[2], hid, hid, rh);
      for (uint32_t k = 0; k < hid; ++k) {
        const double n = lbr ? std::tanh(xn[k] + bias(2, k) + r[k] * (hn[k] + bias(5, k)))
                             : std::tanh(xn[k] + bias(2, k) + hrh[k] + bias(5, k));
        hnew[k] = (1 - z[k]) * n + z[k] * h[k];
      }
      h = hnew;
      for (uint32_t k = 0; k < hid; ++k) y[(size_t(t) * batch + bt) * hid + k] = float(h[k]);
    }
    for (uint32_t k = 0; k < hid; ++k) yh[bt * hid + k] = float(h[k]);
  }
  std::vector<CaseTensor> ins{batchMajor ? f32Tensor({batch, seq, in}, swapLeadingDims(x, seq, batch, in))
                                         : f32Tensor({seq, batch, in}, x)};
  for (auto& m : w) ins.push_back(f32Tensor({hid, in}, m, true));
  for (auto& m : u) ins.push_back(f32Tensor({hid, hid}, m, true));
  for (auto& v : b) ins.push_back(biases ? f32Tensor({hid}, v, true) : nullTensor());
  if (initial) ins.push_back(f32Tensor({1, batch, hid}, h0));
  else if (!biases) ins.resize(7);  // trailing absent inputs may simply be left out
  else ins.push_back(nullTensor());
  Params p{{"direction", sdk::scalarU32(reverse ? 1 : 0)}, {"linear_before_reset", sdk::scalarU32(lbr ? 1 : 0)}};
  if (batchMajor) p.push_back({"time_major", sdk::scalarBool(false)});
  const CaseTensor yT = batchMajor ? f32Tensor({batch, seq, hid}, swapLeadingDims(y, seq, batch, hid))
                                   : f32Tensor({seq, batch, hid}, y);
  c.push_back(makeCase(name, "Gru", ins, {yT, f32Tensor({1, batch, hid}, yh)}, p, 1e-5, 1e-4));
}

// ---- LSTM ----
struct LstmSpec {
  std::string name;
  uint32_t seq = 0;  // 0: one step with a rank-2 input
  uint32_t batch = 2, in = 3, units = 4, out = 4;
  bool cifg = false, peephole = false, layerNorm = false, projection = false, projBias = false, reverse = false;
  float cellClip = 0.f, projClip = 0.f;
  bool gateOutputs = false;
  bool batchMajor = false;  // time_major = false
};

void lstmCase(std::vector<OpCase>& c, const LstmSpec& sp, uint64_t seed) {
  CaseRng rng(seed);
  const uint32_t steps = sp.seq ? sp.seq : 1, B = sp.batch, I = sp.in, U = sp.units, O = sp.projection ? sp.out : U;
  auto x = rng.floats(size_t(steps) * B * I, -2.f, 2.f);
  // Gate order in these arrays: 0 input, 1 forget, 2 cell, 3 output.
  std::vector<std::vector<float>> wx(4), wh(4), bias(4), ln(4), peep(3);
  for (int g = 0; g < 4; ++g) {
    wx[g] = rng.floats(size_t(U) * I), wh[g] = rng.floats(size_t(U) * O), bias[g] = rng.floats(U);
    ln[g] = rng.floats(U, 0.5f, 1.5f);
  }
  for (auto& p : peep) p = rng.floats(U);
  auto wproj = rng.floats(size_t(O) * U), bproj = rng.floats(O);
  auto h0 = rng.floats(size_t(B) * O), c0 = rng.floats(size_t(B) * U, -2.f, 2.f);

  std::vector<float> yAll(size_t(steps) * B * O), hOut(size_t(B) * O), cOut(size_t(B) * U);
  std::vector<std::vector<float>> gatesOut(5, std::vector<float>(size_t(B) * U));
  for (uint32_t b = 0; b < B; ++b) {
    Vec h(h0.begin() + b * O, h0.begin() + (b + 1) * O), cell(c0.begin() + b * U, c0.begin() + (b + 1) * U);
    for (uint32_t s = 0; s < steps; ++s) {
      const uint32_t t = sp.reverse ? steps - 1 - s : s;
      Vec xt(x.begin() + (size_t(t) * B + b) * I, x.begin() + (size_t(t) * B + b + 1) * I);
      Vec pre[4];
      for (int g = 0; g < 4; ++g) {
        if (g == 0 && sp.cifg) continue;
        const Vec a = matVec(wx[g], U, I, xt), r = matVec(wh[g], U, O, h);
        pre[g].resize(U);
        for (uint32_t k = 0; k < U; ++k) pre[g][k] = a[k] + r[k];
      }
      if (sp.peephole)
        for (uint32_t k = 0; k < U; ++k) {
          if (!sp.cifg) pre[0][k] += peep[0][k] * cell[k];
          pre[1][k] += peep[1][k] * cell[k];
        }
      auto finish = [&](int g) {
        if (!sp.layerNorm) {
          for (uint32_t k = 0; k < U; ++k) pre[g][k] += bias[g][k];
          return;
        }
        double mean = 0, var = 0;
        for (double v : pre[g]) mean += v;
        mean /= U;
        for (double v : pre[g]) var += (v - mean) * (v - mean);
        var /= U;
        for (uint32_t k = 0; k < U; ++k) pre[g][k] = (pre[g][k] - mean) / std::sqrt(var + 1e-8) * ln[g][k] + bias[g][k];
      };
      for (int g = 0; g < 3; ++g)
        if (!(g == 0 && sp.cifg)) finish(g);
      Vec gi(U), gf(U), gg(U), go(U), m(U);
      for (uint32_t k = 0; k < U; ++k) {
        gf[k] = sig(pre[1][k]);
        gi[k] = sp.cifg ? 1 - gf[k] : sig(pre[0][k]);
        gg[k] = std::tanh(pre[2][k]);
        cell[k] = gf[k] * cell[k] + gi[k] * gg[k];
        if (sp.cellClip > 0) cell[k] = std::clamp(cell[k], -double(sp.cellClip), double(sp.cellClip));
        if (sp.peephole) pre[3][k] += peep[2][k] * cell[k];
      }
      finish(3);
      for (uint32_t k = 0; k < U; ++k) go[k] = sig(pre[3][k]), m[k] = go[k] * std::tanh(cell[k]);
      if (sp.projection) {
        h = matVec(wproj, O, U, m);
        for (uint32_t k = 0; k < O; ++k) {
          if (sp.projBias) h[k] += bproj[k];
          if (sp.projClip > 0) h[k] = std::clamp(h[k], -double(sp.projClip), double(sp.projClip));
        }
      } else {
        h = m;
      }
      for (uint32_t k = 0; k < O; ++k) yAll[(size_t(t) * B + b) * O + k] = float(h[k]);
      const Vec* last[5] = {&gi, &gf, &gg, &go, &m};
      for (int i = 0; i < 5; ++i)
        for (uint32_t k = 0; k < U; ++k) gatesOut[i][b * U + k] = float((*last[i])[k]);
    }
    for (uint32_t k = 0; k < O; ++k) hOut[b * O + k] = float(h[k]);
    for (uint32_t k = 0; k < U; ++k) cOut[b * U + k] = float(cell[k]);
  }

  const Dims xDims = sp.seq ? (sp.batchMajor ? Dims{B, sp.seq, I} : Dims{sp.seq, B, I}) : Dims{B, I};
  auto opt = [](bool on, CaseTensor t) { return on ? t : nullTensor(); };
  std::vector<CaseTensor> ins{f32Tensor(xDims, sp.batchMajor ? swapLeadingDims(x, steps, B, I) : x)};
  for (int g : {1, 2, 3}) ins.push_back(f32Tensor({U, I}, wx[g], true));
  for (int g : {1, 2, 3}) ins.push_back(f32Tensor({U, O}, wh[g], true));
  for (int g : {1, 2, 3}) ins.push_back(f32Tensor({U}, bias[g], true));
  ins.push_back(f32Tensor({B, O}, h0));
  ins.push_back(f32Tensor({B, U}, c0));
  ins.push_back(opt(sp.layerNorm && !sp.cifg, f32Tensor({U}, ln[0], true)));
  for (int g : {1, 2, 3}) ins.push_back(opt(sp.layerNorm, f32Tensor({U}, ln[g], true)));
  ins.push_back(opt(!sp.cifg, f32Tensor({U, I}, wx[0], true)));
  ins.push_back(opt(!sp.cifg, f32Tensor({U, O}, wh[0], true)));
  ins.push_back(opt(sp.peephole && !sp.cifg, f32Tensor({U}, peep[0], true)));
  ins.push_back(opt(sp.peephole, f32Tensor({U}, peep[1], true)));
  ins.push_back(opt(sp.peephole, f32Tensor({U}, peep[2], true)));
  ins.push_back(opt(!sp.cifg, f32Tensor({U}, bias[0], true)));
  ins.push_back(opt(sp.projection, f32Tensor({O, U}, wproj, true)));
  ins.push_back(opt(sp.projBias, f32Tensor({O}, bproj, true)));
  while (ins.back().isNull) ins.pop_back();

  const Dims yDims = sp.seq ? (sp.batchMajor ? Dims{B, sp.seq, O} : Dims{sp.seq, B, O}) : Dims{B, O};
  std::vector<CaseTensor> outs{f32Tensor({B, O}, hOut), f32Tensor({B, U}, cOut),
                               f32Tensor(yDims, sp.batchMajor ? swapLeadingDims(yAll, steps, B, O) : yAll)};
  if (sp.gateOutputs)
    for (auto& g : gatesOut) outs.push_back(f32Tensor({B, U}, g));
  Params p{{"direction", sdk::scalarU32(sp.reverse ? 1 : 0)}};
  if (sp.cellClip > 0) p.push_back({"cell_clip_threshold", sdk::scalarF32(sp.cellClip)});
  if (sp.projClip > 0) p.push_back({"output_clip_threshold", sdk::scalarF32(sp.projClip)});
  if (sp.batchMajor) p.push_back({"time_major", sdk::scalarBool(false)});
  c.push_back(makeCase(sp.name, "Lstm", ins, outs, p, 1e-5, 1e-4));
}

std::vector<OpCase> recurrentCases() {
  std::vector<OpCase> c;
  handCases(c);
  gruCase(c, "Gru_forward_biases_initial_h", 4, 2, 3, 5, false, false, true, true, 2101);
  gruCase(c, "Gru_reverse_linear_before_reset", 3, 3, 4, 2, true, true, true, true, 2102);
  gruCase(c, "Gru_forward_linear_before_reset_no_bias", 5, 1, 2, 3, false, true, false, false, 2103);
  gruCase(c, "Gru_reverse_biases_no_initial_h", 2, 2, 3, 4, true, false, true, false, 2104);
  gruCase(c, "Gru_batch_major_reverse", 3, 2, 3, 4, true, true, true, true, 2105, true);

  LstmSpec full{"Lstm_input_gate_peepholes_gate_outputs"};
  full.peephole = full.gateOutputs = true;
  lstmCase(c, full, 2201);
  LstmSpec cifg{"Lstm_cifg_peepholes_projection_clips"};
  cifg.cifg = cifg.peephole = cifg.projection = cifg.projBias = true;
  cifg.out = 3, cifg.cellClip = 0.8f, cifg.projClip = 0.3f;
  lstmCase(c, cifg, 2202);
  LstmSpec norm{"Lstm_layer_norm_input_gate"};
  norm.layerNorm = true, norm.units = 5;
  lstmCase(c, norm, 2203);
  LstmSpec normCifg{"Lstm_layer_norm_cifg_projection_no_bias"};
  normCifg.layerNorm = normCifg.cifg = normCifg.projection = true, normCifg.out = 2, normCifg.gateOutputs = true;
  lstmCase(c, normCifg, 2204);
  LstmSpec seq{"Lstm_sequence_reverse_peepholes"};
  seq.seq = 4, seq.reverse = seq.peephole = true, seq.batch = 3;
  lstmCase(c, seq, 2205);
  LstmSpec seqFwd{"Lstm_sequence_forward_projection"};
  seqFwd.seq = 3, seqFwd.projection = seqFwd.projBias = true, seqFwd.out = 6, seqFwd.in = 2;
  lstmCase(c, seqFwd, 2206);
  LstmSpec seqBatch{"Lstm_sequence_batch_major_cifg"};
  seqBatch.seq = 3, seqBatch.batchMajor = seqBatch.cifg = seqBatch.peephole = true, seqBatch.batch = 2;
  lstmCase(c, seqBatch, 2207);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("recurrent", qnn::conformance::recurrentCases);
