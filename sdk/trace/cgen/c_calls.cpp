// One recorded call -> one C block of the generated program: the per-call
// handler table and the graph and tensor calls.
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"
#include "trace/trace_format.h"

namespace qnn::trace::cgen {

const PerCall<CGenerator::Handler>& CGenerator::handlers() {
  static const PerCall<Handler> table = [] {
    PerCall<Handler> h;
#define QNN_CGEN_HANDLER_SLOT_(member) h.member = &CGenerator::on<Call::member>;
    QNN_CGEN_HANDLED_CALLS(QNN_CGEN_HANDLER_SLOT_)
#undef QNN_CGEN_HANDLER_SLOT_
    return h;
  }();
  return table;
}

void CGenerator::emitCall(const CallRecord& c) {
  std::string head = "/* #" + std::to_string(c.seq) + " " + callName(c.callId);
  if (c.callId == kCallSaverInitialize) {
    line(head + ": Saver configuration, nothing to replay */");
    return;
  }
  if (c.result != 0) {
    line(head + " returned " + std::to_string(c.result) + " when recorded: not replayed */");
    return;
  }
  std::ostringstream block;
  std::swap(block, body_);
  ++indent_;
  const Handler* handler = handlers().of(c.callId);
  bool done = handler && *handler && (this->**handler)(c);
  --indent_;
  std::swap(block, body_);
  if (!done) {
    line(head + ": not replayed by saver_output.c */");
    return;
  }
  line(head + " */");
  line("{");
  body_ << block.str();
  line("}");
}

template <>
bool CGenerator::on<Call::graphAddNode>(const CallRecord& c) {
  const Args<Call::graphAddNode> a(c);
  emitOp(a.opConfig);
  line("CHECK(API(graphAddNode, " + handle(a.graph, "graph") + ", op));");
  return true;
}

template <Call C>
bool CGenerator::executeGraph(const CallRecord& c) {
  const Args<C> a(c);
  const Value& in = a.inputs;
  const Value& out = a.outputs;
  emitTensorArray("in", in, TensorUse::Input);
  emitTensorArray("out", out, TensorUse::Output);
  std::string n = std::to_string(in.items.size()) + "u", k = std::to_string(out.items.size()) + "u";
  std::string args = handle(a.graph, "graph") + ", " + (in.items.empty() ? "NULL" : "in") + ", " + n + ", " +
                     (out.items.empty() ? "NULL" : "out") + ", " + k + ", " + handle(a.profile, "profile") +
                     ", " + handle(a.signal, "signal");
  std::string save = out.items.empty() ? "" : " saveOutputs(" + std::to_string(executes_) + "u, out, " + k + ");";
  if constexpr (C == Call::graphExecute)
    line("if (CHECK(API(graphExecute, " + args + ")))" + (save.empty() ? " {}" : save));
  else
    line("if (waitAsync(__LINE__, API(graphExecuteAsync, " + args + ", notifyDone, NULL)))" +
         (save.empty() ? " {}" : save));
  if (!out.items.empty()) line("freeOutputs(out, " + k + ");");
  ++executes_;
  return true;
}

template <Call C>
bool CGenerator::createTensor(const CallRecord& c) {
  const Args<C> a(c);
  line("Qnn_Tensor_t t;");
  emitTensor("t", a.tensor, TensorUse::Create);
  std::string parent;
  if constexpr (C == Call::tensorCreateGraphTensor)
    parent = handle(a.graph, "graph");
  else
    parent = handle(a.context, "context");
  // Later calls name the tensor by its recorded id.
  line("if (CHECK(API(" + std::string(callMember(C)) + ", " + parent + ", &t))) bindTensorId(" + literal(a.id) +
       ", t.v1.id);");
  return true;
}

// API 2.39 (API39: the appended members, prelude/api_2_39.c.in). The result is kept in a
// variable named after its recorded address, for the free; a different overall status
// than recorded counts as a failure.
template <>
bool CGenerator::on<Call::graphValidate>(const CallRecord& c) {
  const Args<Call::graphValidate> a(c);
  const Value* id = a.validationResult.field("id");
  if (!id) return false;
  const std::string var = "validation_" + std::to_string(id->u);
  if (validationResults_.insert(id->u).second) globals_.push_back("static QnnGraph_ValidationResult_t* " + var + ";");
  line("CHECK(API39(graphValidate, " + handle(a.graph, "graph") + ", NULL, &" + var + "));");
  line("if (" + var + " && " + var + "->overallStatus != " + field(a.validationResult, "overallStatus") +
       ") CHECK(" + var + "->overallStatus);");
  return true;
}

template <>
bool CGenerator::on<Call::graphFreeValidationResult>(const CallRecord& c) {
  const Args<Call::graphFreeValidationResult> a(c);
  if (!validationResults_.count(a.validationResult.u)) return false;
  line("CHECK(API39(graphFreeValidationResult, validation_" + std::to_string(a.validationResult.u) + "));");
  return true;
}

// Calls sharing a handler.
QNN_CGEN_SHARED_HANDLER(graphExecute, executeGraph)
QNN_CGEN_SHARED_HANDLER(graphExecuteAsync, executeGraph)
QNN_CGEN_SHARED_HANDLER(tensorCreateGraphTensor, createTensor)
QNN_CGEN_SHARED_HANDLER(tensorCreateContextTensor, createTensor)

}  // namespace qnn::trace::cgen
