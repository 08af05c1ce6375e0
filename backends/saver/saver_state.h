// Process-wide Saver state: configuration (QnnSaver_initialize), the optional
// pass-through backend (QNN_SAVER_BACKEND), the handle table and the trace
// writer, opened lazily at the first recorded call so QnnSaver_initialize can
// still choose the directory.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "QnnInterface.h"
#include "Saver/QnnSaver.h"
#include "saver_handles.h"
#include "trace_writer.h"

namespace qnn::saver {

class SaverState {
 public:
  static SaverState& get();

  Qnn_ErrorHandle_t initialize(const QnnSaver_Config_t** config, trace::Value& recorded);
  // The pass-through backend's table, or null when the Saver only records.
  const QNN_INTERFACE_VER_TYPE* real() const { return real_; }
  HandleTable& handles() { return handles_; }
  trace::Value blob(const void* data, uint64_t size);
  void record(trace::CallRecord& call);
  uint32_t nextTensorId() { return nextTensorId_++; }
  std::string traceDir();

 private:
  SaverState();
  void openTraceLocked();

  std::mutex mu_;  // configuration and lazy open
  std::string outputDir_ = "./saver_output/";
  bool appendTimestamp_ = false;
  uint32_t backendId_ = 0;
  bool started_ = false;
  std::string openedDir_;
  trace::TraceWriter writer_;
  void* lib_ = nullptr;
  const QNN_INTERFACE_VER_TYPE* real_ = nullptr;
  HandleTable handles_;
  std::atomic<uint32_t> nextTensorId_{1};
};

}  // namespace qnn::saver
