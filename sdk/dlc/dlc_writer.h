// Writing an OpenQNN DLC (docs/dlc-format.md) in memory: the C++ counterpart of the
// converter's emit_dlc.py, used by libQnnSystem.so (QnnSystemDlc_save / getBinary after
// graphs were added) and by the backends' QnnContext_addToDlc (a context's graphs in
// DLC form). Graphs are given as the reader's plain values (dlc::Graph), so a file
// read by DlcFile writes back unchanged in meaning; static data is read through the
// Tensor's pointer, which must stay valid for the call.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "dlc/dlc_file.h"
#include "graph/graph_ir.h"

namespace qnn::dlc {

// The whole file: preamble, data region (each static tensor at a multiple of 64), compressed
// header. Zero graphs is refused (a reader refuses such a file); duplicate graph names too.
// contextBinaries: backends' context binaries kept as records (their bytes read through the pointer).
sdk::Status writeDlc(const std::vector<const Graph*>& graphs, const Metadata& metadata, std::vector<uint8_t>* out,
                     const std::vector<const ContextBinary*>& contextBinaries = {});

// A backend's graph in DLC form: every tensor (graph tensors and the context tensors the graph
// uses; a name repeated in the graph gets its id appended), every node with its params. Static
// tensors point into `ir`'s data, so `ir` must outlive *out's use.
sdk::Status graphFromIr(const sdk::GraphIR& ir, Graph* out);

}  // namespace qnn::dlc
