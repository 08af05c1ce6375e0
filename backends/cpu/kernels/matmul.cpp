// FullyConnected and MatMul on float32, both on the shared packed GEMM. Static
// right-hand sides (weights) are packed once in prepare.
#include <algorithm>
#include <limits>
#include <new>
#include <string>

#include "core/large_buffer.h"
#include "core/weight_form_cache.h"
#include "cpu/kernels/gemm.h"
#include "cpu/kernels/gemm_amx.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"
#include "cpu/kernels/vector_activation.h"

namespace qnn::cpu {
namespace {

Status outOfMemory(const char* op) {
  return {sdk::StatusCode::kOutOfMemory, std::string(op) + ": out of memory for packed weights"};
}

// A folded Gelu (Epilogue::gelu) alone: the order of a clamp or a residual against it is not known.
bool geluFoldable(const sdk::Epilogue& e) { return !e.clamp && !e.residualInput; }
// The classic products apply it to each block of C they finish (gemm::Clamp::gelu, no bounds);
// the tile and Strassen products take the unbounded clamp and leave it to geluAll after them.
gemm::Clamp geluClamp() {
  const float inf = std::numeric_limits<float>::infinity();
  return {-inf, inf, true};
}
void geluAll(float* c, size_t n) {
  parallelFor(n, sdk::kElementwiseGrain, [&](size_t b, size_t e) { geluRange(c + b, c + b, e - b); });
}
// The same over `rows` rows of `cols` values, ldc apart (a padded row pitch: the padding is not touched).
void geluRows(float* c, size_t rows, size_t cols, size_t ldc) {
  if (ldc == cols) return geluAll(c, rows * cols);
  parallelFor(rows, std::max<size_t>(1, sdk::kElementwiseGrain / cols), [&](size_t b, size_t e) {
    for (size_t r = b; r < e; ++r) geluRange(c + r * ldc, c + r * ldc, cols);
  });
}

// Packed static weights, shared by the kernels of every graph using the same weights.
using PackedForms = sdk::WeightFormCache<float, sdk::LargeVector<float>>;
PackedForms& packedForms() {
  // Destroyed with the library; forms still held by kernels stay valid (the
  // cache holds them weakly).
  static PackedForms cache;
  return cache;
}

// out = x[batch, n] . W[m, n]^T + bias[m]
class FullyConnectedKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "FullyConnected";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (input)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (weights)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (weights)", inputs[1], 2));
    const auto& x = inputs[0].dims;
    if (x.empty()) return sdk::invalidTensor("FullyConnected: in[0] (input) must have rank >= 1");
    units_ = inputs[1].dims[0];
    depth_ = inputs[1].dims[1];
    if (inputs.size() == 3) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], {DType::kFloat32}));
      if (inputs[2].dims != std::vector<uint32_t>{units_})
        return sdk::invalidTensor("FullyConnected: in[2] (bias) dims " + dimsToString(inputs[2].dims) +
                                  " must be [m] = [" + std::to_string(units_) + "]");
    }
    const size_t numel = inputs[0].numElements();
    if (depth_ == 0 || numel % depth_ != 0)
      return sdk::invalidTensor("FullyConnected: in[0] (input) dims " + dimsToString(x) +
                                " cannot be reshaped to [batch, n] with n = " + std::to_string(depth_));
    batch_ = numel / depth_;
    lda_ = depth_, ldc_ = units_;
    inDims_ = x, outDims_ = outputs[0].dims;
    std::vector<uint32_t> expected;
    if (x.size() == 1) {
      if (x[0] != depth_) return sdk::invalidTensor("FullyConnected: in[0] (input) of rank 1 must be [n]");
      expected = {units_};
    } else if (keepDims_) {
      if (x.back() != depth_)
        return sdk::invalidTensor("FullyConnected: with keep_dims the last dim of in[0] " + dimsToString(x) +
                                  " must be n = " + std::to_string(depth_));
      expected.assign(x.begin(), x.end() - 1);
      expected.push_back(units_);
    } else {
      expected = {uint32_t(batch_), units_};
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], expected));
    weightsPacked_ = inputs[1].data != nullptr;
    // Static weights on a CPU with the AMX tile unit: the bf16x6 products (gemm_amx.h), the weights
    // packed in their parts; else, large, one level of Strassen (gemm.h).
    amx_ = weightsPacked_ && gemm::useAmx(batch_, units_, depth_, false) &&
           gemm::amxCarries(inputs[1].as<const float>(), inputs[1].numElements());
    strassen_ = weightsPacked_ && !amx_ && gemm::useStrassen(batch_, units_, depth_, false);
    try {
      if (weightsPacked_) {
        // Static weights: packed once, and shared with every kernel packing the same weights.
        const float* w = inputs[1].as<const float>();
        shared_ = packedForms().get(w, inputs[1].numElements() * 4,
                                    "fc:" + std::to_string(depth_) + "x" + std::to_string(units_) +
                                        (strassen_ ? "s" : amx_ ? "a" : ""),
                                    [&] {
                                      if (amx_) {
                                        sdk::LargeVector<float> packed(gemm::amxPackedBSize(depth_, units_));
                                        gemm::packBAmx(w, depth_, true, depth_, units_, packed.data());
                                        return packed;
                                      }
                                      if (strassen_) {
                                        sdk::LargeVector<float> packed(gemm::strassenPackedBSize(depth_, units_));
                                        gemm::packBStrassen(w, depth_, true, depth_, units_, packed.data());
                                        return packed;
                                      }
                                      sdk::LargeVector<float> packed(gemm::packedBSize(depth_, units_), 0.f);
                                      gemm::packB(w, depth_, true, depth_, units_, packed.data());
                                      return packed;
                                    });
      } else {
        packedWeights_.assign(gemm::packedBSize(depth_, units_), 0.f);
      }
    } catch (const std::bad_alloc&) {
      return outOfMemory(op);
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!weightsPacked_)
      gemm::packB(inputs[1].as<const float>(), depth_, true, depth_, units_, packedWeights_.data());
    const float* packed = weightsPacked_ ? shared_->data() : packedWeights_.data();
    // With a residual after its own inputs, the bias is there when those were three.
    const bool hasBias = residualInput_ ? residualInput_ == 3 : inputs.size() == 3;
    if (amx_) {
      gemm::multiplyAmx(batch_, units_, depth_, inputs[0].as<const float>(), lda_, packed,
                        hasBias ? inputs[2].as<const float>() : nullptr, outputs[0].as<float>(), ldc_, true,
                        clamped_ ? &clamp_ : nullptr, residualInput_ ? inputs[residualInput_].as<const float>() : nullptr);
      if (clamp_.gelu) geluRows(outputs[0].as<float>(), batch_, units_, ldc_);
      return Status::ok();
    }
    if (strassen_) {  // no residual (supportsEpilogue)
      gemm::multiplyStrassen(batch_, units_, depth_, inputs[0].as<const float>(), lda_, packed,
                             hasBias ? inputs[2].as<const float>() : nullptr, outputs[0].as<float>(), ldc_, true,
                             clamped_ ? &clamp_ : nullptr);
      if (clamp_.gelu) geluRows(outputs[0].as<float>(), batch_, units_, ldc_);
      return Status::ok();
    }
    gemm::multiply(batch_, units_, depth_, inputs[0].as<const float>(), lda_, false, packed,
                   hasBias ? inputs[2].as<const float>() : nullptr, outputs[0].as<float>(), ldc_, true,
                   clamped_ ? &clamp_ : nullptr, false,
                   residualInput_ ? inputs[residualInput_].as<const float>() : nullptr);
    return Status::ok();
  }

  // A clamp and a residual after the weights and the optional bias (no residual on Strassen's path);
  // a Gelu alone; in[0] and out[0] with a padded row pitch (stridedRows), out[0] only without a
  // residual (which is laid out as out[0] would be, densely).
  bool supportsEpilogue(const sdk::Epilogue& e) const override {
    if (e.maxPool || e.inputScale || (e.gelu && !geluFoldable(e))) return false;
    if (e.residualInput && (strassen_ || (*e.residualInput != 2 && *e.residualInput != 3))) return false;
    bool seen[2] = {false, false};
    for (const auto& operand : e.strided) {
      const bool out = operand.index == sdk::Epilogue::kOut;
      if ((!out && operand.index != 0) || seen[out] || (out && e.residualInput) ||
          !stridedRows(operand.strides, out ? outDims_ : inDims_, out ? units_ : depth_))
        return false;
      seen[out] = true;
    }
    return true;
  }
  Status setEpilogue(const sdk::Epilogue& e) override {
    if (e.clamp) clamp_ = {e.clamp->lo, e.clamp->hi}, clamped_ = true;
    if (e.gelu) clamp_ = geluClamp(), clamped_ = true;
    residualInput_ = e.residualInput.value_or(0);
    for (const auto& operand : e.strided) {
      const size_t pitch = operand.strides[operand.strides.size() - 2];
      (operand.index == sdk::Epilogue::kOut ? ldc_ : lda_) = pitch;
    }
    return Status::ok();
  }

 private:
  // Whether `strides` (Epilogue::strided) address an operand of `dims` as rows of its last dim, contiguous,
  // a pitch of at least that many floats apart, with the dims before the last two dense over those rows:
  // a matrix with a padded row pitch (engine/pad_row_pitch.cpp). Its rows must be the product's rows
  // (`rowLength`, the depth or the units): an in[0] of [m, 2048] under weights [n, 1024] is read as
  // 2m rows, which a pitch of the tensor's rows does not address.
  static bool stridedRows(const std::vector<size_t>& strides, const std::vector<uint32_t>& dims, size_t rowLength) {
    const size_t rank = dims.size();
    if (rank < 2 || strides.size() != rank || strides[rank - 1] != 1 || dims[rank - 1] != rowLength ||
        strides[rank - 2] < dims[rank - 1])
      return false;
    for (size_t d = rank - 2; d-- > 0;)
      if (strides[d] != strides[d + 1] * dims[d + 1]) return false;
    return true;
  }

  bool clamped_ = false;  // a fused activation
  gemm::Clamp clamp_{0.f, 0.f};
  size_t residualInput_ = 0;  // Epilogue::residualInput (0: none)
  size_t lda_ = 0, ldc_ = 0;  // in[0]'s and out[0]'s row pitch (depth_ and units_ unless padded)
  std::vector<uint32_t> inDims_, outDims_;
  bool keepDims_ = false, weightsPacked_ = false;
  bool strassen_ = false;  // static weights packed for gemm::multiplyStrassen
  bool amx_ = false;       // static weights packed for gemm::multiplyAmx
  uint32_t units_ = 0, depth_ = 0;
  size_t batch_ = 0;
  std::vector<float> packedWeights_;   // weights given at execute
  PackedForms::Form shared_;  // static weights
};

// out[..., M, N] = op(in0)[..., M, K] x op(in1)[..., K, N] (+ bias[N]), with
// numpy broadcasting of the leading (batch) dims. An operand or the result may be addressed through
// a folded Transpose (Epilogue::strided): each batch's matrix then starts at its own offset, with
// its own leading dimension, in the tensor the Transpose read or wrote.
class MatMulKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    transA_ = params.b("transpose_in0", false);
    transB_ = params.b("transpose_in1", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "MatMul";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1]", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& a = inputs[0].dims;
    const auto& b = inputs[1].dims;
    if (a.size() < 2 || b.size() < 2)
      return sdk::invalidTensor("MatMul: in[0] " + dimsToString(a) + " and in[1] " + dimsToString(b) +
                                " must have rank >= 2");
    const uint32_t aRows = a[a.size() - 2], aCols = a.back(), bRows = b[b.size() - 2], bCols = b.back();
    m_ = transA_ ? aCols : aRows;
    k_ = transA_ ? aRows : aCols;
    n_ = transB_ ? bRows : bCols;
    const uint32_t kB = transB_ ? bCols : bRows;
    if (k_ != kB)
      return sdk::invalidTensor("MatMul: inner dims differ: in[0] " + dimsToString(a) + " gives K = " +
                                std::to_string(k_) + ", in[1] " + dimsToString(b) + " gives K = " + std::to_string(kB));
    if (inputs.size() == 3) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], {DType::kFloat32}));
      if (inputs[2].dims != std::vector<uint32_t>{n_})
        return sdk::invalidTensor("MatMul: in[2] (bias) dims " + dimsToString(inputs[2].dims) + " must be [" +
                                  std::to_string(n_) + "]");
    }
    std::vector<uint32_t> aBatch(a.begin(), a.end() - 2), bBatch(b.begin(), b.end() - 2), outBatch;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, aBatch, bBatch, &outBatch));
    std::vector<uint32_t> expected = outBatch;
    expected.push_back(m_);
    expected.push_back(n_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], expected));

    // Map every output batch to the batch it reads in each operand.
    const size_t rank = outBatch.size();
    size_t numOut = 1;
    for (uint32_t d : outBatch) numOut *= d;
    aBatchOf_.assign(numOut, 0);
    bBatchOf_.assign(numOut, 0);
    for (size_t o = 0; o < numOut; ++o) {
      size_t rem = o, aIdx = 0, bIdx = 0, aStride = 1, bStride = 1;
      for (size_t d = rank; d-- > 0;) {
        const size_t coord = rem % outBatch[d];
        rem /= outBatch[d];
        const size_t ad = d + aBatch.size() >= rank ? d + aBatch.size() - rank : SIZE_MAX;
        const size_t bd = d + bBatch.size() >= rank ? d + bBatch.size() - rank : SIZE_MAX;
        if (ad != SIZE_MAX) {
          if (aBatch[ad] != 1) aIdx += coord * aStride;
          aStride *= aBatch[ad];
        }
        if (bd != SIZE_MAX) {
          if (bBatch[bd] != 1) bIdx += coord * bStride;
          bStride *= bBatch[bd];
        }
      }
      aBatchOf_[o] = aIdx;
      bBatchOf_[o] = bIdx;
    }
    numBBatches_ = 1;
    for (uint32_t d : bBatch) numBBatches_ *= d;
    // Row-major operands: batch i at i matrices, rows a row apart.
    aBatchDims_ = aBatch, bBatchDims_ = bBatch, outBatchDims_ = outBatch;
    size_t numABatches = 1;
    for (uint32_t d : aBatch) numABatches *= d;
    aOffset_.resize(numABatches);
    for (size_t i = 0; i < aOffset_.size(); ++i) aOffset_[i] = i * size_t(m_) * k_;
    bOffset_.resize(numBBatches_);
    for (size_t i = 0; i < numBBatches_; ++i) bOffset_[i] = i * size_t(k_) * n_;
    cOffset_.resize(numOut);
    for (size_t o = 0; o < numOut; ++o) cOffset_[o] = o * size_t(m_) * n_;
    lda_ = transA_ ? m_ : k_, ldb_ = transB_ ? k_ : n_, ldc_ = n_;
    bPacked_ = inputs[1].data != nullptr;
    // A constant B on a CPU with the AMX tile unit: the bf16x6 products (gemm_amx.h), B packed in
    // its parts; else, large, one level of Strassen (gemm.h).
    amx_ = bPacked_ && gemm::useAmx(m_, n_, k_, transA_) &&
           gemm::amxCarries(inputs[1].as<const float>(), inputs[1].numElements());
    strassen_ = bPacked_ && !amx_ && gemm::useStrassen(m_, n_, k_, transA_);
    packedSize_ = amx_        ? gemm::amxPackedBSize(k_, n_)
                  : strassen_ ? gemm::strassenPackedBSize(k_, n_)
                              : gemm::packedBSize(k_, n_);
    directB_ = false;
    try {
      if (bPacked_) {
        // A static right-hand side: packed once, shared with every kernel packing the same weights.
        const float* b = inputs[1].as<const float>();
        shared_ = packedForms().get(b, inputs[1].numElements() * 4,
                                    "matmul:" + std::to_string(numBBatches_) + "x" + std::to_string(k_) + "x" +
                                        std::to_string(n_) + (transB_ ? "t" : "") + (strassen_ ? "s" : amx_ ? "a" : ""),
                                    [&] {
                                      sdk::LargeVector<float> packed(numBBatches_ * packedSize_, 0.f);
                                      packAllB(b, packed.data());
                                      return packed;
                                    });
      } else if (gemm::unpackedBSupported(n_, transA_) && !transB_) {
        directB_ = true;  // read in place at execute: no packing per call
      } else {
        packedB_.assign(numBBatches_ * packedSize_, 0.f);
      }
    } catch (const std::bad_alloc&) {
      return outOfMemory(op);
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!bPacked_ && !directB_) packAllB(inputs[1].as<const float>(), packedB_.data());
    const float* packedB = bPacked_ ? shared_->data() : packedB_.data();
    const float* a = inputs[0].as<const float>();
    const float* bIn = inputs[1].as<const float>();
    const float* bias = inputs.size() == 3 ? inputs[2].as<const float>() : nullptr;
    float* out = outputs[0].as<float>();
    const size_t outSize = size_t(m_) * n_;
    const gemm::Clamp* clamp = clamped_ ? &clamp_ : nullptr;
    auto run = [&](size_t o, bool parallel) {
      const float* aAt = a + aOffset_[aBatchOf_[o]];
      float* c = out + cOffset_[o];
      if (amx_ || strassen_) {  // row-major operands only (supportsEpilogue)
        if (amx_)
          gemm::multiplyAmx(m_, n_, k_, aAt, lda_, packedB + bBatchOf_[o] * packedSize_, bias, c, ldc_, parallel,
                            clamp);
        else
          gemm::multiplyStrassen(m_, n_, k_, aAt, lda_, packedB + bBatchOf_[o] * packedSize_, bias, c, ldc_,
                                 parallel, clamp);
        if (clamp_.gelu && parallel) geluAll(c, outSize);
        if (clamp_.gelu && !parallel) geluRange(c, c, outSize);
      } else if (directB_)
        gemm::multiplyUnpackedB(m_, n_, k_, aAt, lda_, bIn + bOffset_[bBatchOf_[o]], ldb_, bias, c, ldc_, parallel,
                                clamp);
      else
        gemm::multiply(m_, n_, k_, aAt, lda_, transA_, packedB + bBatchOf_[o] * packedSize_, bias, c, ldc_, parallel,
                       clamp);
    };
    // Many small products (attention heads) parallelize best across products.
    const size_t numOut = aBatchOf_.size();
    if (numOut >= 4) {
      parallelFor(numOut, 1, [&](size_t b, size_t e) {
        for (size_t o = b; o < e; ++o) run(o, false);
      });
    } else {
      for (size_t o = 0; o < numOut; ++o) run(o, true);
    }
    return Status::ok();
  }

  bool supportsEpilogue(const sdk::Epilogue& e) const override {
    if (e.residualInput || e.maxPool || e.inputScale || (e.gelu && !geluFoldable(e))) return false;
    if (e.strided.empty()) return true;
    if (bPacked_) return false;  // a static B: its products (AMX, Strassen) take row-major operands
    std::vector<bool> seen(3, false);
    for (const auto& operand : e.strided) {
      const size_t slot = operand.index == sdk::Epilogue::kOut ? 2 : operand.index;
      if (slot > 2 || seen[slot]) return false;
      seen[slot] = true;
      const size_t rank = 2 + (slot == 0 ? aBatchDims_ : slot == 1 ? bBatchDims_ : outBatchDims_).size();
      // Matrices with contiguous rows: the products' leading dimensions. (One with contiguous columns
      // would be a transposed operand; a right-hand side then packs on every call, slower than the
      // Transpose's copy: fold_transpose_matmul.cpp.)
      if (operand.strides.size() != rank || operand.strides.back() != 1) return false;
    }
    return true;
  }
  Status setEpilogue(const sdk::Epilogue& e) override {
    if (e.clamp) clamp_ = {e.clamp->lo, e.clamp->hi}, clamped_ = true;
    if (e.gelu) clamp_ = geluClamp(), clamped_ = true;
    if (e.strided.empty()) return Status::ok();
    for (const auto& operand : e.strided) {
      const auto& st = operand.strides;
      const size_t ld = st[st.size() - 2];  // the rows' step (the stored matrix's, transposed or not)
      if (operand.index == 0) {
        lda_ = ld;
        batchOffsets(aBatchDims_, st, &aOffset_);
      } else if (operand.index == 1) {
        ldb_ = ld;
        batchOffsets(bBatchDims_, st, &bOffset_);
      } else {
        ldc_ = ld;
        batchOffsets(outBatchDims_, st, &cOffset_);
      }
    }
    return Status::ok();
  }

 private:
  // The offset of each batch (row-major over batchDims) in a tensor addressed with `strides`.
  static void batchOffsets(const std::vector<uint32_t>& batchDims, const std::vector<size_t>& strides,
                           std::vector<size_t>* offsets) {
    for (size_t i = 0; i < offsets->size(); ++i) {
      size_t rem = i, at = 0;
      for (size_t d = batchDims.size(); d-- > 0;) {
        at += rem % batchDims[d] * strides[d];
        rem /= batchDims[d];
      }
      (*offsets)[i] = at;
    }
  }

  void packAllB(const float* b, float* packed) {
    parallelFor(numBBatches_, 1, [&](size_t s, size_t e) {
      for (size_t i = s; i < e; ++i) {
        if (amx_)
          gemm::packBAmx(b + bOffset_[i], ldb_, transB_, k_, n_, packed + i * packedSize_);
        else if (strassen_)
          gemm::packBStrassen(b + bOffset_[i], ldb_, transB_, k_, n_, packed + i * packedSize_);
        else
          gemm::packB(b + bOffset_[i], ldb_, transB_, k_, n_, packed + i * packedSize_);
      }
    });
  }

  bool transA_ = false, transB_ = false, bPacked_ = false, clamped_ = false;
  bool directB_ = false;  // a right-hand side given at execute, read in place (gemm::multiplyUnpackedB)
  bool strassen_ = false;  // a constant right-hand side packed for gemm::multiplyStrassen
  bool amx_ = false;       // a constant right-hand side packed for gemm::multiplyAmx
  gemm::Clamp clamp_{0.f, 0.f};  // a fused activation, when clamped_
  uint32_t m_ = 0, k_ = 0, n_ = 0;
  size_t numBBatches_ = 1, packedSize_ = 0;
  std::vector<size_t> aBatchOf_, bBatchOf_;  // per output batch: the batch of A and of B it reads
  std::vector<uint32_t> aBatchDims_, bBatchDims_, outBatchDims_;
  // Where each batch's matrix starts (A's and B's by their own batch index, C's by the output's)
  // and the leading dimensions: row-major unless an operand is strided (setEpilogue).
  std::vector<size_t> aOffset_, bOffset_, cOffset_;
  size_t lda_ = 0, ldb_ = 0, ldc_ = 0;
  std::vector<float> packedB_;               // a right-hand side given at execute
  PackedForms::Form shared_;  // a static one
};

}  // namespace

std::unique_ptr<Kernel> makeFullyConnected(const std::string& opType) {
  return opType == "FullyConnected" ? std::make_unique<FullyConnectedKernel>() : nullptr;
}
std::unique_ptr<Kernel> makeMatMul(const std::string& opType) {
  return opType == "MatMul" ? std::make_unique<MatMulKernel>() : nullptr;
}

}  // namespace qnn::cpu
