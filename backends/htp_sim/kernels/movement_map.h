// The machinery of the HTP data-movement kernels (movement.cpp, rearrange.cpp):
// at prepare every output element gets its source (input, element) or the pad
// value; execute copies through the maps and requantizes with the fixed-point
// rule when an input's encoding differs from the output's. Maps that depend on
// input data (indices) are rebuilt at execute by refreshMaps.
#pragma once

#include <string>
#include <vector>

#include "htp_sim/kernels/copy_runs.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {

constexpr std::initializer_list<DType> kMovableTypes = {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16,
                                                        DType::kSFixed16, DType::kInt32, DType::kUInt32,
                                                        DType::kUInt8, DType::kBool8, DType::kSFixed32};

struct Source {
  uint32_t input = 0;
  int64_t index = -1;  // -1: the pad value
};
using ElementMap = std::vector<Source>;

inline size_t product(const std::vector<uint32_t>& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

// Output element -> input element for maps that are a product of per-axis
// index lists (lists[d][out coordinate] = input coordinate or -1).
inline ElementMap mapFromAxisLists(const std::vector<std::vector<int64_t>>& lists, const std::vector<size_t>& inStrides) {
  std::vector<uint32_t> outDims;
  for (const auto& l : lists) outDims.push_back(uint32_t(l.size()));
  ElementMap map(product(outDims));
  std::vector<uint32_t> coord(outDims.size(), 0);
  for (size_t i = 0; i < map.size(); ++i) {
    int64_t src = 0;
    for (size_t d = 0; d < coord.size() && src >= 0; ++d) {
      const int64_t c = lists[d][coord[d]];
      src = c < 0 ? -1 : src + c * int64_t(inStrides[d]);
    }
    map[i].index = src;
    for (size_t d = coord.size(); d-- > 0;) {
      if (++coord[d] < outDims[d]) break;
      coord[d] = 0;
    }
  }
  return map;
}

inline ElementMap identityMap(size_t n) {
  ElementMap map(n);
  for (size_t i = 0; i < n; ++i) map[i].index = int64_t(i);
  return map;
}

// The shared machinery: maps_[o] for output o, requantizers per (output, input).
class MovementKernel : public Kernel {
 public:
  explicit MovementKernel(std::string op) : op_(std::move(op)) {}

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    if (inputs.empty() || outputs.empty()) return sdk::invalidTensor(op_ + ": needs inputs and outputs");
    const size_t n = inputs.size();
    for (size_t i = 0; i < n; ++i) {
      if (!isDataInput(i, n)) continue;
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "input", inputs[i], kMovableTypes));
      if (inputs[i].dtype != inputs[0].dtype)
        return sdk::unsupportedDType(op_ + ": every data input must have the datatype of in[0]");
    }
    for (const TensorView& out : outputs) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "output", out, kMovableTypes));
    QNN_SDK_RETURN_IF_ERROR(buildMaps(inputs, outputs));
    requant_.assign(outputs.size(), std::vector<Requantizer>(n));
    padValue_.assign(outputs.size(), 0);
    copyOnly_.assign(outputs.size(), false);
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (maps_[o].size() != outputs[o].numElements())
        return sdk::invalidTensor(op_ + ": out[" + std::to_string(o) + "] has " +
                                  std::to_string(outputs[o].numElements()) + " elements, the op produces " +
                                  std::to_string(maps_[o].size()));
      for (size_t i = 0; i < n; ++i)
        if (isDataInput(i, n)) QNN_SDK_RETURN_IF_ERROR(requant_[o][i].prepare(op, inputs[i], outputs[o]));
      QNN_SDK_RETURN_IF_ERROR(padStoredValue(inputs[0], &padValue_[o]));
      padValue_[o] = requant_[o][0](padValue_[o]);
      // (A narrower bitwidth, e.g. 4-bit values in 8 bits, keeps the saturation.)
      const uint32_t bits = outputs[o].quant.bitwidth;
      copyOnly_[o] = bits == 0 || bits == 8 * sdk::dtypeSize(outputs[o].dtype);
      for (size_t i = 0; i < n; ++i)
        if (isDataInput(i, n) && (!requant_[o][i].isIdentity() || inputs[i].dtype != outputs[o].dtype))
          copyOnly_[o] = false;
    }
    // Plain copies through a map fixed at prepare: as runs (memcpy / strided loops).
    runs_.assign(outputs.size(), {});
    for (size_t o = 0; o < outputs.size(); ++o)
      if (copyOnly_[o] && mapsFixedAtPrepare()) {
        const ElementMap& map = maps_[o];
        buildCopyRuns(
            map.size(), [&map](size_t i, uint32_t* input, int64_t* index) { *input = map[i].input, *index = map[i].index; },
            &runs_[o]);
      }
    // One output that is in[0]'s elements in order: a plain copy of its bytes.
    wholeCopy_ = outputs.size() == 1 && runs_[0].size() == 1 && runs_[0][0].input == 0 && runs_[0][0].src == 0 &&
                 runs_[0][0].stride == 1 && runs_[0][0].len == inputs[0].numElements() &&
                 inputs[0].dtype == outputs[0].dtype;
    return Status::ok();
  }

  bool outputIsInputCopy() const override { return wholeCopy_; }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(refreshMaps(inputs));
    for (size_t o = 0; o < outputs.size(); ++o) {
      const ElementMap& map = maps_[o];
      if (!runs_[o].empty()) {
        runInputs_.resize(inputs.size());
        for (size_t i = 0; i < inputs.size(); ++i) runInputs_[i] = inputs[i].data;
        if (copyAlongRuns(runs_[o], runInputs_, outputs[o].data, sdk::dtypeSize(outputs[o].dtype),
                          uint32_t(padValue_[o])))
          continue;
      }
      if (copyOnly_[o] && copyThroughMap(inputs, outputs[o], map, padValue_[o])) continue;
      for (size_t i = 0; i < map.size(); ++i) {
        const Source& s = map[i];
        storeInt(outputs[o], i, s.index < 0 ? padValue_[o] : requant_[o][s.input](loadInt(inputs[s.input], size_t(s.index))));
      }
    }
    return Status::ok();
  }

 protected:
  // Inputs that carry data (Gather's indices do not): by default the first
  // dataInputCount ones; the scatters override isDataInput (data, indices, updates).
  virtual size_t dataInputCount(size_t numInputs) const { return numInputs; }
  virtual bool isDataInput(size_t i, size_t numInputs) const { return i < dataInputCount(numInputs); }
  virtual Status buildMaps(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;
  // Maps that depend on input data (Gather) are rebuilt here.
  virtual Status refreshMaps(const std::vector<TensorView>&) { return Status::ok(); }
  // False for the kernels whose refreshMaps rebuilds the maps from input data.
  virtual bool mapsFixedAtPrepare() const { return true; }
  // The stored value (in in[0]'s encoding) of padded elements.
  virtual Status padStoredValue(const TensorView&, int64_t* value) {
    *value = 0;
    return Status::ok();
  }

  std::string op_;
  std::vector<ElementMap> maps_;

 private:
  // Every input has the output's dtype and encoding: stored values are copied
  // as they are (the requantization would return them unchanged), with the
  // dtype switch once per call. False for element sizes it does not handle.
  static bool copyThroughMap(const std::vector<TensorView>& inputs, const TensorView& out, const ElementMap& map,
                             int64_t pad) {
    switch (sdk::dtypeSize(out.dtype)) {
      case 1: copyTyped<uint8_t>(inputs, out, map, pad); return true;
      case 2: copyTyped<uint16_t>(inputs, out, map, pad); return true;
      case 4: copyTyped<uint32_t>(inputs, out, map, pad); return true;
      default: return false;
    }
  }
  template <typename T>
  static void copyTyped(const std::vector<TensorView>& inputs, const TensorView& out, const ElementMap& map,
                        int64_t pad) {
    T* y = out.as<T>();
    const T padBits = T(pad);  // the pad value's stored bits (two's complement for signed types)
    for (size_t i = 0; i < map.size(); ++i) {
      const Source& s = map[i];
      y[i] = s.index < 0 ? padBits : inputs[s.input].as<const T>()[size_t(s.index)];
    }
  }

  std::vector<std::vector<Requantizer>> requant_;
  std::vector<int64_t> padValue_;
  std::vector<bool> copyOnly_;  // per output: a plain copy through the map
  std::vector<std::vector<CopyRun>> runs_;  // per output: the map as runs (empty: use the map)
  std::vector<const void*> runInputs_;      // execute scratch
  bool wholeCopy_ = false;
};

}  // namespace qnn::htp
