#include "saver/saver_notify.h"

namespace qnn::saver {

void AsyncNotifier::post(Qnn_NotifyFn_t fn, void* param, Qnn_NotifyStatus_t status) {
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back({fn, param, status});
  if (running_) return;
  // The previous thread has left run() (running_ is cleared as its last step under mu_).
  std::thread previous = std::move(thread_);
  running_ = true;
  thread_ = std::thread([this] { run(); });
  lock.unlock();
  if (previous.joinable()) previous.join();
}

void AsyncNotifier::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!queue_.empty()) {
    Pending p = queue_.front();
    queue_.pop_front();
    lock.unlock();
    p.fn(p.param, p.status);
    lock.lock();
  }
  running_ = false;
  idle_.notify_all();
}

void AsyncNotifier::drain() {
  std::unique_lock<std::mutex> lock(mu_);
  if (thread_.joinable() && thread_.get_id() == std::this_thread::get_id()) return;
  idle_.wait(lock, [this] { return !running_; });
  std::thread done = std::move(thread_);
  lock.unlock();
  if (done.joinable()) done.join();
}

AsyncNotifier& asyncNotifier() {
  static AsyncNotifier* notifier = new AsyncNotifier();
  return *notifier;
}

namespace {

// No notifier thread may outlive the library's code.
struct DrainAtUnload {
  ~DrainAtUnload() {
    try {
      asyncNotifier().drain();
    } catch (...) {
    }
  }
} drainAtUnload;

}  // namespace

}  // namespace qnn::saver
