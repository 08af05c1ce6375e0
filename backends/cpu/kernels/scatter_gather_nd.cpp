// ScatterElements, ScatterNd and GatherNd (QNN op definitions, which follow
// ONNX's). Indices are int32 (or uint32); a negative index counts from the end
// of its axis and one out of range fails the execute with INVALID_ARGUMENT.
//  * ScatterElements: out = data; for every position p of indices,
//    out[p with p[axis] = indices[p]] (op)= updates[p].
//  * ScatterNd: out = data; indices [..., k] address slices data[i0..ik-1, ...];
//    each slice (op)= the matching slice of updates.
//  * GatherNd: out[b..., i..., rest...] = data[b..., indices[b..., i...], rest...]
//    with batch_dims leading dims shared by data and indices.
// Reductions: NONE (later writes win, in index order), ADD, MUL, MAX (ScatterElements).
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

enum class Reduction : uint32_t { kNone = 0, kAdd = 1, kMul = 2, kMax = 3 };

int64_t readIndex(const TensorView& t, size_t k) {
  return t.dtype == DType::kInt32 ? int64_t(t.as<const int32_t>()[k]) : int64_t(t.as<const uint32_t>()[k]);
}

// Resolves a possibly negative index against an axis of `len`; false if out of range.
bool resolveIndex(int64_t* idx, uint32_t len) {
  if (*idx < 0) *idx += len;
  return *idx >= 0 && *idx < int64_t(len);
}

// Integer sums and products wrap around in the element type (two's complement), as numpy's do:
// computed in 64-bit unsigned arithmetic, where overflow is defined, then truncated.
template <typename T>
T addOf(T a, T b) {
  if constexpr (std::is_integral_v<T>) return T(uint64_t(a) + uint64_t(b));
  else return T(a + b);
}
template <typename T>
T mulOf(T a, T b) {
  if constexpr (std::is_integral_v<T>) return T(uint64_t(a) * uint64_t(b));
  else return T(a * b);
}

template <typename T>
void combine(T* dst, const T* src, size_t n, Reduction r) {
  for (size_t i = 0; i < n; ++i) {
    switch (r) {
      case Reduction::kAdd: dst[i] = addOf(dst[i], src[i]); break;
      case Reduction::kMul: dst[i] = mulOf(dst[i], src[i]); break;
      case Reduction::kMax: dst[i] = std::max(dst[i], src[i]); break;
      default: dst[i] = src[i]; break;
    }
  }
}

// dst[0..n) (op)= src[0..n) for the element type `dt`.
void combineAs(DType dt, void* dst, const void* src, size_t n, Reduction r) {
  if (r == Reduction::kNone) {
    std::memcpy(dst, src, n * sdk::dtypeSize(dt));
    return;
  }
  switch (dt) {
    case DType::kFloat32: combine(static_cast<float*>(dst), static_cast<const float*>(src), n, r); break;
    case DType::kInt32: combine(static_cast<int32_t*>(dst), static_cast<const int32_t*>(src), n, r); break;
    case DType::kUInt32: combine(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), n, r); break;
    case DType::kInt8: combine(static_cast<int8_t*>(dst), static_cast<const int8_t*>(src), n, r); break;
    case DType::kUInt8: combine(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), n, r); break;
    case DType::kInt16: combine(static_cast<int16_t*>(dst), static_cast<const int16_t*>(src), n, r); break;
    case DType::kUInt16: combine(static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src), n, r); break;
    default: break;  // prepare() admits only the types above with a reduction
  }
}

Status checkReductionType(const std::string& op, Reduction r, DType dt) {
  if (r == Reduction::kNone) return Status::ok();
  static const DType kArith[] = {DType::kFloat32, DType::kInt32, DType::kUInt32, DType::kInt8,
                                 DType::kUInt8,   DType::kInt16, DType::kUInt16};
  if (std::find(std::begin(kArith), std::end(kArith), dt) == std::end(kArith))
    return sdk::unsupportedDType(op + ": a reduction on datatype " + sdk::dtypeName(dt) + " is not supported");
  return Status::ok();
}

Status readReduction(const OpParams& params, const std::string& op, uint32_t maxValue, Reduction* out) {
  const uint32_t r = params.u32("reduction", 0);
  if (r > maxValue)
    return sdk::invalidParam(op + ": reduction " + std::to_string(r) + " is not defined (0.." + std::to_string(maxValue) +
                             ")");
  *out = Reduction(r);
  return Status::ok();
}

std::vector<size_t> rowMajorStrides(const std::vector<uint32_t>& dims) {
  std::vector<size_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

class ScatterElementsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    axis_ = params.u32("axis", 0);
    return readReduction(params, "ScatterElements", 3, &reduction_);
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "ScatterElements";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 3, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "in[2] (updates)", in[0], in[2]));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    QNN_SDK_RETURN_IF_ERROR(checkReductionType(op, reduction_, in[0].dtype));
    const size_t rank = in[0].rank();
    if (rank == 0 || in[1].rank() != rank || in[2].dims != in[1].dims)
      return sdk::invalidTensor(std::string(op) + ": data, indices and updates need one rank (>= 1) and indices the "
                                "shape of updates, got " + dimsToString(in[0].dims) + ", " + dimsToString(in[1].dims) +
                                ", " + dimsToString(in[2].dims));
    if (axis_ >= rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(rank));
    for (size_t d = 0; d < rank; ++d)
      if (d != axis_ && in[1].dims[d] > in[0].dims[d])
        return sdk::invalidTensor(std::string(op) + ": indices dim " + std::to_string(d) + " exceeds data's");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], in[0].dims));
    strides_ = rowMajorStrides(in[0].dims);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t rank = in[0].rank(), n = in[1].numElements(), eb = sdk::dtypeSize(in[0].dtype);
    const auto& idims = in[1].dims;
    // Validate every index before writing, so that a bad index leaves the output untouched.
    for (size_t k = 0; k < n; ++k) {
      int64_t idx = readIndex(in[1], k);
      if (!resolveIndex(&idx, in[0].dims[axis_]))
        return sdk::invalidArgument("ScatterElements: index " + std::to_string(readIndex(in[1], k)) + " at position " +
                                    std::to_string(k) + " out of range for axis size " +
                                    std::to_string(in[0].dims[axis_]));
    }
    uint8_t* dst = out[0].as<uint8_t>();
    if (dst != in[0].as<const uint8_t>()) std::memcpy(dst, in[0].as<const uint8_t>(), in[0].byteSize());
    const uint8_t* upd = in[2].as<const uint8_t>();
    std::vector<size_t> pos(rank, 0);
    for (size_t k = 0; k < n; ++k) {
      int64_t idx = readIndex(in[1], k);
      resolveIndex(&idx, in[0].dims[axis_]);
      size_t offset = 0;
      for (size_t d = 0; d < rank; ++d) offset += (d == axis_ ? size_t(idx) : pos[d]) * strides_[d];
      combineAs(in[0].dtype, dst + offset * eb, upd + k * eb, 1, reduction_);
      for (size_t d = rank; d-- > 0;) {
        if (++pos[d] < idims[d]) break;
        pos[d] = 0;
      }
    }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
  Reduction reduction_ = Reduction::kNone;
  std::vector<size_t> strides_;
};

// The offset (in elements) into data of slice `s` of indices [..., k]; false
// (with *bad the offending value) if an index is out of range.
bool sliceOffset(const TensorView& data, const TensorView& indices, size_t s, size_t k, size_t firstAxis,
                 const std::vector<size_t>& strides, size_t* offset, int64_t* bad) {
  size_t off = 0;
  for (size_t j = 0; j < k; ++j) {
    int64_t idx = readIndex(indices, s * k + j);
    *bad = idx;
    if (!resolveIndex(&idx, data.dims[firstAxis + j])) return false;
    off += size_t(idx) * strides[firstAxis + j];
  }
  *offset = off;
  return true;
}

class ScatterNdKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override { return readReduction(params, "ScatterNd", 2, &reduction_); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "ScatterNd";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 3, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "in[2] (updates)", in[0], in[2]));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    QNN_SDK_RETURN_IF_ERROR(checkReductionType(op, reduction_, in[0].dtype));
    const auto &dd = in[0].dims, &id = in[1].dims;
    if (dd.empty() || id.empty() || id.back() < 1 || id.back() > dd.size())
      return sdk::invalidTensor(std::string(op) + ": indices " + dimsToString(id) + " must end in 1.." +
                                std::to_string(dd.size()) + " (the rank of data " + dimsToString(dd) + ")");
    k_ = id.back();
    // updates = indices.shape[:-1] + data.shape[k:]
    std::vector<uint32_t> want(id.begin(), id.end() - 1);
    want.insert(want.end(), dd.begin() + k_, dd.end());
    if (in[2].dims != want)
      return sdk::invalidTensor(std::string(op) + ": updates dims " + dimsToString(in[2].dims) + " must be " +
                                dimsToString(want));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], dd));
    strides_ = rowMajorStrides(dd);
    sliceElements_ = 1;
    for (size_t d = k_; d < dd.size(); ++d) sliceElements_ *= dd[d];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t slices = in[1].numElements() / k_, eb = sdk::dtypeSize(in[0].dtype);
    std::vector<size_t> offsets(slices);
    for (size_t s = 0; s < slices; ++s) {
      int64_t bad = 0;
      if (!sliceOffset(in[0], in[1], s, k_, 0, strides_, &offsets[s], &bad))
        return sdk::invalidArgument("ScatterNd: index " + std::to_string(bad) + " of index tuple " + std::to_string(s) +
                                    " is out of range for data " + dimsToString(in[0].dims));
    }
    uint8_t* dst = out[0].as<uint8_t>();
    if (dst != in[0].as<const uint8_t>()) std::memcpy(dst, in[0].as<const uint8_t>(), in[0].byteSize());
    const uint8_t* upd = in[2].as<const uint8_t>();
    for (size_t s = 0; s < slices; ++s)
      combineAs(in[0].dtype, dst + offsets[s] * eb, upd + s * sliceElements_ * eb, sliceElements_, reduction_);
    return Status::ok();
  }

 private:
  Reduction reduction_ = Reduction::kNone;
  size_t k_ = 1, sliceElements_ = 1;
  std::vector<size_t> strides_;
};

class GatherNdKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    batchDims_ = params.u32("batch_dims", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "GatherNd";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const auto &dd = in[0].dims, &id = in[1].dims;
    const size_t b = batchDims_;
    if (id.empty() || b >= id.size() || b >= dd.size())
      return sdk::invalidParam(std::string(op) + ": batch_dims " + std::to_string(b) +
                               " must be below the ranks of data and indices");
    for (size_t d = 0; d < b; ++d)
      if (dd[d] != id[d])
        return sdk::invalidTensor(std::string(op) + ": the batch dims of data " + dimsToString(dd) + " and indices " +
                                  dimsToString(id) + " differ");
    k_ = id.back();
    if (k_ < 1 || b + k_ > dd.size())
      return sdk::invalidTensor(std::string(op) + ": indices' last dim " + std::to_string(k_) + " must be 1.." +
                                std::to_string(dd.size() - b));
    std::vector<uint32_t> want(id.begin(), id.end() - 1);   // batch dims + index dims
    want.insert(want.end(), dd.begin() + b + k_, dd.end());
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], want));
    strides_ = rowMajorStrides(dd);
    sliceElements_ = 1;
    for (size_t d = b + k_; d < dd.size(); ++d) sliceElements_ *= dd[d];
    batches_ = 1;
    for (size_t d = 0; d < b; ++d) batches_ *= dd[d];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t slices = in[1].numElements() / k_, perBatch = slices / batches_, eb = sdk::dtypeSize(in[0].dtype);
    const size_t batchStride = batchDims_ == 0 ? 0 : strides_[batchDims_ - 1];
    std::vector<size_t> offsets(slices);
    for (size_t s = 0; s < slices; ++s) {
      int64_t bad = 0;
      size_t off = 0;
      if (!sliceOffset(in[0], in[1], s, k_, batchDims_, strides_, &off, &bad))
        return sdk::invalidArgument("GatherNd: index " + std::to_string(bad) + " of index tuple " + std::to_string(s) +
                                    " is out of range for data " + dimsToString(in[0].dims));
      offsets[s] = (s / perBatch) * batchStride + off;
    }
    const uint8_t* src = in[0].as<const uint8_t>();
    uint8_t* dst = out[0].as<uint8_t>();
    for (size_t s = 0; s < slices; ++s)
      std::memcpy(dst + s * sliceElements_ * eb, src + offsets[s] * eb, sliceElements_ * eb);
    return Status::ok();
  }

 private:
  uint32_t batchDims_ = 0;
  size_t k_ = 1, sliceElements_ = 1, batches_ = 1;
  std::vector<size_t> strides_;
};

}  // namespace

std::unique_ptr<Kernel> makeScatterGatherNd(const std::string& opType) {
  if (opType == "ScatterElements") return std::make_unique<ScatterElementsKernel>();
  if (opType == "ScatterNd") return std::make_unique<ScatterNdKernel>();
  if (opType == "GatherNd") return std::make_unique<GatherNdKernel>();
  return nullptr;
}

}  // namespace qnn::cpu
