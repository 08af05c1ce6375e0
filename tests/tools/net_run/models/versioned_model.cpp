// Test model "versioned", compiled once per QNN header set, as the vendor's generator of each
// SDK compiles a converter's model: against tests/compat/include-2.7 (44-member table in the 2.7
// order, 120-byte tensors, 8-byte scalars), against include-2.13 (55 members, 120-byte tensors)
// and against include/QNN with a by-value table of VERSIONED_TABLE_MEMBERS members (API 2.18:
// 62). Inputs x, y (float32 [2,3]); sum = x + y is an intermediate; outputs
// soft = softmax(sum, beta 0.5) over the last axis and prod = x * y. The model logs one line
// through the log callback it is given, so a test sees that debug, the callback and the level
// arrive where this library reads them.
#include <cstdarg>

#include "tests/tools/net_run/models/model_builder.h"

#ifndef VERSIONED_LABEL
#error "VERSIONED_LABEL names the header set"
#endif

namespace {

void logThrough(QnnLog_Callback_t cb, QnnLog_Level_t level, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  cb(fmt, level, 0, args);
  va_end(args);
}

#ifdef VERSIONED_TABLE_MEMBERS
// The table as headers with VERSIONED_TABLE_MEMBERS members declare it: the current table's
// first members (every table from API 2.10 on is a prefix of the next).
struct Table {
  void* members[VERSIONED_TABLE_MEMBERS];
};
static_assert(sizeof(Table) <= sizeof(QNN_INTERFACE_VER_TYPE), "a prefix of the current table");
#else
using Table = QNN_INTERFACE_VER_TYPE;
#endif

}  // namespace

#ifdef VERSIONED_ASM_ENTRY
// QnnModel_composeGraphs is the wrapper in versioned_entry.S, which forwards here.
#define QnnModel_composeGraphs VersionedModel_composeGraphs
#endif

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_composeGraphs(
    Qnn_BackendHandle_t, Table table, Qnn_ContextHandle_t ctx, const GraphConfigInfo_t** cfgs, const uint32_t numCfgs,
    GraphInfoPtr_t** graphsInfo, uint32_t* numGraphsInfo, bool debug, QnnLog_Callback_t logCallback,
    QnnLog_Level_t maxLogLevel) {
  QNN_INTERFACE_VER_TYPE api{};
  std::memcpy(static_cast<void*>(&api), &table, sizeof table);
  if (logCallback && maxLogLevel >= QNN_LOG_LEVEL_INFO)
    logThrough(logCallback, QNN_LOG_LEVEL_INFO, "versioned model %s: %u-byte table, debug %d", VERSIONED_LABEL,
               static_cast<unsigned>(sizeof table), debug ? 1 : 0);
  testmodel::Builder b(api, ctx, "versioned", debug, cfgs, numCfgs);
  auto f = QNN_DATATYPE_FLOAT_32;
  auto x = b.tensor("x", QNN_TENSOR_TYPE_APP_WRITE, f, {2, 3});
  auto y = b.tensor("y", QNN_TENSOR_TYPE_APP_WRITE, f, {2, 3});
  auto sum = b.tensor("sum", QNN_TENSOR_TYPE_NATIVE, f, {2, 3});
  auto soft = b.tensor("soft", QNN_TENSOR_TYPE_APP_READ, f, {2, 3});
  auto prod = b.tensor("prod", QNN_TENSOR_TYPE_APP_READ, f, {2, 3});
  Qnn_Param_t beta = QNN_PARAM_INIT;
  beta.paramType = QNN_PARAMTYPE_SCALAR;
  beta.name = QNN_OP_SOFTMAX_PARAM_BETA;
  beta.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  beta.scalarParam.floatValue = 0.5f;
  b.node("add", QNN_OP_ELEMENT_WISE_ADD, {x, y}, sum);
  b.node("softmax", QNN_OP_SOFTMAX, {sum}, soft, {beta});
  b.node("mul", QNN_OP_ELEMENT_WISE_MULTIPLY, {x, y}, prod);
  return testmodel::returnOneGraph(b, "versioned", graphsInfo, numGraphsInfo);
}

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_freeGraphsInfo(GraphInfoPtr_t** graphsInfo,
                                                                                      uint32_t numGraphsInfo) {
  return testmodel::freeGraphs(graphsInfo, numGraphsInfo);
}
