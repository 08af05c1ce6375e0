// libQnnModelDlc.so: QNN graphs from OpenQNN DLC files (docs/dlc-format.md),
// with the model-library interface the tools load (docs/model-library.md).
// QnnModel_composeGraphsFromDlc takes the arguments of QnnModel_composeGraphs
// plus the DLC path (the order public clients use: ExecuTorch's QNN backend
// calls it with backend, interface, context, graph configs, DLC path, config
// count, graphs info, graph count, debug, log callback, max log level) and
// builds every graph of the file in the context exactly as a converter's
// model.cpp would (dlc_compose.h).
// QnnModel_freeGraphsInfo frees what it returned. Errors are logged through
// the log callback (or stderr) and returned as ModelError_t; no exception
// leaves these functions.
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "dlc/dlc_file.h"
#include "model_dlc/dlc_compose.h"

using namespace qnn_wrapper_api;

namespace {

void logAt(QnnLog_Callback_t callback, QnnLog_Level_t maxLevel, QnnLog_Level_t level, const char* fmt, ...) {
  if (level > maxLevel && maxLevel != 0) return;
  va_list args;
  va_start(args, fmt);
  if (callback) {
    callback(fmt, level, 0, args);
  } else {
    std::fputs("libQnnModelDlc: ", stderr);
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
  }
  va_end(args);
}

}  // namespace

extern "C" {

QNN_API ModelError_t QnnModel_composeGraphsFromDlc(Qnn_BackendHandle_t backendHandle, QNN_INTERFACE_VER_TYPE interface,
                                                   Qnn_ContextHandle_t contextHandle,
                                                   const GraphConfigInfo_t** graphsConfigInfo, const char* dlcPath,
                                                   const uint32_t numGraphsConfigInfo, GraphInfoPtr_t** graphsInfo,
                                                   uint32_t* numGraphsInfo, bool debug, QnnLog_Callback_t logCallback,
                                                   QnnLog_Level_t maxLogLevel) {
  try {
    if (!dlcPath || !graphsInfo || !numGraphsInfo) {
      logAt(logCallback, maxLogLevel, QNN_LOG_LEVEL_ERROR, "%s", "QnnModel_composeGraphsFromDlc: null argument");
      return MODEL_INVALID_ARGUMENT_ERROR;
    }
    std::unique_ptr<qnn::dlc::DlcFile> file;
    qnn::sdk::Status st = qnn::dlc::DlcFile::open(dlcPath, &file);
    if (!st.isOk()) {
      logAt(logCallback, maxLogLevel, QNN_LOG_LEVEL_ERROR, "%s", st.message().c_str());
      return MODEL_FILE_ERROR;
    }
    const auto& graphs = file->graphs();
    std::vector<QnnModel> models(graphs.size());
    for (size_t i = 0; i < graphs.size(); ++i) {
      const ModelError_t err = qnn::dlc::composeGraph(*file, graphs[i], models[i], backendHandle, interface, contextHandle,
                                            graphsConfigInfo, numGraphsConfigInfo, debug);
      if (err != MODEL_NO_ERROR) {
        logAt(logCallback, maxLogLevel, QNN_LOG_LEVEL_ERROR, "DLC '%s': composing graph '%s' failed (error %d)",
              dlcPath, graphs[i].name.c_str(), int(err));
        for (const auto& package : graphs[i].opPackages)  // the likely reason when a custom node was refused
          logAt(logCallback, maxLogLevel, QNN_LOG_LEVEL_ERROR,
                "DLC '%s': graph '%s' needs op package '%s' registered with the backend (qnn-net-run --op_packages "
                "<path>:<interface provider>)",
                dlcPath, graphs[i].name.c_str(), package.name.c_str());
        return err;
      }
    }
    const ModelError_t err = getGraphInfoFromModels(models.data(), uint32_t(models.size()), graphsInfo);
    if (err == MODEL_NO_ERROR) *numGraphsInfo = uint32_t(models.size());
    return err;  // the weights were copied by the backend; the mapping closes with `file`
  } catch (const std::bad_alloc&) {
    logAt(logCallback, maxLogLevel, QNN_LOG_LEVEL_ERROR, "%s", "QnnModel_composeGraphsFromDlc: out of memory");
    return MODEL_MEMORY_ALLOCATE_ERROR;
  } catch (const std::exception& e) {
    logAt(logCallback, maxLogLevel, QNN_LOG_LEVEL_ERROR, "QnnModel_composeGraphsFromDlc: %s", e.what());
    return MODEL_GRAPH_ERROR;
  }
}

QNN_API ModelError_t QnnModel_freeGraphsInfo(GraphInfoPtr_t** graphsInfo, uint32_t numGraphsInfo) {
  return freeGraphsInfo(graphsInfo, numGraphsInfo);
}

}  // extern "C"
