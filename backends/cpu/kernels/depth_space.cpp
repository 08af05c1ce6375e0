// DepthToSpace and SpaceToDepth on NHWC tensors of any element type (pure data
// movement). block_size is [bh, bw]. With Cs = the channels of the space-side
// tensor and (i, j) a position inside one block:
//   DepthToSpace DCR (mode 0): out[b, h*bh+i, w*bw+j, c] = in[b, h, w, (i*bw+j)*Cs + c]
//   DepthToSpace CRD (mode 1): out[b, h*bh+i, w*bw+j, c] = in[b, h, w, c*bh*bw + i*bw + j]
//   SpaceToDepth DCR (mode 0): out[b, h, w, (i*bw+j)*Cs + c] = in[b, h*bh+i, w*bw+j, c]
//   SpaceToDepth CRD (mode 1): out[b, h, w, c*bh*bw + i*bw + j] = in[b, h*bh+i, w*bw+j, c]
// Both walk the space-side tensor; each (b, h*bh+i, w*bw+j) row of Cs channels
// is one copy in DCR order, and a strided gather in CRD.
#include <cstring>
#include <string>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

class DepthSpaceKernel final : public Kernel {
 public:
  explicit DepthSpaceKernel(bool toSpace) : toSpace_(toSpace), op_(toSpace ? "DepthToSpace" : "SpaceToDepth") {}

  Status init(const OpParams& params) override {
    const sdk::ParamValue* bs = params.find("block_size");
    if (!bs || !bs->isTensor || bs->numElements() != 2)
      return sdk::invalidParam(op_ + ": block_size must be a tensor of 2 values [block_height, block_width]");
    auto v = bs->tensorAsInt64();
    if (v[0] < 1 || v[1] < 1) return sdk::invalidParam(op_ + ": block_size values must be >= 1");
    bh_ = uint32_t(v[0]), bw_ = uint32_t(v[1]);
    const uint32_t mode = params.u32("mode", 0);
    if (mode > 1) return sdk::invalidParam(op_ + ": mode must be 0 (DCR) or 1 (CRD), got " + std::to_string(mode));
    crd_ = mode == 1;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", in[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const auto& d = in[0].dims;
    std::vector<uint32_t> want;
    if (toSpace_) {
      if (d[3] % (bh_ * bw_) != 0)
        return sdk::invalidTensor(op_ + ": in[0] depth " + std::to_string(d[3]) + " is not a multiple of " +
                                  std::to_string(bh_ * bw_));
      want = {d[0], d[1] * bh_, d[2] * bw_, d[3] / (bh_ * bw_)};
    } else {
      if (d[1] % bh_ != 0 || d[2] % bw_ != 0)
        return sdk::invalidTensor(op_ + ": in[0] height/width " + std::to_string(d[1]) + "x" + std::to_string(d[2]) +
                                  " are not multiples of the block " + std::to_string(bh_) + "x" + std::to_string(bw_));
      want = {d[0], d[1] / bh_, d[2] / bw_, d[3] * bh_ * bw_};
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], want));
    space_ = toSpace_ ? want : d;
    elementBytes_ = sdk::dtypeSize(in[0].dtype);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const uint8_t* src = in[0].as<const uint8_t>();
    uint8_t* dst = out[0].as<uint8_t>();
    const size_t n = space_[0], hs = space_[1], ws = space_[2], cs = space_[3];
    const size_t hd = hs / bh_, wd = ws / bw_, cd = cs * bh_ * bw_, eb = elementBytes_;
    for (size_t b = 0; b < n; ++b)
      for (size_t y = 0; y < hs; ++y)
        for (size_t x = 0; x < ws; ++x) {
          const size_t i = y % bh_, j = x % bw_;
          const size_t spaceRow = ((b * hs + y) * ws + x) * cs;
          const size_t depthRow = ((b * hd + y / bh_) * wd + x / bw_) * cd;
          if (!crd_) {
            const size_t depthAt = depthRow + (i * bw_ + j) * cs;
            if (toSpace_) std::memcpy(dst + spaceRow * eb, src + depthAt * eb, cs * eb);
            else std::memcpy(dst + depthAt * eb, src + spaceRow * eb, cs * eb);
          } else {
            for (size_t c = 0; c < cs; ++c) {
              const size_t depthAt = depthRow + c * bh_ * bw_ + i * bw_ + j;
              if (toSpace_) std::memcpy(dst + (spaceRow + c) * eb, src + depthAt * eb, eb);
              else std::memcpy(dst + depthAt * eb, src + (spaceRow + c) * eb, eb);
            }
          }
        }
    return Status::ok();
  }

 private:
  bool toSpace_;
  std::string op_;
  uint32_t bh_ = 1, bw_ = 1;
  bool crd_ = false;
  std::vector<uint32_t> space_;
  size_t elementBytes_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeDepthSpace(const std::string& opType) {
  if (opType == "DepthToSpace") return std::make_unique<DepthSpaceKernel>(true);
  if (opType == "SpaceToDepth") return std::make_unique<DepthSpaceKernel>(false);
  return nullptr;
}

}  // namespace qnn::cpu
