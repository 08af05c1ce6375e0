#include "saver/saver_call.h"

namespace qnn::saver {
namespace {
thread_local trace::Call tCurrentCall = trace::Call(0);
}  // namespace

trace::Call currentCall() { return tCurrentCall; }
CallScope::CallScope(trace::Call call) : outer_(tCurrentCall) { tCurrentCall = call; }
CallScope::~CallScope() { tCurrentCall = outer_; }

bool useHandle(trace::Value& args, const char* name, void* handle, Kind kind, bool optional, void** real) {
  args.add(name, handleValue(handle));
  *real = nullptr;
  if (!handle) return optional;
  return SaverState::get().handles().find(handle, kind, real);
}

}  // namespace qnn::saver
