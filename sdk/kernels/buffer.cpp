// Buffer: a sliding window that lives across executes (streaming audio models
// feed one short frame per execute and run the rest of the graph on the last
// buffer_size frames). Each execute appends in[0]'s frames along buffer_dim;
// a full window is output, and the oldest `stride` frames leave before the next
// frames enter. in[1] (optional BOOL_8 scalar) resets the window first.
//
// What QNN publishes fixes the interface (docs/cpu-ops.md, "Buffer"); how a
// window that is not yet full is shown is our reading of the mode names:
// NON_BLOCKING_LEFT puts the frames held at the start of buffer_dim (oldest
// first) and zeros after them, NON_BLOCKING_RIGHT puts them at the end with
// zeros before, BLOCKING writes out[0] only once the window is full (a device
// holds the rest of the graph back until then; here out[0] keeps what it held).
// buffer_padding zero frames stand in the window when it starts and after a
// reset. Values are moved, never converted: any datatype, out[0] = in[0]'s.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

enum BufferMode : uint32_t { kBlocking = 0, kNonBlockingLeft = 1, kNonBlockingRight = 2 };

class BufferKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("buffer_size")) return sdk::invalidParam("Buffer: buffer_size is mandatory");
    if (!params.has("buffer_dim")) return sdk::invalidParam("Buffer: buffer_dim is mandatory");
    size_ = params.u32("buffer_size", 0);
    dim_ = params.u32("buffer_dim", 0);
    stride_ = params.u32("stride", 1);
    mode_ = params.u32("mode", kBlocking);
    padding_ = params.u32("buffer_padding", 0);
    if (size_ == 0) return sdk::invalidParam("Buffer: buffer_size must be at least 1");
    if (mode_ > kNonBlockingRight)
      return sdk::invalidParam("Buffer: mode " + std::to_string(mode_) +
                               " is not BLOCKING (0), NON_BLOCKING_LEFT (1) or NON_BLOCKING_RIGHT (2)");
    if (padding_ >= size_)
      return sdk::invalidParam("Buffer: buffer_padding " + std::to_string(padding_) +
                               " must be below buffer_size " + std::to_string(size_));
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Buffer";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(sdk::checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t rank = in[0].rank();
    if (dim_ >= rank)
      return sdk::invalidParam("Buffer: buffer_dim " + std::to_string(dim_) + " out of range for rank " +
                               std::to_string(rank));
    frames_ = in[0].dims[dim_];
    if (frames_ == 0 || size_ % frames_ != 0)
      return sdk::invalidParam("Buffer: buffer_size " + std::to_string(size_) +
                               " must be a multiple of in[0]'s frames per execute (dims[buffer_dim] = " +
                               std::to_string(frames_) + ")");
    if (stride_ < frames_ || stride_ > size_ || stride_ % frames_ != 0)
      return sdk::invalidParam("Buffer: stride " + std::to_string(stride_) + " must be a multiple of " +
                               std::to_string(frames_) + " (in[0]'s frames per execute) within [" +
                               std::to_string(frames_) + ", " + std::to_string(size_) + "]");
    if (in.size() == 2) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (reset)", in[1], {DType::kBool8}));
      if (in[1].numElements() != 1)
        return sdk::invalidParam("Buffer: in[1] (reset) must be a scalar, got " + dimsToString(in[1].dims));
    }
    std::vector<uint32_t> expected = in[0].dims;
    expected[dim_] = size_;
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], expected));

    elem_ = sdk::dtypeSize(in[0].dtype);
    outer_ = 1;
    for (size_t d = 0; d < dim_; ++d) outer_ *= in[0].dims[d];
    frameBytes_ = elem_;
    for (size_t d = dim_ + 1; d < rank; ++d) frameBytes_ *= in[0].dims[d];
    zeroFrame_ = zeroValueFrame(out[0]);
    window_.assign(outer_ * size_ * frameBytes_, 0);
    restart();
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    if (in.size() == 2 && *in[1].as<const uint8_t>() != 0) restart();
    if (held_ == size_) drop(stride_);             // the full window was output last time
    if (held_ + frames_ > size_) drop(held_ + frames_ - size_);
    const auto* src = in[0].as<const uint8_t>();
    for (size_t o = 0; o < outer_; ++o)
      std::memcpy(slot(o, held_), src + o * frames_ * frameBytes_, frames_ * frameBytes_);
    held_ += frames_;

    if (mode_ == kBlocking && held_ < size_) return Status::ok();
    const size_t first = mode_ == kNonBlockingLeft ? 0 : size_ - held_;  // where the oldest frame goes
    auto* dst = out[0].as<uint8_t>();
    for (size_t o = 0; o < outer_; ++o) {
      uint8_t* row = dst + o * size_ * frameBytes_;
      for (size_t f = 0; f < size_; ++f)
        if (f < first || f >= first + held_) std::memcpy(row + f * frameBytes_, zeroFrame_.data(), frameBytes_);
      std::memcpy(row + first * frameBytes_, slot(o, 0), held_ * frameBytes_);
    }
    return Status::ok();
  }

 private:
  uint8_t* slot(size_t outer, size_t frame) { return window_.data() + (outer * size_ + frame) * frameBytes_; }

  // Empty window, then buffer_padding zero frames.
  void restart() {
    held_ = 0;
    for (size_t o = 0; o < outer_; ++o)
      for (size_t f = 0; f < padding_; ++f) std::memcpy(slot(o, f), zeroFrame_.data(), frameBytes_);
    held_ = padding_;
  }

  // The oldest n frames leave; the rest move to the front.
  void drop(size_t n) {
    if (n >= held_) {
      held_ = 0;
      return;
    }
    for (size_t o = 0; o < outer_; ++o) std::memmove(slot(o, 0), slot(o, n), (held_ - n) * frameBytes_);
    held_ -= n;
  }

  // One frame of real-valued zeros in out's datatype: the zero point for fixed
  // point (q = -offset, clamped to the type), all-zero bytes otherwise.
  std::vector<uint8_t> zeroValueFrame(const TensorView& t) const {
    std::vector<uint8_t> frame(frameBytes_, 0);
    if (!sdk::dtypeIsFixedPoint(t.dtype) || t.quant.kind != sdk::QuantInfo::Kind::kScaleOffset) return frame;
    const int64_t bits = int64_t(elem_) * 8;
    const bool isSigned = sdk::dtypeIsSigned(t.dtype);
    const int64_t lo = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
    const int64_t hi = isSigned ? (int64_t(1) << (bits - 1)) - 1 : (bits == 32 ? int64_t(UINT32_MAX) : (int64_t(1) << bits) - 1);
    int64_t q = -int64_t(t.quant.offset);
    q = q < lo ? lo : (q > hi ? hi : q);
    const uint64_t raw = uint64_t(q);
    for (size_t at = 0; at < frameBytes_; at += elem_) std::memcpy(frame.data() + at, &raw, elem_);  // little endian
    return frame;
  }

  uint32_t size_ = 0, dim_ = 0, stride_ = 1, mode_ = kBlocking, padding_ = 0;
  size_t frames_ = 0, elem_ = 0, outer_ = 1, frameBytes_ = 0, held_ = 0;
  std::vector<uint8_t> window_, zeroFrame_;
};

}  // namespace

std::unique_ptr<Kernel> makeBuffer(const std::string& opType) {
  return opType == "Buffer" ? std::make_unique<BufferKernel>() : nullptr;
}

}  // namespace qnn::ops
