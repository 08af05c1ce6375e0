// SharedBytes: the static data of a tensor (weights), shared by every copy of
// the tensor's record. Graph IRs are copied freely (a backend's prepared form
// keeps one, a context binary's reader resolves weights stored once into every
// graph using them); with SharedBytes those copies hold one buffer between
// them, so weights repeated across graphs and forms are resident once. It reads
// like a std::vector<uint8_t>; a change makes the changed copy's own buffer
// first (copy on write), so no other holder ever sees it.
// It may also view bytes it does not own (SharedBytes::view): a part of a
// context binary's weights region, or memory a client lent through the
// binary data callback, kept alive (and handed back) by the view's keeper.
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
    view_.reset();
    viewSize_ = 0;
    p_ = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
    return *this;
  }
  // `size` bytes at `bytes.get()`, owned elsewhere; `bytes` (an aliasing
  // shared_ptr) keeps them alive as long as any copy of this record exists.
  static SharedBytes view(std::shared_ptr<const uint8_t> bytes, size_t size) {
    SharedBytes s;
    if (size == 0) return s;
    s.view_ = std::move(bytes);
    s.viewSize_ = size;
    return s;
  }
  // Whether the bytes are a view of memory this project did not allocate for them.
  bool isView() const { return view_ != nullptr; }
  SharedBytes& operator=(std::initializer_list<uint8_t> bytes) { return *this = std::vector<uint8_t>(bytes); }

  const uint8_t* data() const { return view_ ? view_.get() : p_ ? p_->data() : nullptr; }
  size_t size() const { return view_ ? viewSize_ : p_ ? p_->size() : 0; }
  bool empty() const { return size() == 0; }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size(); }
  uint8_t operator[](size_t i) const { return data()[i]; }
  // A copy of the bytes as a vector (empty when there are none).
  std::vector<uint8_t> vector() const { return std::vector<uint8_t>(begin(), end()); }
  // Whether two records hold one buffer (not merely equal bytes).
  bool sharesWith(const SharedBytes& o) const { return !empty() && data() == o.data() && size() == o.size(); }

  // Changes: on this copy's own buffer.
  template <typename It>
  void assign(It first, It last) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(first, last);
    dropView();
    p_ = std::move(bytes);
  }
  void assign(size_t count, uint8_t value) {
    dropView();
    p_ = std::make_shared<std::vector<uint8_t>>(count, value);
  }
  void clear() {
    dropView();
    p_.reset();
  }
  void resize(size_t n) { own().resize(n); }
  void pop_back() { own().pop_back(); }
  uint8_t& operator[](size_t i) { return own()[i]; }

  friend bool operator==(const SharedBytes& a, const SharedBytes& b) {
    return a.size() == b.size() && (a.data() == b.data() || a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
  }
  friend bool operator!=(const SharedBytes& a, const SharedBytes& b) { return !(a == b); }
  friend bool operator==(const SharedBytes& a, const std::vector<uint8_t>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
  }
  friend bool operator!=(const SharedBytes& a, const std::vector<uint8_t>& b) { return !(a == b); }

 private:
  void dropView() {
    view_.reset();
    viewSize_ = 0;
  }
  std::vector<uint8_t>& own() {
    if (view_) {
      p_ = std::make_shared<std::vector<uint8_t>>(view_.get(), view_.get() + viewSize_);
      dropView();
    } else if (!p_) {
      p_ = std::make_shared<std::vector<uint8_t>>();
    } else if (p_.use_count() > 1) {
      p_ = std::make_shared<std::vector<uint8_t>>(*p_);
    }
    return *p_;
  }
  // Either p_ (bytes of this project's own) or view_ (bytes owned elsewhere) is set.
  std::shared_ptr<std::vector<uint8_t>> p_;
  std::shared_ptr<const uint8_t> view_;
  size_t viewSize_ = 0;
};

}  // namespace qnn::sdk
