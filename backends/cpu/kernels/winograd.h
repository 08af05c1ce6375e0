// Winograd convolution for float Conv2d with a 3x3 filter, stride 1, no
// dilation, one group, in two sizes: F(2x2, 3x3) (each 2x2 block of outputs
// costs 16 products per (input, output) channel pair instead of 36) and
// F(4x4, 3x3) (each 4x4 block 36 instead of 144). Tiles of the (zero-padded)
// input are transformed (V = B^T d B), multiplied per transform position by
// the transformed filter with the shared GEMM ([tiles x cin] x [cin x cout]
// per position), and transformed back (Y = A^T M A) with bias and a fused
// activation's clamp. Work goes in blocks of tiles sized so a block's V and
// M stay in L2, as many blocks as a multiple of the thread count; each thread
// works through its own contiguous share of blocks, then helps with the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <memory>
#include <vector>

#include "core/large_buffer.h"
#include "cpu/kernels/gemm.h"

namespace qnn::cpu::winograd {

// Layers this pays off for (measured on ResNet-18's shapes, docs/benchmarks.md):
// 3x3, stride 1, no dilation, one group, 32+ channels in and out, and enough
// 2x2 output tiles (batch x tiles >= 32) to reuse the transformed filter,
// which is 16/9 the size of the original: on a 7x7 map with 512 channels the
// 16.8 MB of it streamed from memory costs more than the products saved.
bool worthwhile(uint32_t fh, uint32_t fw, int64_t strideH, int64_t strideW, int64_t dilH, int64_t dilW,
                uint32_t groups, uint32_t cin, uint32_t cout, uint32_t batch, int64_t outH, int64_t outW);

enum class Tile { k2x2, k4x4 };
// F(4x4) where the map has 8+ outputs each way and its transformed filter (36 [cin x cout] matrices)
// stays within 4 MB; F(2x2) otherwise.
Tile chooseTile(uint32_t cin, uint32_t cout, int64_t outH, int64_t outW);

class Conv3x3 {
 public:
  // Shapes and scratch; throws std::bad_alloc when memory runs out.
  void prepare(uint32_t batch, uint32_t inH, uint32_t inW, uint32_t cin, uint32_t cout, int64_t padTop,
               int64_t padLeft, int64_t outH, int64_t outW, size_t threads, Tile tile);
  // The transformed, packed filter from an HWIO [3][3][cin][cout] filter.
  void setFilter(const float* filter);
  // output [batch, outH, outW, cout] from input [batch, inH, inW, cin]; bias
  // and clamp may be null.
  void run(const float* input, const float* bias, float* output, const gemm::Clamp* clamp);

 private:
  void runBlock(const float* input, size_t block, size_t slot, const float* bias, float* output,
                const gemm::Clamp* clamp);

  Tile tile_ = Tile::k2x2;
  size_t m_ = 2, positions_ = 16;  // output tile side; transform positions ((m + 2)^2)
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, cout_ = 0;
  int64_t padTop_ = 0, padLeft_ = 0, outH_ = 0, outW_ = 0;
  size_t tilesH_ = 0, tilesW_ = 0, tilesPerBlock_ = 0, numBlocks_ = 0, slots_ = 1;
  size_t packedSize_ = 0, slotFloats_ = 0;
  sdk::LargeVector<float> packedU_;  // one packed [cin x cout] matrix per transform position
  // Per slot: V (positions x tiles x cin), M (positions x tiles x cout), m*m sink rows, and one
  // zero-padded input tile for the tiles that reach past the image edge (the others are read
  // where they lie in the input: no padded copy of the image). Blocks run in the executing thread's
  // own scratch, shared by every layer (hot in its core's cache); this one, reserved at prepare and
  // never touched otherwise, is where they run when that scratch cannot grow.
  sdk::LargeArray<float> scratch_;
  struct alignas(64) BlockCursor {  // the next block of a slot's range, and its end
    std::atomic<size_t> next{0};
    size_t end = 0;
  };
  std::unique_ptr<BlockCursor[]> cursors_;  // one per slot
};

}  // namespace qnn::cpu::winograd
