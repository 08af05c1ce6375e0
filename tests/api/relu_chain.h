// Test helper: a graph of chained Relu nodes over floats, built through the C API,
// with its own input/output buffers (api_tests, concurrency_tests).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {

// A graph of `depth` chained Relu nodes over [1, n] floats: in -> ... -> out.
class ReluChain {
 public:
  ReluChain(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, const std::string& name, uint32_t n,
            int depth, bool finalize = true)
      : api_(api), in_("in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, n}),
        out_("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, n}) {
    EXPECT_EQ(api.graphCreate(ctx, name.c_str(), nullptr, &graph), QNN_SUCCESS);
    EXPECT_EQ(api.tensorCreateGraphTensor(graph, &in_.tensor), QNN_SUCCESS);
    Qnn_Tensor_t prev = in_.tensor;
    std::vector<std::unique_ptr<TensorSpec>> mids;
    for (int i = 0; i < depth; ++i) {
      Qnn_Tensor_t next;
      if (i + 1 == depth) {
        EXPECT_EQ(api.tensorCreateGraphTensor(graph, &out_.tensor), QNN_SUCCESS);
        next = out_.tensor;
      } else {
        mids.push_back(std::make_unique<TensorSpec>("mid" + std::to_string(i), QNN_TENSOR_TYPE_NATIVE,
                                                    QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{1, n}));
        EXPECT_EQ(api.tensorCreateGraphTensor(graph, &mids.back()->tensor), QNN_SUCCESS);
        next = mids.back()->tensor;
      }
      std::string nodeName = "relu" + std::to_string(i);
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {nodeName.c_str(), "qti.aisw", "Relu", 0, nullptr, 1, &prev, 1, &next};
      EXPECT_EQ(api.graphAddNode(graph, op), QNN_SUCCESS);
      prev = next;
    }
    if (finalize) {
      EXPECT_EQ(api.graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
    }
    input.resize(n);
    output.assign(n, 0.f);
    for (uint32_t i = 0; i < n; ++i) input[i] = (i % 2 ? 1.f : -1.f) * float(i);
  }
  Qnn_ErrorHandle_t execute(Qnn_ProfileHandle_t profile = nullptr, Qnn_SignalHandle_t signal = nullptr) {
    bind();
    return api_.graphExecute(graph, &in_.tensor, 1, &out_.tensor, 1, profile, signal);
  }
  void bind() {
    in_.tensor.v1.clientBuf = {input.data(), uint32_t(input.size() * 4)};
    out_.tensor.v1.clientBuf = {output.data(), uint32_t(output.size() * 4)};
  }
  bool outputCorrect() const {
    for (size_t i = 0; i < input.size(); ++i)
      if (output[i] != std::max(input[i], 0.f)) return false;
    return true;
  }

  // The outcome of an execute interrupted from another thread.
  struct Interrupted {
    Qnn_ErrorHandle_t execute = QNN_SUCCESS;
    Qnn_ErrorHandle_t trigger = QNN_SIGNAL_ERROR_SIGNAL_IDLE;  // the last trigger's answer
  };
  // Executes with `signal` on another thread and triggers the signal from this one for as long as the
  // execution runs: refused as idle until the execution holds it, then taken (however the threads are
  // scheduled; on a machine busy enough the execution may end before a trigger lands).
  Interrupted executeAndTrigger(Qnn_SignalHandle_t signal) {
    std::atomic<bool> started{false}, done{false};
    Interrupted got;
    std::thread exec([&] {
      started = true;
      got.execute = execute(nullptr, signal);
      done = true;
    });
    while (!started) std::this_thread::yield();
    while (!done && (got.trigger = api_.signalTrigger(signal)) == QNN_SIGNAL_ERROR_SIGNAL_IDLE)
      std::this_thread::yield();
    exec.join();
    return got;
  }

  const QNN_INTERFACE_VER_TYPE& api_;
  TensorSpec in_, out_;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<float> input, output;
};

}  // namespace qnn::test
