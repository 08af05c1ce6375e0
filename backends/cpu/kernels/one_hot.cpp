// OneHot: out has in[0]'s shape with a dim of `depth` inserted at `axis`;
// out[.., j, ..] = on_value where j equals the index at that position, else
// off_value. An index outside [0, depth) (the op definition rules it out) gives
// a row of off_value, as TensorFlow's one_hot does. on/off values are scalars of
// the output's datatype (float, 8/16/32-bit integers, bool).
#include <cstring>
#include <string>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

// `v` stored as one element of `dt`; false for a datatype without a plain value.
bool encodeValue(DType dt, double v, uint8_t out[4]) {
  switch (dt) {
    case DType::kFloat32: { float f = float(v); std::memcpy(out, &f, 4); return true; }
    case DType::kInt32: { int32_t x = saturatingCast<int32_t>(v); std::memcpy(out, &x, 4); return true; }
    case DType::kUInt32: { uint32_t x = saturatingCast<uint32_t>(v); std::memcpy(out, &x, 4); return true; }
    case DType::kInt16: { int16_t x = saturatingCast<int16_t>(v); std::memcpy(out, &x, 2); return true; }
    case DType::kUInt16: { uint16_t x = saturatingCast<uint16_t>(v); std::memcpy(out, &x, 2); return true; }
    case DType::kInt8: out[0] = uint8_t(saturatingCast<int8_t>(v)); return true;
    case DType::kUInt8: out[0] = saturatingCast<uint8_t>(v); return true;
    case DType::kBool8: out[0] = v != 0; return true;
    default: return false;
  }
}

class OneHotKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("depth")) return sdk::invalidParam("OneHot: depth is mandatory");
    depth_ = params.u32("depth", 0);
    if (depth_ == 0) return sdk::invalidParam("OneHot: depth must be >= 1");
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    const sdk::ParamValue* on = params.find("on_value");
    const sdk::ParamValue* off = params.find("off_value");
    onValue_ = on ? on->scalarAsDouble() : 1.0;
    offValue_ = off ? off->scalarAsDouble() : 0.0;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "OneHot";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (indices)", in[0], {DType::kInt32, DType::kUInt32}));
    const size_t rank = in[0].rank();
    const size_t axis = hasAxis_ ? axis_ : rank;
    if (axis > rank)
      return sdk::invalidParam("OneHot: axis " + std::to_string(axis) + " out of range [0, " + std::to_string(rank) + "]");
    elementBytes_ = sdk::dtypeSize(out[0].dtype);
    if (!encodeValue(out[0].dtype, onValue_, on_) || !encodeValue(out[0].dtype, offValue_, off_))
      return sdk::unsupportedDType(std::string("OneHot: out[0] datatype ") + sdk::dtypeName(out[0].dtype) +
                                   " is not supported");
    std::vector<uint32_t> want(in[0].dims);
    want.insert(want.begin() + axis, depth_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], want));
    outer_ = 1;
    for (size_t d = 0; d < axis; ++d) outer_ *= in[0].dims[d];
    inner_ = in[0].numElements() / (outer_ == 0 ? 1 : outer_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    uint8_t* dst = out[0].as<uint8_t>();
    const bool signedIdx = in[0].dtype == DType::kInt32;
    const size_t eb = elementBytes_;
    // out[o, j, i] for the input's flat position o * inner + i.
    for (size_t o = 0; o < outer_; ++o)
      for (size_t j = 0; j < depth_; ++j)
        for (size_t i = 0; i < inner_; ++i) {
          const size_t k = o * inner_ + i;
          const int64_t idx = signedIdx ? int64_t(in[0].as<const int32_t>()[k]) : int64_t(in[0].as<const uint32_t>()[k]);
          std::memcpy(dst + ((o * depth_ + j) * inner_ + i) * eb, idx == int64_t(j) ? on_ : off_, eb);
        }
    return Status::ok();
  }

 private:
  uint32_t depth_ = 0, axis_ = 0;
  bool hasAxis_ = false;
  double onValue_ = 1, offValue_ = 0;
  uint8_t on_[4] = {}, off_[4] = {};
  size_t elementBytes_ = 0, outer_ = 1, inner_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeOneHot(const std::string& opType) {
  return opType == "OneHot" ? std::make_unique<OneHotKernel>() : nullptr;
}

}  // namespace qnn::cpu
