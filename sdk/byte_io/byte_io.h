// Little-endian byte writer and bounds-checked byte reader shared by the binary
// formats (context binary, binary section, prepared-graph blob, the HTP's
// prepared graph). The reader never reads past its end: every read first checks
// the remaining length and, on failure, leaves the reader in a failed state that
// every later read also reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace qnn::sdk::binary {

// One little-endian fixed-width integer appended to `out` / read from [p, end), p advanced; false
// (nothing read) when fewer than sizeof(T) bytes remain. The readers and writers below use them,
// and the Saver's trace encoder and decoder use them directly.
template <typename T>
inline void putLE(std::vector<uint8_t>& out, T v) {
  for (size_t k = 0; k < sizeof(T); ++k) out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * k)));
}
template <typename T>
inline bool getLE(const uint8_t*& p, const uint8_t* end, T& v) {
  if (static_cast<size_t>(end - p) < sizeof(T)) return false;
  uint64_t r = 0;
  for (size_t k = 0; k < sizeof(T); ++k) r |= static_cast<uint64_t>(p[k]) << (8 * k);
  v = static_cast<T>(r);
  p += sizeof(T);
  return true;
}

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>* out) : out_(out) {}

  void u8(uint8_t v) { out_->push_back(v); }
  void u16(uint16_t v) { putLE(*out_, v); }
  void u32(uint32_t v) { putLE(*out_, v); }
  void u64(uint64_t v) { putLE(*out_, v); }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void bytes(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    if (n) out_->insert(out_->end(), b, b + n);
  }
  // u32 length + bytes (no terminator).
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }

  size_t pos() const { return out_->size(); }
  // Writes a placeholder u32 / u64 and later patches it with the number of bytes
  // written since the placeholder ended.
  size_t beginLen32() {
    u32(0);
    return pos();
  }
  void endLen32(size_t start) { patch(start - 4, pos() - start, 4); }
  size_t beginLen64() {
    u64(0);
    return pos();
  }
  void endLen64(size_t start) { patch(start - 8, pos() - start, 8); }
  void patch(size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) (*out_)[at + i] = static_cast<uint8_t>(v >> (8 * i));
  }

 private:
  std::vector<uint8_t>* out_;
};

class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(const uint8_t* p, size_t n) : p_(p), n_(n) {}

  bool ok() const { return ok_; }
  size_t remaining() const { return ok_ ? n_ - pos_ : 0; }
  bool atEnd() const { return remaining() == 0; }
  size_t pos() const { return pos_; }

  bool u8(uint8_t* v) { return fixed(v); }
  bool u16(uint16_t* v) { return fixed(v); }
  bool u32(uint32_t* v) { return fixed(v); }
  bool u64(uint64_t* v) { return fixed(v); }
  bool i32(int32_t* v) {
    uint32_t u;
    if (!u32(&u)) return false;
    *v = static_cast<int32_t>(u);
    return true;
  }
  bool f32(float* v) {
    uint32_t u;
    if (!u32(&u)) return false;
    std::memcpy(v, &u, 4);
    return true;
  }
  // Points *p at the next n bytes and skips them.
  bool view(size_t n, const uint8_t** p) {
    if (!need(n)) return false;
    *p = p_ + pos_;
    pos_ += n;
    return true;
  }
  bool skip(size_t n) {
    const uint8_t* p;
    return view(n, &p);
  }
  bool bytes(size_t n, std::vector<uint8_t>* out) {
    const uint8_t* p;
    if (!view(n, &p)) return false;
    out->assign(p, p + n);
    return true;
  }
  // u32 length (at most maxLen, and at most the remaining bytes) + bytes.
  bool str(std::string* s, size_t maxLen) {
    uint32_t n;
    if (!u32(&n)) return false;
    if (n > maxLen) return fail();
    const uint8_t* p;
    if (!view(n, &p)) return false;
    s->assign(reinterpret_cast<const char*>(p), n);
    return true;
  }
  // Reads a u32 count of items each at least minItemBytes long; refuses a count
  // the remaining bytes cannot hold (so no allocation is sized by a bad count).
  bool count(uint32_t* c, size_t minItemBytes) {
    if (!u32(c)) return false;
    if (minItemBytes && *c > remaining() / minItemBytes) return fail();
    return true;
  }
  // A sub-reader over the next n bytes (which this reader skips).
  bool sub(size_t n, ByteReader* r) {
    const uint8_t* p;
    if (!view(n, &p)) return false;
    *r = ByteReader(p, n);
    return true;
  }
  bool fail() {
    ok_ = false;
    return false;
  }

 private:
  bool need(size_t n) {
    if (!ok_ || n > n_ - pos_) return fail();
    return true;
  }
  // A failed read leaves *v zero (callers test the result first; a value on every path also tells
  // the compiler that none reads it uninitialized).
  template <typename T>
  bool fixed(T* v) {
    *v = T{};
    if (!need(sizeof(T))) return false;
    const uint8_t* p = p_ + pos_;
    getLE(p, p_ + n_, *v);
    pos_ += sizeof(T);
    return true;
  }

  const uint8_t* p_ = nullptr;
  size_t n_ = 0;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace qnn::sdk::binary
