// Storage of a prepared CPU graph's native tensors, planned over its steps (after fusion):
// buffer lifetimes, reuse by liveness, reshapes that alias their input, one arena.
#pragma once

#include <map>
#include <memory>

#include "core/tensor_buffer.h"
#include "cpu/engine/step.h"

namespace qnn::cpu {

struct MemoryPlan {
  std::unique_ptr<sdk::TensorBuffer> arena;  // every native tensor's bytes
  std::map<uint32_t, void*> native;          // native tensor id -> its bytes in the arena
};

// Native tensors share buffers once their last reader has run: a tensor gets the smallest free
// buffer that fits (or a new one; out[0] at least Step::outBytes) when its producer runs, and
// returns it after its last consumer.
// A step's outputs never share a buffer with its inputs, since kernels are not written to work in
// place. The buffers are 64-byte-aligned pieces of one allocation: in huge pages (TensorBuffer)
// when it is 2 MiB or more, as most activations alone are not (ResNet-18's 56x56x64 maps are
// 0.8 MB), each layer then touching its input and output through a few TLB entries.
//
// A Reshape / Squeeze / ExpandDims between two native tensors gets no buffer of its own: its
// output is its input's buffer (the kernel skips the copy when the two coincide), which stays
// live until the last reader of either. Tensors are written once, by their producer, so the two
// names never disagree.
MemoryPlan planNativeBuffers(const GraphIR& ir, const Steps& steps);

}  // namespace qnn::cpu
