#include "tests/conformance/real_valued_cases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "kernels/shared_ops.h"
#include "quant/fixed_point.h"

namespace qnn::conformance {
namespace {

const std::set<std::string> kRealValued = {"NonMaxSuppression", "MultiClassNms",   "DetectionOutput",
                                           "RoiAlign",          "HeatMapMaxKeyPoint", "ExtractGlimpse",
                                           "GroupNorm",         "ImageProjectionTransform", "Lstm",
                                           "GridSample",        "L2Norm",            "Lrn",
                                           "Nv12ToRgb",         "Nv21ToRgb",
                                           // later ops whose quantized HTP configurations are recorded
                                           // (sdk/opdefs/opdefs_post_2_7.json htp_datatypes)
                                           "Logit",             "MaskedSoftmax",     "HadamardTransform",
                                           "RandomUniformLike", "RotaryEmbedding",   "RmsNorm",
                                           // op set 2.13: the QNN EP's HTP RandomNormalLike writes UFIXED_POINT_8;
                                           // INT8/INT16 GroupQueryAttention (HTP op support 2.49)
                                           "RandomNormalLike",  "GroupQueryAttention"};

// Ops the HTP column takes in UFIXED_POINT_8 only: their cases quantize to 8 bits.
const std::set<std::string> kEightBit = {"Lrn", "Nv12ToRgb", "Nv21ToRgb", "RandomUniformLike", "RandomNormalLike"};

// Inputs whose op definition is FLOAT_32 in every configuration: they stay float (Logit's epsilon,
// RandomNormalLike's seed, which the QNN EP sends as a static FLOAT_32 tensor).
const std::map<std::string, std::set<size_t>> kFloatInputs = {{"Logit", {1}}, {"RandomNormalLike", {1}}};

// A UFIXED_POINT_8 / _16 encoding covering [lo, hi] (and 0).
QuantInfo covering(float lo, float hi, DType t) {
  lo = std::min(lo, 0.f), hi = std::max(hi, 0.f);
  const float levels = t == DType::kUFixed8 ? 255.f : 65535.f;
  QuantInfo q;
  q.kind = QuantInfo::Kind::kScaleOffset;
  q.scale = hi > lo ? (hi - lo) / levels : 1.f;
  q.offset = int32_t(std::lround(lo / q.scale));
  return q;
}

// The float tensor t as UFIXED_POINT_8 / _16 under an encoding covering its values; *real gets the
// dequantized values.
CaseTensor toUFixed(const CaseTensor& t, DType dtype, std::vector<float>* real) {
  std::vector<float> v = t.values<float>();
  const auto [lo, hi] = v.empty() ? std::pair<float, float>{0.f, 1.f}
                                  : std::pair<float, float>{*std::min_element(v.begin(), v.end()),
                                                            *std::max_element(v.begin(), v.end())};
  CaseTensor q = t;
  q.dtype = dtype;
  q.quant = covering(lo, hi, dtype);
  const auto range = sdk::quant::quantRange(dtype);
  const size_t width = dtype == DType::kUFixed8 ? 1 : 2;
  q.bytes.assign(v.size() * width, 0);
  real->resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t stored = sdk::quant::quantizeValue(v[i], q.quant.scale, q.quant.offset, range);
    std::memcpy(q.bytes.data() + i * width, &stored, width);  // little-endian low bytes
    (*real)[i] = sdk::quant::dequantizeValue(stored, q.quant.scale, q.quant.offset);
  }
  return q;
}

}  // namespace

bool isRealValuedHtpOp(const std::string& opType) { return kRealValued.count(opType) != 0; }

OpCase quantizedRealValuedCase(const OpCase& c) {
  const DType dtype = kEightBit.count(c.opType) ? DType::kUFixed8 : DType::kUFixed16;
  OpCase q = c;
  std::vector<std::vector<float>> realIn(c.inputs.size());
  std::vector<sdk::TensorView> in, inDesc, out;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const CaseTensor& t = c.inputs[i];
    sdk::TensorView v{nullptr, t.dtype, t.dims, {}};
    const auto keep = kFloatInputs.find(c.opType);
    const bool keepFloat = keep != kFloatInputs.end() && keep->second.count(i);
    if (t.dtype == DType::kFloat32 && !t.isNull && !keepFloat) {
      q.inputs[i] = toUFixed(t, dtype, &realIn[i]);
      v.data = realIn[i].data();
    } else if (!t.isNull) {
      v.data = const_cast<uint8_t*>(t.bytes.data());
    }
    inDesc.push_back(sdk::TensorView{t.isStatic ? v.data : nullptr, v.dtype, v.dims, {}});
    in.push_back(v);
  }
  std::vector<std::vector<float>> realOut(c.expected.size());
  std::vector<std::vector<uint8_t>> rawOut(c.expected.size());
  for (size_t i = 0; i < c.expected.size(); ++i) {
    const CaseTensor& t = c.expected[i];
    rawOut[i].assign(t.bytes.size(), 0);
    out.push_back(sdk::TensorView{rawOut[i].data(), t.dtype, t.dims, {}});
  }
  auto kernel = ops::findSharedOp(c.opType)(c.opType);
  sdk::OpParams params;
  for (auto& [name, value] : c.params) params.set(name, value);
  EXPECT_TRUE(kernel->init(params).isOk());
  std::vector<sdk::TensorView> outDesc = out;
  for (auto& d : outDesc) d.data = nullptr;
  EXPECT_TRUE(kernel->prepare(inDesc, outDesc).isOk());
  EXPECT_TRUE(kernel->execute(in, out).isOk());
  for (size_t i = 0; i < c.expected.size(); ++i) {
    if (c.expected[i].dtype != DType::kFloat32) {
      q.expected[i].bytes = rawOut[i];
      continue;
    }
    CaseTensor floatOut = c.expected[i];
    floatOut.bytes = rawOut[i];
    std::vector<float> ignored;
    q.expected[i] = toUFixed(floatOut, dtype, &ignored);
  }
  return q;
}

OpCase quantizedAgainstReference(const OpCase& c, DType dtype, double atol) {
  OpCase q = c;
  q.name += dtype == DType::kUFixed8 ? "_u8" : "_u16";
  std::vector<float> ignored;
  for (CaseTensor& t : q.inputs)
    if (t.dtype == DType::kFloat32 && !t.isNull) t = toUFixed(t, dtype, &ignored);
  for (CaseTensor& t : q.expected)
    if (t.dtype == DType::kFloat32) t = toUFixed(t, dtype, &ignored);
  q.atol = atol, q.rtol = 0;
  q.fixedPointAsReal = true;
  return q;
}

}  // namespace qnn::conformance
