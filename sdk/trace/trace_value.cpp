#include "trace/trace_value.h"

#include "byte_io/byte_io.h"

namespace qnn::trace {

using sdk::binary::getLE;
using sdk::binary::putLE;

Value Value::uint(uint64_t v) { Value r; r.kind = Kind::UInt; r.u = v; return r; }
Value Value::sint(int64_t v) { Value r; r.kind = Kind::Int; r.i = v; return r; }
Value Value::real(double v) { Value r; r.kind = Kind::Float; r.f = v; return r; }
Value Value::str(const char* v) { return v ? str(std::string(v)) : Value(); }
Value Value::str(std::string v) { Value r; r.kind = Kind::String; r.s = std::move(v); return r; }
Value Value::handle(uint64_t id) { Value r; r.kind = Kind::Handle; r.u = id; return r; }
Value Value::blob(uint64_t id, uint64_t size) { Value r; r.kind = Kind::Blob; r.u = id; r.i = int64_t(size); return r; }
Value Value::list() { Value r; r.kind = Kind::List; return r; }
Value Value::record() { Value r; r.kind = Kind::Struct; return r; }

Value& Value::add(std::string name, Value v) {
  names.push_back(std::move(name));
  items.push_back(std::move(v));
  return items.back();
}

const Value* Value::field(const std::string& name) const {
  if (kind != Kind::Struct) return nullptr;
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return &items[k];
  return nullptr;
}

Value& Value::push(Value v) {
  items.push_back(std::move(v));
  return items.back();
}

namespace {

void putString(const std::string& s, std::vector<uint8_t>& out) {
  putLE<uint32_t>(out, uint32_t(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

bool getString(const uint8_t*& p, const uint8_t* end, std::string& s) {
  uint32_t n = 0;
  if (!getLE(p, end, n) || size_t(end - p) < n) return false;
  s.assign(reinterpret_cast<const char*>(p), n);
  p += n;
  return true;
}

constexpr int kMaxDepth = 64;

}  // namespace

void encodeValue(const Value& v, std::vector<uint8_t>& out) {
  out.push_back(uint8_t(v.kind));
  switch (v.kind) {
    case Value::Kind::Null: break;
    case Value::Kind::UInt:
    case Value::Kind::Handle: putLE<uint64_t>(out, v.u); break;
    case Value::Kind::Int: putLE<uint64_t>(out, uint64_t(v.i)); break;
    case Value::Kind::Float: {
      uint64_t bits;
      std::memcpy(&bits, &v.f, 8);
      putLE<uint64_t>(out, bits);
      break;
    }
    case Value::Kind::String: putString(v.s, out); break;
    case Value::Kind::Blob:
      putLE<uint64_t>(out, v.u);
      putLE<uint64_t>(out, uint64_t(v.i));
      break;
    case Value::Kind::List:
      putLE<uint32_t>(out, uint32_t(v.items.size()));
      for (const Value& e : v.items) encodeValue(e, out);
      break;
    case Value::Kind::Struct:
      putLE<uint32_t>(out, uint32_t(v.items.size()));
      for (size_t k = 0; k < v.items.size(); ++k) {
        putString(v.names[k], out);
        encodeValue(v.items[k], out);
      }
      break;
  }
}

bool decodeValue(const uint8_t*& p, const uint8_t* end, Value& v, int depth) {
  if (depth > kMaxDepth || p >= end) return false;
  uint8_t kind = *p++;
  v = Value();
  switch (kind) {
    case uint8_t(Value::Kind::Null): v.kind = Value::Kind::Null; return true;
    case uint8_t(Value::Kind::UInt):
    case uint8_t(Value::Kind::Handle):
      v.kind = Value::Kind(kind);
      return getLE(p, end, v.u);
    case uint8_t(Value::Kind::Int): {
      uint64_t bits;
      if (!getLE(p, end, bits)) return false;
      v.kind = Value::Kind::Int;
      v.i = int64_t(bits);
      return true;
    }
    case uint8_t(Value::Kind::Float): {
      uint64_t bits;
      if (!getLE(p, end, bits)) return false;
      v.kind = Value::Kind::Float;
      std::memcpy(&v.f, &bits, 8);
      return true;
    }
    case uint8_t(Value::Kind::String): v.kind = Value::Kind::String; return getString(p, end, v.s);
    case uint8_t(Value::Kind::Blob): {
      uint64_t size;
      v.kind = Value::Kind::Blob;
      if (!getLE(p, end, v.u) || !getLE(p, end, size)) return false;
      v.i = int64_t(size);
      return true;
    }
    case uint8_t(Value::Kind::List):
    case uint8_t(Value::Kind::Struct): {
      uint32_t n = 0;
      if (!getLE(p, end, n) || n > size_t(end - p)) return false;  // each item takes >= 1 byte
      v.kind = Value::Kind(kind);
      v.items.resize(n);
      if (v.kind == Value::Kind::Struct) v.names.resize(n);
      for (uint32_t k = 0; k < n; ++k) {
        if (v.kind == Value::Kind::Struct && !getString(p, end, v.names[k])) return false;
        if (!decodeValue(p, end, v.items[k], depth + 1)) return false;
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace qnn::trace
