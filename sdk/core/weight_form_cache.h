// WeightFormCache: a kernel's transformed form of static weights (packed for a
// GEMM, converted to float), shared by every kernel that makes the same form of
// the same weights. Weights shared by several graphs are one buffer
// (SharedBytes), so their graphs' kernels would otherwise each hold their own
// identical packed copy. An entry lives as long as some kernel holds it.
// Keyed by the weights' address and size, a sample of their bytes, and what the
// form depends on (`variant`: shape, transposition, rounding); a weights buffer
// is never changed in place while a graph uses it (updates make a new one).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace qnn::sdk {

// Vector: the container a form is kept in (a LargeVector for forms read at every execute).
template <typename T, typename Vector = std::vector<T>>
class WeightFormCache {
 public:
  using Form = std::shared_ptr<const Vector>;

  // The form of `bytes` weights at `source` for `variant`, made by `make()` the
  // first time (or after every holder released it). `make` may throw
  // (e.g. std::bad_alloc); nothing is cached then.
  template <typename Make>
  Form get(const void* source, size_t bytes, const std::string& variant, Make make) {
    Key key{source, bytes, sample(source, bytes), variant};
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = forms_.find(key); it != forms_.end())
      if (Form form = it->second.lock()) return form;
    Form form = std::make_shared<const Vector>(make());
    forms_[key] = form;
    // Drop entries whose forms are gone, so the map does not grow with them.
    for (auto it = forms_.begin(); it != forms_.end();) it = it->second.expired() ? forms_.erase(it) : std::next(it);
    return form;
  }

 private:
  using Key = std::tuple<const void*, size_t, uint64_t, std::string>;
  static uint64_t sample(const void* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    const auto* b = static_cast<const uint8_t*>(p);
    auto mix = [&](size_t i) { h = (h ^ b[i]) * 1099511628211ull; };
    for (size_t i = 0; i < n && i < 64; ++i) mix(i);
    for (size_t i = n > 64 ? n - 64 : n; i < n; ++i) mix(i);
    return h;
  }
  std::mutex mutex_;
  std::map<Key, std::weak_ptr<const Vector>> forms_;
};

}  // namespace qnn::sdk
