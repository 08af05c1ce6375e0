// QnnSignal entry points.
#include "runtime/runtime.h"

#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

bool SignalObject::acquire() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (inUse_) return false;
  inUse_ = true;
  triggered_ = false;  // only a trigger during this call counts
  return true;
}

bool SignalObject::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  inUse_ = false;
  return triggered_.exchange(false);
}

bool SignalObject::trigger() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!inUse_) return false;
  triggered_ = true;
  return true;
}

SignalObject::Stop SignalObject::stopFor(uint64_t begunMicros) const {
  if (triggered()) return Stop::kAborted;
  if (timeoutUs && nowMicros() - begunMicros > timeoutUs) return Stop::kTimedOut;
  return Stop::kNone;
}

bool SignalObject::inUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return inUse_;
}

static Status applySignalConfig(SignalObject& s, const QnnSignal_Config_t** config) {
  if (!config) return Status::ok();
  for (size_t i = 0; config[i]; ++i) {
    if (config[i]->option == QNN_SIGNAL_CONFIG_OPTION_TIMEOUT) s.timeoutUs = config[i]->timeoutDurationUs;
    else if (config[i]->option != QNN_SIGNAL_CONFIG_OPTION_CUSTOM)
      return invalidArgument("unknown signal config option");
  }
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::signalCreate(Qnn_BackendHandle_t backend, const QnnSignal_Config_t** config,
                                        Qnn_SignalHandle_t* signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!handles().get<BackendObject>(backend, HandleKind::kBackend)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (!signal) return QNN_SIGNAL_ERROR_INVALID_ARGUMENT;
    auto s = std::make_shared<SignalObject>();
    if (Status st = applySignalConfig(*s, config); !st.isOk())
      return refuse(nullptr, "QnnSignal_create", st.message(), QNN_SIGNAL_ERROR_INVALID_ARGUMENT);
    *signal = handles().add(s);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::signalSetConfig(Qnn_SignalHandle_t signal, const QnnSignal_Config_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto s = handles().get<SignalObject>(signal, HandleKind::kSignal);
    if (!s) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (s->inUse()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    Status st = applySignalConfig(*s, config);
    return st.isOk() ? QNN_SUCCESS : refuse(nullptr, "QnnSignal_setConfig", st.message(), QNN_SIGNAL_ERROR_INVALID_ARGUMENT);
  });
}

Qnn_ErrorHandle_t Runtime::signalTrigger(Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto s = handles().get<SignalObject>(signal, HandleKind::kSignal);
    if (!s) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    return s->trigger() ? QNN_SUCCESS : QNN_SIGNAL_ERROR_SIGNAL_IDLE;
  });
}

Qnn_ErrorHandle_t Runtime::signalFree(Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto s = handles().get<SignalObject>(signal, HandleKind::kSignal);
    if (!s) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (s->inUse()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    handles().remove(signal, HandleKind::kSignal);
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
