// Ops that change the shape, not the values: Reshape/Squeeze/ExpandDims/Identity (a
// byte copy), Transpose and Tile.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

#if defined(__x86_64__)
#include "cpu/kernels/x86_simd.h"
#endif

namespace qnn::cpu {
namespace {

#if defined(__x86_64__)
// A 16 x 16 block of 4-byte elements transposed in registers (unpack 32-
// and 64-bit pairs, then exchange 128-bit lanes twice): moves only, so any
// bit pattern comes out unchanged. Element by element the tiled loop took
// ~1.3 cycles each (a transformer's K transpose, 128 x 256, 10 us).
QNN_CPU_TARGET_AVX512 void transpose16x16(const float* src, size_t lds, float* dst, size_t ldd) {
  __m512 r[16], t[16];
  for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(src + i * lds);
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    const __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 1]);
    const __m512d c = _mm512_castps_pd(t[4 * i + 2]), d = _mm512_castps_pd(t[4 * i + 3]);
    r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  for (int j = 0; j < 4; ++j) {
    t[j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88);
    t[4 + j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xdd);
    t[8 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
    t[12 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xdd);
  }
  for (int j = 0; j < 4; ++j) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0x88);
    r[8 + j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0xdd);
    r[4 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0x88);
    r[12 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0xdd);
  }
  for (int i = 0; i < 16; ++i) _mm512_storeu_ps(dst + i * ldd, r[i]);
}
#endif

// Reshape, Squeeze, ExpandDims, Identity (op set 2.13, dims unchanged): the data is unchanged, only the declared dims
// differ, so each checks its own rule for the output dims and copies bytes.
class ReshapeLikeKernel final : public Kernel {
 public:
  explicit ReshapeLikeKernel(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams& params) override {
    if (op_ != "ExpandDims") return Status::ok();
    if (params.has("axes")) {
      for (int64_t a : params.ints("axes", {})) insertAxes_.push_back(a);
    } else if (params.has("axis")) {
      insertAxes_.push_back(params.u32("axis", 0));
    } else {
      return sdk::invalidParam("ExpandDims: axis is mandatory");
    }
    std::sort(insertAxes_.begin(), insertAxes_.end());
    if (std::adjacent_find(insertAxes_.begin(), insertAxes_.end()) != insertAxes_.end())
      return sdk::invalidParam("ExpandDims: axes repeat a value");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    // A rank-0 input (one value) reshapes or gains dims; it has none to squeeze.
    if (in[0].rank() == 0 && op_ == "Squeeze") return sdk::invalidTensor(op_ + ": in[0] must have rank > 0");
    if (op_ == "ExpandDims") return checkOutputDims(op, out[0], expandedDims(in[0].dims));
    if (op_ == "Identity") return checkOutputDims(op, out[0], in[0].dims);
    if (op_ == "Squeeze" && !isSqueezeOf(in[0].dims, out[0].dims))
      return sdk::invalidTensor(op_ + ": out[0] dims " + dimsToString(out[0].dims) +
                                " are not in[0]'s dims " + dimsToString(in[0].dims) + " without some size-1 dims");
    if (out[0].numElements() != in[0].numElements())
      return sdk::invalidTensor(op_ + ": out[0] dims " + dimsToString(out[0].dims) + " hold " +
                                std::to_string(out[0].numElements()) + " elements, in[0] " +
                                dimsToString(in[0].dims) + " holds " + std::to_string(in[0].numElements()));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    if (in[0].data != out[0].data) std::memcpy(out[0].data, in[0].data, in[0].byteSize());
    return Status::ok();
  }

 private:
  // in's dims with a 1 at each output position in insertAxes_; an axis past
  // the end yields dims that cannot match, reported by checkOutputDims.
  std::vector<uint32_t> expandedDims(const std::vector<uint32_t>& in) const {
    std::vector<uint32_t> dims;
    size_t next = 0, axis = 0;
    for (size_t pos = 0; pos < in.size() + insertAxes_.size(); ++pos) {
      if (axis < insertAxes_.size() && insertAxes_[axis] == static_cast<int64_t>(pos)) {
        dims.push_back(1);
        ++axis;
      } else if (next < in.size()) {
        dims.push_back(in[next++]);
      }
    }
    return dims;
  }

  // True if `out` is `in` with only size-1 dims removed.
  static bool isSqueezeOf(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
    size_t j = 0;
    for (uint32_t d : in) {
      if (j < out.size() && out[j] == d) ++j;
      else if (d != 1) return false;
    }
    return j == out.size();
  }

  std::string op_;
  std::vector<int64_t> insertAxes_;
};

// Transpose. prepare() merges output dims that stay neighbours in the input
// and drops size-1 dims; what is left is one of: a plain copy, a batch of 2-D
// matrix transposes (NCHW<->NHWC and most 4-D permutations), or the general
// strided walk.
class TransposeKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("perm")) return sdk::invalidParam("Transpose: perm is mandatory");
    std::vector<int64_t> perm = params.ints("perm", {});
    std::vector<bool> seen(perm.size(), false);
    for (int64_t p : perm) {
      if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[p])
        return sdk::invalidParam("Transpose: perm is not a permutation of 0.." + std::to_string(perm.size() - 1));
      seen[p] = true;
      perm_.push_back(static_cast<size_t>(p));
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Transpose";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    if (perm_.size() != in[0].rank() || in[0].rank() == 0)
      return sdk::invalidParam(std::string(op) + ": perm has " + std::to_string(perm_.size()) +
                               " entries, in[0] has rank " + std::to_string(in[0].rank()));
    std::vector<uint32_t> outDims;
    for (size_t p : perm_) outDims.push_back(in[0].dims[p]);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));
    elementSize_ = sdk::dtypeSize(in[0].dtype);
    simplify(in[0].dims);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    switch (elementSize_) {
      case 1: run<uint8_t>(in[0].data, out[0].data); break;
      case 2: run<uint16_t>(in[0].data, out[0].data); break;
      case 4: run<uint32_t>(in[0].data, out[0].data); break;
      case 8: run<uint64_t>(in[0].data, out[0].data); break;
    }
    return Status::ok();
  }

 private:
  // Fills dims_ (input dims of the reduced problem) and perm_ of it into
  // reducedPerm_, with inStrides_ the input stride of each output dim.
  void simplify(const std::vector<uint32_t>& inDims) {
    // Groups of output dims whose input dims are consecutive.
    std::vector<std::vector<size_t>> groups;
    for (size_t p : perm_) {
      if (inDims[p] == 1) continue;
      if (!groups.empty() && groups.back().back() + 1 == p) {
        groups.back().push_back(p);
      } else {
        groups.push_back({p});
      }
    }
    // Reduced input dims, ordered by their position in the input.
    std::vector<size_t> order(groups.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return groups[a][0] < groups[b][0]; });
    std::vector<size_t> reducedIn(groups.size());  // reduced input dim sizes
    std::vector<size_t> inPos(groups.size());      // group -> reduced input position
    for (size_t r = 0; r < order.size(); ++r) {
      size_t size = 1;
      for (size_t p : groups[order[r]]) size *= inDims[p];
      reducedIn[r] = size;
      inPos[order[r]] = r;
    }
    std::vector<size_t> inStride(reducedIn.size(), 1);
    for (size_t r = reducedIn.size(); r-- > 1;) inStride[r - 1] = inStride[r] * reducedIn[r];
    outDims_.clear();
    inStrides_.clear();
    for (size_t g = 0; g < groups.size(); ++g) {
      outDims_.push_back(reducedIn[inPos[g]]);
      inStrides_.push_back(inStride[inPos[g]]);
    }
    numElements_ = 1;
    for (size_t d : outDims_) numElements_ *= d;
    // A batch of matrix transposes: leading groups in input order, then the
    // last two input dims swapped.
    const size_t n = groups.size();
    batchedMatrix_ = n >= 2 && inPos[n - 1] == n - 2 && inPos[n - 2] == n - 1;
    for (size_t g = 0; g + 2 < n && batchedMatrix_; ++g) batchedMatrix_ = inPos[g] == g;
  }

  template <typename T>
  void run(const void* src, void* dst) const {
    const T* in = static_cast<const T*>(src);
    T* out = static_cast<T*>(dst);
    const size_t n = outDims_.size();
    if (n <= 1) {
      std::memcpy(out, in, numElements_ * sizeof(T));
    } else if (batchedMatrix_) {
      transposeMatrices(in, out, numElements_ / (outDims_[n - 1] * outDims_[n - 2]), outDims_[n - 1],
                        outDims_[n - 2]);
    } else {
      stridedCopy(in, out);
    }
  }

  // Each of `batch` row-major rows x cols matrices to cols x rows, in square
  // tiles so that both sides stay in cache.
  template <typename T>
  static void transposeMatrices(const T* in, T* out, size_t batch, size_t rows, size_t cols) {
    constexpr size_t kTile = 32;
    const size_t colTiles = (cols + kTile - 1) / kTile;
    [[maybe_unused]] const bool avx512 = cpuIsa() == Isa::kAvx512;
    const size_t grain = std::max<size_t>(1, kElementwiseGrain / (kTile * rows));
    parallelFor(batch * colTiles, grain, [&](size_t begin, size_t end) {
      for (size_t job = begin; job < end; ++job) {
        const size_t b = job / colTiles, c0 = (job % colTiles) * kTile, c1 = std::min(cols, c0 + kTile);
        const T* src = in + b * rows * cols;
        T* dst = out + b * rows * cols;
        for (size_t r0 = 0; r0 < rows; r0 += kTile) {
          const size_t r1 = std::min(rows, r0 + kTile);
#if defined(__x86_64__)
          if (sizeof(T) == 4 && avx512 && r1 - r0 == kTile && c1 - c0 == kTile) {
            for (size_t r = r0; r < r1; r += 16)
              for (size_t c = c0; c < c1; c += 16)
                transpose16x16(reinterpret_cast<const float*>(src + r * cols + c), cols,
                               reinterpret_cast<float*>(dst + c * rows + r), rows);
            continue;
          }
#endif
          for (size_t c = c0; c < c1; ++c)
            for (size_t r = r0; r < r1; ++r) dst[c * rows + r] = src[r * cols + c];
        }
      }
    });
  }

  // General case: the output is a strided view of the input.
  template <typename T>
  void stridedCopy(const T* in, T* out) const {
    std::vector<ptrdiff_t> steps;
    for (size_t s : inStrides_) steps.push_back(static_cast<ptrdiff_t>(s * sizeof(T)));
    copyStridedView(reinterpret_cast<const uint8_t*>(in), reinterpret_cast<uint8_t*>(out), outDims_, steps,
                    sizeof(T));
  }

  std::vector<size_t> perm_;
  size_t elementSize_ = 4;
  std::vector<size_t> outDims_, inStrides_;
  size_t numElements_ = 0;
  bool batchedMatrix_ = false;
};

// Tile: each dim d repeated multiples[d] times.
class TileKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("multiples")) return sdk::invalidParam("Tile: multiples is mandatory");
    for (int64_t m : params.ints("multiples", {})) {
      if (m < 1) return sdk::invalidParam("Tile: multiples must be >= 1, got " + std::to_string(m));
      multiples_.push_back(static_cast<size_t>(m));
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Tile";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    if (multiples_.size() != in[0].rank() || in[0].rank() == 0)
      return sdk::invalidParam(std::string(op) + ": multiples has " + std::to_string(multiples_.size()) +
                               " entries, in[0] has rank " + std::to_string(in[0].rank()));
    std::vector<uint32_t> outDims;
    for (size_t d = 0; d < in[0].rank(); ++d) outDims.push_back(static_cast<uint32_t>(in[0].dims[d] * multiples_[d]));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));
    inDims_.assign(in[0].dims.begin(), in[0].dims.end());
    const size_t es = sdk::dtypeSize(in[0].dtype);
    inBytes_ = rowMajorStrides(in[0].dims);
    outBytes_ = rowMajorStrides(outDims);
    for (auto& s : inBytes_) s *= es;
    for (auto& s : outBytes_) s *= es;
    elementSize_ = es;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    if (in[0].numElements() == 0) return Status::ok();
    tileDim(0, in[0].as<const uint8_t>(), out[0].as<uint8_t>());
    return Status::ok();
  }

 private:
  // Writes the first copy of dim d from the input, then duplicates that whole
  // block multiples[d]-1 times with memcpy.
  void tileDim(size_t d, const uint8_t* src, uint8_t* dst) const {
    const size_t blockBytes = inDims_[d] * outBytes_[d];
    if (d + 1 == inDims_.size()) {
      std::memcpy(dst, src, inDims_[d] * elementSize_);
    } else {
      for (size_t i = 0; i < inDims_[d]; ++i) tileDim(d + 1, src + i * inBytes_[d], dst + i * outBytes_[d]);
    }
    for (size_t m = 1; m < multiples_[d]; ++m) std::memcpy(dst + m * blockBytes, dst, blockBytes);
  }

  std::vector<size_t> multiples_, inDims_, inBytes_, outBytes_;
  size_t elementSize_ = 4;
};

}  // namespace

std::unique_ptr<Kernel> makeReshapeLike(const std::string& opType) {
  if (opType == "Reshape" || opType == "Squeeze" || opType == "ExpandDims" || opType == "Identity")
    return std::make_unique<ReshapeLikeKernel>(opType);
  return nullptr;
}

std::unique_ptr<Kernel> makeTranspose(const std::string& opType) {
  return opType == "Transpose" ? std::make_unique<TransposeKernel>() : nullptr;
}

std::unique_ptr<Kernel> makeTile(const std::string& opType) {
  return opType == "Tile" ? std::make_unique<TileKernel>() : nullptr;
}

}  // namespace qnn::cpu
