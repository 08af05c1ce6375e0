// Shape-level data movement of any element type:
//  * Shape: in[0]'s dims [start, end) as a UINT_32 vector.
//  * ConstantOfShape: a tensor of the output's dims (in[0], UINT_32, holds them)
//    filled with the scalar `value` (of the output's datatype).
//  * Pack: equally shaped inputs stacked along a new dim `axis`.
//  * UnPack: in[0] split along `axis` into dims[axis] outputs without that dim.
//  * ChannelShuffle: the `axis` dim (default last) seen as num_groups groups of
//    C/G channels, interleaved: out channel i*G + g = in channel g*(C/G) + i.
#include <cstring>
#include <string>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

// outer = product of dims before `axis`, inner = product after it.
void splitAround(const std::vector<uint32_t>& dims, size_t axis, size_t* outer, size_t* inner) {
  *outer = 1;
  *inner = 1;
  for (size_t d = 0; d < axis; ++d) *outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) *inner *= dims[d];
}

class ShapeKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    start_ = params.u32("start", 0);
    hasEnd_ = params.has("end");
    end_ = params.u32("end", 0);
    return Status::ok();
  }
  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Shape", in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Shape", "out[0]", out[0], {DType::kUInt32}));
    const size_t rank = in[0].rank(), end = hasEnd_ ? end_ : rank;
    if (rank == 0 || start_ >= rank || end <= start_ || end > rank)
      return sdk::invalidParam("Shape: start " + std::to_string(start_) + " / end " + std::to_string(end) +
                               " must satisfy 0 <= start < end <= rank " + std::to_string(rank));
    dims_.assign(in[0].dims.begin() + start_, in[0].dims.begin() + end);
    return checkOutputDims("Shape", out[0], {uint32_t(dims_.size())});
  }
  Status execute(const std::vector<TensorView>&, const std::vector<TensorView>& out) override {
    std::memcpy(out[0].as<uint32_t>(), dims_.data(), dims_.size() * sizeof(uint32_t));
    return Status::ok();
  }

 private:
  uint32_t start_ = 0, end_ = 0;
  bool hasEnd_ = false;
  std::vector<uint32_t> dims_;
};

class ConstantOfShapeKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const sdk::ParamValue* v = params.find("value");
    if (!v || v->isTensor) return sdk::invalidParam("ConstantOfShape: value must be a scalar");
    value_ = v->scalarAsDouble();
    return Status::ok();
  }
  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("ConstantOfShape", in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("ConstantOfShape", "in[0]", in[0], {DType::kUInt32}));
    if (in[0].rank() != 1 || in[0].dims[0] != out[0].rank())
      return sdk::invalidTensor("ConstantOfShape: in[0] must hold the output's " + std::to_string(out[0].rank()) +
                                " dims, got " + dimsToString(in[0].dims));
    if (in[0].data) {   // a static shape is checked now; a computed one at execute
      for (size_t d = 0; d < out[0].rank(); ++d)
        if (in[0].as<const uint32_t>()[d] != out[0].dims[d])
          return sdk::invalidTensor("ConstantOfShape: in[0] names dims that differ from out[0] " +
                                    dimsToString(out[0].dims));
    }
    switch (out[0].dtype) {
      case DType::kFloat32: { float f = float(value_); std::memcpy(bytes_, &f, 4); break; }
      case DType::kInt32: { int32_t x = int32_t(value_); std::memcpy(bytes_, &x, 4); break; }
      case DType::kUInt32: { uint32_t x = uint32_t(value_); std::memcpy(bytes_, &x, 4); break; }
      case DType::kInt8: bytes_[0] = uint8_t(int8_t(value_)); break;
      case DType::kUInt8: bytes_[0] = uint8_t(value_); break;
      case DType::kBool8: bytes_[0] = value_ != 0; break;
      default:
        return sdk::unsupportedDType(std::string("ConstantOfShape: out[0] datatype ") + sdk::dtypeName(out[0].dtype) +
                                     " is not supported");
    }
    elementBytes_ = sdk::dtypeSize(out[0].dtype);
    return Status::ok();
  }
  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    for (size_t d = 0; d < out[0].rank(); ++d)
      if (in[0].as<const uint32_t>()[d] != out[0].dims[d])
        return sdk::invalidArgument("ConstantOfShape: in[0] names dims that differ from out[0] " +
                                    dimsToString(out[0].dims));
    uint8_t* dst = out[0].as<uint8_t>();
    for (size_t i = 0, n = out[0].numElements(); i < n; ++i) std::memcpy(dst + i * elementBytes_, bytes_, elementBytes_);
    return Status::ok();
  }

 private:
  double value_ = 0;
  uint8_t bytes_[4] = {};
  size_t elementBytes_ = 4;
};

class PackKernel final : public Kernel {
 public:
  explicit PackKernel(bool pack) : pack_(pack), op_(pack ? "Pack" : "UnPack") {}
  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam(op_ + ": axis is mandatory");
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }
  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    const TensorView& one = pack_ ? in[0] : out[0];      // a slice
    const TensorView& whole = pack_ ? out[0] : in[0];    // the stacked tensor
    if (pack_) {
      QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 255, out, 1));
    } else if (in.size() != 1 || out.empty()) {
      return sdk::invalidArgument("UnPack: takes 1 input and at least 1 output, got " + std::to_string(in.size()) +
                                  " and " + std::to_string(out.size()));
    }
    if (axis_ > one.rank())
      return sdk::invalidParam(op_ + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(one.rank()) + " slices");
    const auto& slices = pack_ ? in : out;
    for (size_t k = 0; k < slices.size(); ++k) {
      QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, pack_ ? "in[k]" : "out[k]", whole, slices[k]));
      if (slices[k].dims != one.dims)
        return sdk::invalidTensor(op_ + ": every slice must have dims " + dimsToString(one.dims) + ", got " +
                                  dimsToString(slices[k].dims));
    }
    std::vector<uint32_t> want(one.dims);
    want.insert(want.begin() + axis_, uint32_t(slices.size()));
    if (whole.dims != want)
      return sdk::invalidTensor(op_ + ": the stacked tensor must have dims " + dimsToString(want) + ", got " +
                                dimsToString(whole.dims));
    splitAround(want, axis_, &outer_, &inner_);
    inner_ *= sdk::dtypeSize(whole.dtype);   // bytes per slice row
    return Status::ok();
  }
  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const auto& slices = pack_ ? in : out;
    const size_t n = slices.size();
    for (size_t k = 0; k < n; ++k)
      for (size_t o = 0; o < outer_; ++o) {
        uint8_t* whole = (pack_ ? out[0].as<uint8_t>() : const_cast<uint8_t*>(in[0].as<const uint8_t>())) +
                         (o * n + k) * inner_;
        uint8_t* slice = (pack_ ? const_cast<uint8_t*>(slices[k].as<const uint8_t>()) : slices[k].as<uint8_t>()) +
                         o * inner_;
        if (pack_) std::memcpy(whole, slice, inner_);
        else std::memcpy(slice, whole, inner_);
      }
    return Status::ok();
  }

 private:
  bool pack_;
  std::string op_;
  uint32_t axis_ = 0;
  size_t outer_ = 1, inner_ = 1;
};

class ChannelShuffleKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("num_groups")) return sdk::invalidParam("ChannelShuffle: num_groups is mandatory");
    groups_ = params.u32("num_groups", 1);
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }
  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "ChannelShuffle";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t rank = in[0].rank();
    if (rank == 0) return sdk::invalidTensor("ChannelShuffle: in[0] must have rank > 0");
    const uint32_t axis = hasAxis_ ? axis_ : uint32_t(rank - 1);
    if (axis >= rank) return sdk::invalidParam("ChannelShuffle: axis " + std::to_string(axis) + " out of range");
    const uint32_t c = in[0].dims[axis];
    if (groups_ == 0 || c % groups_ != 0)
      return sdk::invalidParam("ChannelShuffle: num_groups " + std::to_string(groups_) + " must divide the " +
                               std::to_string(c) + " channels");
    splitAround(in[0].dims, axis, &outer_, &inner_);
    inner_ *= sdk::dtypeSize(in[0].dtype);
    channels_ = c;
    return checkOutputDims(op, out[0], in[0].dims);
  }
  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const uint8_t* src = in[0].as<const uint8_t>();
    uint8_t* dst = out[0].as<uint8_t>();
    const size_t c = channels_, g = groups_, per = c / g;
    for (size_t o = 0; o < outer_; ++o)
      for (size_t i = 0; i < per; ++i)
        for (size_t k = 0; k < g; ++k)
          std::memcpy(dst + (o * c + i * g + k) * inner_, src + (o * c + k * per + i) * inner_, inner_);
    return Status::ok();
  }

 private:
  uint32_t groups_ = 1, axis_ = 0;
  bool hasAxis_ = false;
  size_t outer_ = 1, inner_ = 1, channels_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeShapePack(const std::string& opType) {
  if (opType == "Shape") return std::make_unique<ShapeKernel>();
  if (opType == "ConstantOfShape") return std::make_unique<ConstantOfShapeKernel>();
  if (opType == "Pack") return std::make_unique<PackKernel>(true);
  if (opType == "UnPack") return std::make_unique<PackKernel>(false);
  if (opType == "ChannelShuffle") return std::make_unique<ChannelShuffleKernel>();
  return nullptr;
}

}  // namespace qnn::cpu
