// Buffer keeps a window across executes, so its cases are sequences: each test
// feeds frames one execute at a time and checks the whole output after each,
// against windows worked out by hand from the rules in docs/cpu-ops.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cpu/kernels/kernel.h"

namespace qnn::conformance {
namespace {

struct BufferParams {
  uint32_t size = 0, dim = 0, stride = 1, mode = 1, padding = 0;
};

// One Buffer node over float frames of dims inDims (or uint8 when quantized).
template <typename T>
struct BufferNode {
  std::unique_ptr<cpu::Kernel> kernel = cpu::findKernel("Buffer")("Buffer");
  std::vector<T> in, out;
  uint8_t reset = 0;
  std::vector<sdk::TensorView> ins, outs;

  sdk::Status build(const BufferParams& bp, std::vector<uint32_t> inDims, bool withReset = false,
                    sdk::DType dtype = sdk::DType::kFloat32, sdk::QuantInfo quant = {}) {
    sdk::OpParams p;
    p.set("buffer_size", sdk::scalarU32(bp.size));
    p.set("buffer_dim", sdk::scalarU32(bp.dim));
    p.set("stride", sdk::scalarU32(bp.stride));
    p.set("mode", sdk::scalarU32(bp.mode));
    p.set("buffer_padding", sdk::scalarU32(bp.padding));
    if (auto st = kernel->init(p); !st.isOk()) return st;
    std::vector<uint32_t> outDims = inDims;
    if (bp.dim < outDims.size()) outDims[bp.dim] = bp.size;
    size_t n = 1, m = 1;
    for (uint32_t d : inDims) n *= d;
    for (uint32_t d : outDims) m *= d;
    in.assign(n, T(0));
    out.assign(m, T(-1));
    ins = {sdk::TensorView{in.data(), dtype, inDims, quant}};
    if (withReset) ins.push_back(sdk::TensorView{&reset, sdk::DType::kBool8, {1}, {}});
    outs = {sdk::TensorView{out.data(), dtype, outDims, quant}};
    return kernel->prepare(ins, outs);
  }
  std::vector<T> run(std::vector<T> frames, bool resetNow = false) {
    in = std::move(frames);
    ins[0].data = in.data();
    reset = resetNow ? 1 : 0;
    EXPECT_TRUE(kernel->execute(ins, outs).isOk());
    return out;
  }
};

using V = std::vector<float>;

TEST(Buffer, NonBlockingLeftFillsFromTheStartThenSlides) {
  BufferNode<float> node;  // two rows (outer), one frame per execute along dim 1
  ASSERT_TRUE(node.build({3, 1, 1, 1, 0}, {2, 1}).isOk());
  EXPECT_EQ(node.run({1, 10}), (V{1, 0, 0, 10, 0, 0}));
  EXPECT_EQ(node.run({2, 20}), (V{1, 2, 0, 10, 20, 0}));
  EXPECT_EQ(node.run({3, 30}), (V{1, 2, 3, 10, 20, 30}));
  EXPECT_EQ(node.run({4, 40}), (V{2, 3, 4, 20, 30, 40}));
  EXPECT_EQ(node.run({5, 50}), (V{3, 4, 5, 30, 40, 50}));
}

TEST(Buffer, NonBlockingRightFillsFromTheEnd) {
  BufferNode<float> node;
  ASSERT_TRUE(node.build({3, 1, 1, 2, 0}, {2, 1}).isOk());
  EXPECT_EQ(node.run({1, 10}), (V{0, 0, 1, 0, 0, 10}));
  EXPECT_EQ(node.run({2, 20}), (V{0, 1, 2, 0, 10, 20}));
  EXPECT_EQ(node.run({3, 30}), (V{1, 2, 3, 10, 20, 30}));
  EXPECT_EQ(node.run({4, 40}), (V{2, 3, 4, 20, 30, 40}));
}

TEST(Buffer, StrideDropsWholeFramesOfSeveralElements) {
  BufferNode<float> node;  // frames of 2 elements, 2 frames per execute along dim 0
  ASSERT_TRUE(node.build({4, 0, 2, 1, 0}, {2, 2}).isOk());
  EXPECT_EQ(node.run({1, 2, 3, 4}), (V{1, 2, 3, 4, 0, 0, 0, 0}));
  EXPECT_EQ(node.run({5, 6, 7, 8}), (V{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(node.run({9, 10, 11, 12}), (V{5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST(Buffer, StrideOfTheWholeWindowStartsAfresh) {
  BufferNode<float> node;
  ASSERT_TRUE(node.build({4, 0, 4, 2, 0}, {2, 1}).isOk());
  EXPECT_EQ(node.run({1, 2}), (V{0, 0, 1, 2}));
  EXPECT_EQ(node.run({3, 4}), (V{1, 2, 3, 4}));
  EXPECT_EQ(node.run({5, 6}), (V{0, 0, 5, 6}));
  EXPECT_EQ(node.run({7, 8}), (V{5, 6, 7, 8}));
}

TEST(Buffer, BlockingWritesOnlyFullWindows) {
  BufferNode<float> node;
  ASSERT_TRUE(node.build({2, 0, 1, 0, 0}, {1}).isOk());
  EXPECT_EQ(node.run({1}), (V{-1, -1}));  // not full: out[0] untouched
  EXPECT_EQ(node.run({2}), (V{1, 2}));
  EXPECT_EQ(node.run({3}), (V{2, 3}));
}

TEST(Buffer, ResetEmptiesTheWindowBeforeTheNewFrames) {
  BufferNode<float> node;
  ASSERT_TRUE(node.build({3, 0, 1, 1, 0}, {1}, /*withReset=*/true).isOk());
  EXPECT_EQ(node.run({1}), (V{1, 0, 0}));
  EXPECT_EQ(node.run({2}), (V{1, 2, 0}));
  EXPECT_EQ(node.run({3}, /*resetNow=*/true), (V{3, 0, 0}));
  EXPECT_EQ(node.run({4}), (V{3, 4, 0}));
}

TEST(Buffer, PaddingFramesStandInTheWindowAtStartAndAfterReset) {
  BufferNode<float> node;
  ASSERT_TRUE(node.build({3, 0, 1, 1, 1}, {1}, /*withReset=*/true).isOk());
  EXPECT_EQ(node.run({5}), (V{0, 5, 0}));
  EXPECT_EQ(node.run({6}), (V{0, 5, 6}));
  EXPECT_EQ(node.run({7}), (V{5, 6, 7}));
  EXPECT_EQ(node.run({8}, /*resetNow=*/true), (V{0, 8, 0}));
}

TEST(Buffer, FixedPointZerosAreTheZeroPoint) {
  BufferNode<uint8_t> node;
  sdk::QuantInfo q;
  q.kind = sdk::QuantInfo::Kind::kScaleOffset;
  q.scale = 0.5f;
  q.offset = -128;  // real 0.0 is stored as 128
  ASSERT_TRUE(node.build({3, 0, 1, 2, 0}, {1}, false, sdk::DType::kUFixed8, q).isOk());
  EXPECT_EQ(node.run({200}), (std::vector<uint8_t>{128, 128, 200}));
  EXPECT_EQ(node.run({7}), (std::vector<uint8_t>{128, 200, 7}));
}

TEST(Buffer, RefusesInconsistentParamsAndShapes) {
  auto refused = [](BufferParams bp, std::vector<uint32_t> dims) {
    BufferNode<float> node;
    return !node.build(bp, dims).isOk();
  };
  EXPECT_FALSE(refused({4, 0, 2, 1, 0}, {2}));
  EXPECT_TRUE(refused({0, 0, 1, 1, 0}, {1}));   // empty window
  EXPECT_TRUE(refused({5, 0, 2, 1, 0}, {2}));   // 5 frames is not a whole number of 2-frame executes
  EXPECT_TRUE(refused({4, 0, 1, 1, 0}, {2}));   // stride below the frames of one execute
  EXPECT_TRUE(refused({4, 0, 3, 1, 0}, {2}));   // stride not a whole number of executes
  EXPECT_TRUE(refused({4, 0, 6, 1, 0}, {2}));   // stride beyond the window
  EXPECT_TRUE(refused({4, 1, 2, 1, 0}, {2}));   // buffer_dim beyond the rank
  EXPECT_TRUE(refused({4, 0, 2, 3, 0}, {2}));   // no mode 3
  EXPECT_TRUE(refused({4, 0, 2, 1, 4}, {2}));   // padding fills the whole window

  BufferNode<float> wrongOut;
  ASSERT_TRUE(wrongOut.build({4, 0, 2, 1, 0}, {2}).isOk());
  wrongOut.outs[0].dims = {3};
  EXPECT_FALSE(wrongOut.kernel->prepare(wrongOut.ins, wrongOut.outs).isOk());
  wrongOut.outs[0].dims = {4};
  wrongOut.outs[0].dtype = sdk::DType::kInt32;  // out[0] must keep in[0]'s datatype
  EXPECT_FALSE(wrongOut.kernel->prepare(wrongOut.ins, wrongOut.outs).isOk());

  BufferNode<float> wrongReset;
  ASSERT_TRUE(wrongReset.build({4, 0, 2, 1, 0}, {2}, true).isOk());
  wrongReset.ins[1].dtype = sdk::DType::kFloat32;
  EXPECT_FALSE(wrongReset.kernel->prepare(wrongReset.ins, wrongReset.outs).isOk());
  wrongReset.ins[1].dtype = sdk::DType::kBool8;
  wrongReset.ins[1].dims = {2};
  EXPECT_FALSE(wrongReset.kernel->prepare(wrongReset.ins, wrongReset.outs).isOk());
}

}  // namespace
}  // namespace qnn::conformance
