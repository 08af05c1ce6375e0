// SharedBytes: the static data of a tensor (weights), shared by every copy of
// the tensor's record. Graph IRs are copied freely (a backend's prepared form
// keeps one, a context binary's reader resolves weights stored once into every
// graph using them); with SharedBytes those copies hold one buffer between
// them, so weights repeated across graphs and forms are resident once. It reads
// like a std::vector<uint8_t>; a change makes the changed copy's own buffer
// first (copy on write), so no other holder ever sees it.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <vector>

namespace qnn::sdk {

class SharedBytes {
 public:
  SharedBytes() = default;
  SharedBytes(std::vector<uint8_t> bytes) : p_(std::make_shared<std::vector<uint8_t>>(std::move(bytes))) {}
  SharedBytes(std::initializer_list<uint8_t> bytes) : SharedBytes(std::vector<uint8_t>(bytes)) {}
  SharedBytes& operator=(std::vector<uint8_t> bytes) {
    p_ = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
    return *this;
  }
  SharedBytes& operator=(std::initializer_list<uint8_t> bytes) { return *this = std::vector<uint8_t>(bytes); }

  const uint8_t* data() const { return p_ ? p_->data() : nullptr; }
  size_t size() const { return p_ ? p_->size() : 0; }
  bool empty() const { return size() == 0; }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size(); }
  uint8_t operator[](size_t i) const { return (*p_)[i]; }
  // The bytes as a vector (empty when there are none).
  const std::vector<uint8_t>& vector() const {
    static const std::vector<uint8_t> none;
    return p_ ? *p_ : none;
  }
  // Whether two records hold one buffer (not merely equal bytes).
  bool sharesWith(const SharedBytes& o) const { return p_ && p_ == o.p_; }

  // Changes: on this copy's own buffer.
  template <typename It>
  void assign(It first, It last) {
    p_ = std::make_shared<std::vector<uint8_t>>(first, last);
  }
  void assign(size_t count, uint8_t value) { p_ = std::make_shared<std::vector<uint8_t>>(count, value); }
  void clear() { p_.reset(); }
  void resize(size_t n) { own().resize(n); }
  void pop_back() { own().pop_back(); }
  uint8_t& operator[](size_t i) { return own()[i]; }

  friend bool operator==(const SharedBytes& a, const SharedBytes& b) {
    return a.size() == b.size() && (a.p_ == b.p_ || a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
  }
  friend bool operator!=(const SharedBytes& a, const SharedBytes& b) { return !(a == b); }
  friend bool operator==(const SharedBytes& a, const std::vector<uint8_t>& b) { return a.vector() == b; }
  friend bool operator!=(const SharedBytes& a, const std::vector<uint8_t>& b) { return !(a == b); }

 private:
  std::vector<uint8_t>& own() {
    if (!p_) p_ = std::make_shared<std::vector<uint8_t>>();
    else if (p_.use_count() > 1) p_ = std::make_shared<std::vector<uint8_t>>(*p_);
    return *p_;
  }
  std::shared_ptr<std::vector<uint8_t>> p_;
};

}  // namespace qnn::sdk
