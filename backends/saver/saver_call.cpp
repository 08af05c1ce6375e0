#include "saver_call.h"

namespace qnn::saver {

bool useHandle(trace::Value& args, const char* name, void* handle, Kind kind, bool optional, void** real) {
  args.add(name, handleValue(handle));
  *real = nullptr;
  if (!handle) return optional;
  return SaverState::get().handles().find(handle, kind, real);
}

}  // namespace qnn::saver
