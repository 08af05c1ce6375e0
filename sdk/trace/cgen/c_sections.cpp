// Updateable-tensor and binary-section calls of the generated program. Like
// context binaries, a section the program gets itself (getBinarySection) is
// kept and used wherever the trace applies the same bytes; a buffer made by
// getBinarySectionUpdate is a file-scope variable named by its recorded address.
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"

namespace qnn::trace::cgen {
namespace {

const Value& arg(const Value& a, const char* name) {
  static const Value& null = *new Value();  // never destroyed: used from exit-time generation
  const Value* f = a.field(name);
  return f ? *f : null;
}

}  // namespace

// Declares `name`, a RAW QnnContext_Buffer_t over (data, size).
void CGenerator::emitContextBuffer(const std::string& name, const std::string& data, const std::string& size) {
  line("QnnContext_Buffer_t " + name + ";");
  line("memset(&" + name + ", 0, sizeof " + name + ");");
  line(name + ".version = QNN_CONTEXT_BUFFER_VERSION_1;");
  line(name + ".v1.memType = QNN_CONTEXTMEMTYPE_RAW;");
  line(name + ".v1.binaryBuf.data = (void*)" + data + ";");
  line(name + ".v1.binaryBuf.dataSize = " + size + ";");
}

// A recorded section's bytes: the program's own when it got them, else params.bin.
std::pair<std::string, std::string> CGenerator::sectionBytes(const Value& ref) {
  if (liveSections_.count(ref.u))
    return {"section_" + std::to_string(ref.u), "sectionSize_" + std::to_string(ref.u)};
  return {data(ref), std::to_string(ref.i) + "u"};
}

// Prepared environments live in file-scope tensor arrays, so the release (and
// the backend's buffers a POPULATE_CLIENT_BUFS environment wrote into them)
// can be found again: by graph, option and tensor ids.
bool CGenerator::emitEnvironments(const Value& recordedGraph, const Value& list, bool prepare) {
  if (list.items.empty()) return false;
  const std::string graph = handle(recordedGraph, "graph");
  std::vector<std::string> envNames;
  for (const Value& e : list.items) {
    std::string key = graph + "/" + field(e, "option");
    for (const char* side : {"inputs", "outputs"})
      for (const Value& t : arg(e, side).items) key += "/" + field(t, "id");
    if (!prepare) {
      auto it = environments_.find(key);
      if (it == environments_.end() || it->second.empty()) return false;  // not prepared by this program
      envNames.push_back(it->second.back());
      it->second.pop_back();
      continue;
    }
    std::string name = fresh("environment");
    const Value& ins = arg(e, "inputs");
    const Value& outs = arg(e, "outputs");
    std::string in = ins.items.empty() ? "NULL" : name + "_in", out = outs.items.empty() ? "NULL" : name + "_out";
    if (!ins.items.empty()) globals_.push_back("static Qnn_Tensor_t " + in + "[" + std::to_string(ins.items.size()) + "];");
    if (!outs.items.empty()) globals_.push_back("static Qnn_Tensor_t " + out + "[" + std::to_string(outs.items.size()) + "];");
    globals_.push_back("static QnnGraph_ExecuteEnvironment_t " + name + ";");
    for (size_t k = 0; k < ins.items.size(); ++k) emitTensor(in + "[" + std::to_string(k) + "]", ins.items[k], TensorUse::Reference);
    for (size_t k = 0; k < outs.items.size(); ++k) emitTensor(out + "[" + std::to_string(k) + "]", outs.items[k], TensorUse::Reference);
    line(name + ".option = (QnnGraph_ExecuteEnvironmentOption_t)" + field(e, "option") + ";");
    line(name + ".tensorSet.version = QNN_TENSOR_SET_VERSION_1;");
    line(name + ".tensorSet.v1.numInputs = " + std::to_string(ins.items.size()) + "u;");
    line(name + ".tensorSet.v1.inputs = " + in + ";");
    line(name + ".tensorSet.v1.numOutputs = " + std::to_string(outs.items.size()) + "u;");
    line(name + ".tensorSet.v1.outputs = " + out + ";");
    environments_[key].push_back(name);
    envNames.push_back(name);
  }
  std::string ptrs;
  for (const std::string& n : envNames) ptrs += "&" + n + ", ";
  std::string n = std::to_string(envNames.size());
  if (prepare) {
    line("QnnGraph_ExecuteEnvironment_t* envs[" + n + "] = {" + ptrs + "};");
    line("CHECK(API(graphPrepareExecutionEnvironment, " + graph + ", envs, " + n + "u));");
  } else {
    line("const QnnGraph_ExecuteEnvironment_t* envs[" + n + "] = {" + ptrs + "};");
    line("CHECK(API(graphReleaseExecutionEnvironment, " + graph + ", envs, " + n + "u));");
  }
  return true;
}

template <Call C>
bool CGenerator::updateTensors(const CallRecord& c) {
  const Args<C> a(c);
  const Value& list = a.tensors;
  if (list.items.empty()) return false;
  emitTensorArray("upd", list, TensorUse::Input);
  std::string n = std::to_string(list.items.size());
  std::string ptrs;
  for (size_t k = 0; k < list.items.size(); ++k) ptrs += "&upd[" + std::to_string(k) + "], ";
  line("const Qnn_Tensor_t* updList[" + n + "] = {" + ptrs + "};");
  if constexpr (C == Call::tensorUpdateGraphTensors) {
    line("CHECK(API(tensorUpdateGraphTensors, " + handle(a.graph, "graph") + ", updList, " + n + "u));");
  } else if constexpr (C == Call::tensorUpdateContextTensors) {
    line("CHECK(API(tensorUpdateContextTensors, " + handle(a.context, "context") + ", updList, " + n + "u));");
  } else {
    auto [bytes, size] = sectionBytes(a.binarySection);
    std::string out = "update_" + std::to_string(a.update.u);
    if (updateBuffers_.insert(a.update.u).second) globals_.push_back("static QnnContext_Buffer_t " + out + ";");
    emitContextBuffer("in", bytes, size);
    line("CHECK(API(contextGetBinarySectionUpdate, &in, NULL, updList, " + n + "u, " + literal(a.keepUpdatable) +
         ", " + handle(a.logger, "logger") + ", " + handle(a.profile, "profile") + ", " +
         handle(a.signal, "signal") + ", &" + out + "));");
  }
  return true;
}

template <>
bool CGenerator::on<Call::contextFreeBinarySectionUpdate>(const CallRecord& c) {
  const Args<Call::contextFreeBinarySectionUpdate> a(c);
  if (!updateBuffers_.count(a.update.u)) return false;
  line("CHECK(API(contextFreeBinarySectionUpdate, update_" + std::to_string(a.update.u) + ", " +
       handle(a.logger, "logger") + "));");
  return true;
}

template <>
bool CGenerator::on<Call::contextGetBinarySectionSize>(const CallRecord& c) {
  const Args<Call::contextGetBinarySectionSize> a(c);
  const std::string section = "(QnnContext_SectionType_t)" + literal(a.section);
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySectionSize, " + handle(a.context, "context") + ", " +
       handle(a.graph, "graph") + ", " + section + ", &size));");
  return true;
}

template <>
bool CGenerator::on<Call::contextGetBinarySection>(const CallRecord& c) {
  const Args<Call::contextGetBinarySection> a(c);
  const std::string section = "(QnnContext_SectionType_t)" + literal(a.section);
  std::string id = std::to_string(a.binarySection.u);
  std::string ctx = handle(a.context, "context"), graph = handle(a.graph, "graph");
  if (liveSections_.insert(a.binarySection.u).second) {
    globals_.push_back("static void* section_" + id + ";");
    globals_.push_back("static Qnn_ContextBinarySize_t sectionSize_" + id + ";");
  }
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySectionSize, " + ctx + ", " + graph + ", " + section + ", &size));");
  line("free(section_" + id + ");");
  line("section_" + id + " = outputBuffer((uint32_t)size);");
  emitContextBuffer("out", "section_" + id, "size");
  line("CHECK(API(contextGetBinarySection, " + ctx + ", " + graph + ", " + section + ", &out, &sectionSize_" + id +
       ", " + handle(a.profile, "profile") + ", " + handle(a.signal, "signal") + "));");
  return true;
}

template <>
bool CGenerator::on<Call::contextApplyBinarySection>(const CallRecord& c) {
  const Args<Call::contextApplyBinarySection> a(c);
  const std::string section = "(QnnContext_SectionType_t)" + literal(a.section);
  auto [bytes, size] = sectionBytes(a.binarySection);
  emitContextBuffer("in", bytes, size);
  line("CHECK(API(contextApplyBinarySection, " + handle(a.context, "context") + ", " +
       handle(a.graph, "graph") + ", " + section + ", &in, " + handle(a.profile, "profile") + ", " +
       handle(a.signal, "signal") + "));");
  return true;
}

template <Call C>
bool CGenerator::prepareOrReleaseEnvironments(const CallRecord& c) {
  const Args<C> a(c);
  return emitEnvironments(a.graph, a.environments, C == Call::graphPrepareExecutionEnvironment);
  return true;
}

template <>
bool CGenerator::on<Call::contextGetIncrementalBinary>(const CallRecord& c) {
  const Args<Call::contextGetIncrementalBinary> a(c);
  // The piece is released by the recorded call naming its offset.
  std::string piece = "piece_" + std::to_string(a.startOffset.u);
  if (pieces_.insert(a.startOffset.u).second) globals_.push_back("static const void* " + piece + ";");
  line("Qnn_ContextBinarySize_t offset = 0, written = 0;");
  line("CHECK(API(contextGetIncrementalBinary, " + handle(a.context, "context") + ", &" + piece +
       ", &offset, &written));");
  return true;
}

template <>
bool CGenerator::on<Call::contextReleaseIncrementalBinary>(const CallRecord& c) {
  const Args<Call::contextReleaseIncrementalBinary> a(c);
  if (!pieces_.count(a.startOffset.u)) return false;
  line("CHECK(API(contextReleaseIncrementalBinary, " + handle(a.context, "context") + ", piece_" +
       std::to_string(a.startOffset.u) + ", " + literal(a.startOffset) + "));");
  return true;
}

// Calls sharing a handler.
QNN_CGEN_SHARED_HANDLER(tensorUpdateGraphTensors, updateTensors)
QNN_CGEN_SHARED_HANDLER(tensorUpdateContextTensors, updateTensors)
QNN_CGEN_SHARED_HANDLER(contextGetBinarySectionUpdate, updateTensors)
QNN_CGEN_SHARED_HANDLER(graphPrepareExecutionEnvironment, prepareOrReleaseEnvironments)
QNN_CGEN_SHARED_HANDLER(graphReleaseExecutionEnvironment, prepareOrReleaseEnvironments)

}  // namespace qnn::trace::cgen
