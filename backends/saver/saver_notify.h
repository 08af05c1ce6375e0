// Notifications of graphExecuteAsync when the Saver only records. QnnGraph.h
// has the notify function called "in context of backend owned thread": the
// Saver's own thread calls it once the call has been recorded, never the
// client's thread from inside QnnGraph_executeAsync (a client holding a lock
// across the call, or counting the call only once it returned, would deadlock
// or miscount).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "QnnGraph.h"

namespace qnn::saver {

class AsyncNotifier {
 public:
  // Queues one notification; the notifier thread runs while any is queued.
  void post(Qnn_NotifyFn_t fn, void* param, Qnn_NotifyStatus_t status);
  // Returns once every queued notification was delivered (contextFree,
  // backendFree, unload). From the notifier thread itself (a client freeing
  // from its callback) it returns at once.
  void drain();

 private:
  struct Pending {
    Qnn_NotifyFn_t fn;
    void* param;
    Qnn_NotifyStatus_t status;
  };
  void run();

  std::mutex mu_;
  std::condition_variable idle_;
  std::deque<Pending> queue_;
  bool running_ = false;  // the thread is delivering; it exits once the queue is empty
  std::thread thread_;
};

// The process-wide notifier (never destroyed; drained when the library is unloaded).
AsyncNotifier& asyncNotifier();

}  // namespace qnn::saver
