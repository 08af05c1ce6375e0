// Numpy-style broadcasting shared by every kernel with more than one data input
// (binary ops, Select, Prelu). prepare() builds a BroadcastPlan once; execute()
// walks the output row by row, each row being a contiguous run of the output in
// which every input either advances by one element or stays on one element —
// the two cases the row loops specialise so that the compiler vectorises them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {

struct BroadcastPlan {
  // Output dims after dropping size-1 dims and merging neighbours that every
  // input walks the same way; never empty (a scalar output is {1}).
  std::vector<size_t> dims;
  // strides[input][d]: elements to step in that input per step of dims[d]; 0 on
  // a broadcast dim.
  std::vector<std::vector<size_t>> strides;
  size_t numElements = 0;

  size_t rowLength() const { return dims.back(); }
  size_t numRows() const { return rowLength() == 0 ? 0 : numElements / rowLength(); }
  // 1 if the input advances along the row, 0 if it repeats one element.
  size_t rowStep(size_t input) const { return strides[input].back(); }

  // Element offset of every input at the start of output row `row`.
  void rowOffsets(size_t row, size_t* offsets) const {
    for (size_t k = 0; k < strides.size(); ++k) offsets[k] = 0;
    for (size_t d = dims.size() - 1; d-- > 0;) {
      size_t i = row % dims[d];
      row /= dims[d];
      for (size_t k = 0; k < strides.size(); ++k) offsets[k] += i * strides[k][d];
    }
  }
};

// The output dims of a broadcasting op: the broadcast shape, or rank 0 when
// that shape holds one element (scalars held as [1] and as rank 0 mix).
inline Status checkBroadcastOutputDims(const char* op, const TensorView& out, const std::vector<uint32_t>& computed) {
  if (out.rank() == 0 && std::all_of(computed.begin(), computed.end(), [](uint32_t d) { return d == 1; }))
    return Status::ok();
  return checkOutputDims(op, out, computed);
}

// Broadcasts every input shape to the common output shape (returned in
// *outDims) and builds the plan. Fails in the words of broadcastShapes.
inline Status makeBroadcastPlan(const char* op, const std::vector<std::vector<uint32_t>>& inputShapes,
                                std::vector<uint32_t>* outDims, BroadcastPlan* plan) {
  std::vector<uint32_t> out = inputShapes.front();
  for (size_t k = 1; k < inputShapes.size(); ++k) {
    std::vector<uint32_t> merged;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, out, inputShapes[k], &merged));
    out = std::move(merged);
  }
  *outDims = out;

  const size_t rank = out.size(), numInputs = inputShapes.size();
  // Full-rank strides of each input, 0 where it is broadcast.
  std::vector<std::vector<size_t>> full(numInputs, std::vector<size_t>(rank, 0));
  for (size_t k = 0; k < numInputs; ++k) {
    const auto& s = inputShapes[k];
    size_t stride = 1;
    for (size_t d = rank; d-- > rank - s.size();) {
      uint32_t dim = s[d - (rank - s.size())];
      full[k][d] = dim == 1 ? 0 : stride;
      stride *= dim;
    }
  }

  plan->dims.clear();
  plan->strides.assign(numInputs, {});
  plan->numElements = 1;
  for (uint32_t d : out) plan->numElements *= d;
  for (size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    bool mergeWithPrevious = !plan->dims.empty();
    for (size_t k = 0; k < numInputs && mergeWithPrevious; ++k)
      mergeWithPrevious = plan->strides[k].back() == full[k][d] * out[d];
    if (mergeWithPrevious) {
      plan->dims.back() *= out[d];
      for (size_t k = 0; k < numInputs; ++k) plan->strides[k].back() = full[k][d];
    } else {
      plan->dims.push_back(out[d]);
      for (size_t k = 0; k < numInputs; ++k) plan->strides[k].push_back(full[k][d]);
    }
  }
  if (plan->dims.empty()) {
    plan->dims.push_back(plan->numElements == 0 ? 0 : 1);
    for (auto& s : plan->strides) s.push_back(0);
  }
  return Status::ok();
}

// Calls rowFn(outOffset, inOffsets, length) for runs of the output that lie
// within one row, covering it all. The output is split across threads in
// chunks of about `grainElements`, cutting rows when needed so that a
// same-shape op (one long row) is parallel too.
template <size_t NumInputs, typename RowFn>
void forEachBroadcastRow(const BroadcastPlan& plan, size_t grainElements, RowFn&& rowFn) {
  const size_t rowLen = plan.rowLength();
  if (rowLen == 0) return;
  parallelFor(plan.numElements, grainElements, [&](size_t begin, size_t end) {
    size_t offsets[NumInputs];
    for (size_t pos = begin; pos < end;) {
      const size_t row = pos / rowLen, col = pos % rowLen;
      const size_t len = std::min(rowLen - col, end - pos);
      plan.rowOffsets(row, offsets);
      for (size_t k = 0; k < NumInputs; ++k) offsets[k] += col * plan.rowStep(k);
      rowFn(pos, static_cast<const size_t*>(offsets), len);
      pos += len;
    }
  });
}

using sdk::kElementwiseGrain;  // core/op_kernel.h

}  // namespace qnn::cpu
