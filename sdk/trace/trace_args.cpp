#include "trace/trace_args.h"

namespace qnn::trace {

const Value& argOf(const Value& args, const char* name, int kind) {
  static const Value& null = *new Value();  // never destroyed: used from exit-time generation
  const Value* f = args.field(name);
  if (!f || (kind != args_detail::kAny && f->kind != Value::Kind(kind))) return null;
  return *f;
}

bool listedArgs(uint32_t callId, const ArgSpec** args, size_t* count) {
#define QNN_TRACE_ARG_SPEC_(name, kind) {#name, args_detail::k##kind},
#define QNN_TRACE_LISTED_(member)                                                       \
  if (callId == uint32_t(Call::member)) {                                               \
    static const ArgSpec kSpecs[] = {QNN_TRACE_ARGS_##member(QNN_TRACE_ARG_SPEC_){nullptr, 0}}; \
    *args = kSpecs;                                                                     \
    *count = sizeof(kSpecs) / sizeof(kSpecs[0]) - 1;                                    \
    return true;                                                                        \
  }
  QNN_TRACE_FOR_EACH_CALL_WITH_ARGS(QNN_TRACE_LISTED_)
#undef QNN_TRACE_LISTED_
#undef QNN_TRACE_ARG_SPEC_
  return false;
}

}  // namespace qnn::trace
