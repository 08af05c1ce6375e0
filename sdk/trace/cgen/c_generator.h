// Turns a decoded trace into the C source of a replay program (a consumer of
// the shared trace decoder, like apitrace's and gfxreconstruct's C backends):
// one block per recorded call, in trace order, recorded handle ids as C
// variables, recorded tensor ids mapped to the ids the replaying backend
// assigns, all data in params.bin referenced by offset.
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "params_file.h"
#include "trace_reader.h"

namespace qnn::trace::cgen {

class CGenerator {
 public:
  // `paramsFileName` is the file the program opens in its working directory.
  CGenerator(const Trace& trace, std::string paramsFileName);
  // The whole C file. Call once.
  std::string generate();
  const ParamsFile& params() const { return params_; }

 private:
  // c_calls.cpp: one recorded call -> its C block (or a comment saying why not).
  void emitCall(const CallRecord& call);
  bool emitGraphCall(trace::Call call, const Value& a);
  bool emitContextCall(trace::Call call, const Value& a);
  bool emitBackendCall(trace::Call call, const Value& a);
  bool emitObjectCall(trace::Call call, const Value& a);
  // c_sections.cpp: tensor updates and binary sections.
  bool emitSectionCall(trace::Call call, const Value& a);
  // c_perf.cpp: the HTP perf infrastructure calls (call ids 1001-1004).
  bool emitPerfCall(trace::Call call, const Value& a);
  bool emitEnvironments(const Value& a, bool prepare);
  // c_list_async.cpp: contextCreateFromBinaryListAsync, each entry's context
  // and graphs taken from what the backend notified.
  bool emitListAsync(const Value& a);
  // "data, size" of a context binary: the recorded bytes, or the program's own
  // binary where it got one for those bytes (contextGetBinary).
  std::string binaryArgs(const Value& ref);
  void emitContextBuffer(const std::string& name, const std::string& data, const std::string& size);
  std::pair<std::string, std::string> sectionBytes(const Value& ref);  // (data, size) expressions

  // c_tensors.cpp: statements filling `var` (a Qnn_Tensor_t lvalue).
  enum class TensorUse { Create, Reference, Input, Output };
  void emitTensor(const std::string& var, const Value& tensor, TensorUse use);
  void emitTensorArray(const std::string& name, const Value& list, TensorUse use);
  // Declares `Qnn_OpConfig_t op` for a recorded opConfig.
  void emitOp(const Value& op);
  // c_configs.cpp: declares a NULL-terminated config array, returns its name
  // ("NULL" when none was recorded). `type` is e.g. "QnnGraph_Config_t".
  std::string emitConfig(const Value& list, const char* type);
  std::string nameArray(const Value& names);

  // c_generator.cpp
  std::string handle(const Value& v, const char* kind);  // variable name, or "NULL"
  std::string data(const Value& ref);                    // "P(offset)", or "NULL" if missing
  std::string fresh(const char* stem);                   // a unique local name
  // A Qnn_ScaleOffset_t array of recorded [scale, offset] pairs declared; its name, or "NULL" if empty.
  std::string scaleOffsetArray(const Value& pairs);
  void line(const std::string& text);
  std::string field(const Value& v, const char* name, const char* fallback = "0");

  const Trace& trace_;
  std::string paramsFileName_;
  ParamsFile params_;
  std::ostringstream body_;
  std::map<uint64_t, std::string> handleNames_;
  std::vector<std::string> globals_;  // file-scope declarations the calls need
  std::set<uint64_t> liveBinaries_;  // blob ids of binaries this program gets itself
  std::set<uint64_t> liveSections_;  // blob ids of binary sections this program gets itself
  std::set<uint64_t> updateBuffers_;  // recorded addresses of getBinarySectionUpdate buffers
  std::set<uint64_t> pieces_;         // start offsets of incremental binary pieces
  std::map<std::string, std::vector<std::string>> environments_;  // graph/option/ids -> prepared environment variables
  unsigned executes_ = 0, names_ = 0, indent_ = 1;
  std::string currentCall_;
};

}  // namespace qnn::trace::cgen
