// A structural value as stored in a trace: scalars, strings, handle ids, blob
// references, lists and named-field structs. The Saver turns every QNN argument
// into a Value tree; the decoder rebuilds the same tree, so one generic format
// serves every API call and every consumer (dump, JSON, replay).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qnn::trace {

struct Value {
  // Numbers are part of the file format: never renumber.
  enum class Kind : uint8_t { Null = 0, UInt = 1, Int = 2, Float = 3, String = 4, Handle = 5, Blob = 6, List = 7, Struct = 8 };

  Kind kind = Kind::Null;
  uint64_t u = 0;   // UInt, Handle (id), Blob (blob id)
  int64_t i = 0;    // Int, Blob (byte size)
  double f = 0;     // Float
  std::string s;    // String
  std::vector<Value> items;         // List, Struct
  std::vector<std::string> names;   // Struct: names[k] labels items[k]

  static Value null() { return Value(); }
  static Value uint(uint64_t v);
  static Value sint(int64_t v);
  static Value real(double v);
  static Value str(const char* v);  // null pointer -> Null
  static Value str(std::string v);
  static Value handle(uint64_t id);
  static Value blob(uint64_t id, uint64_t size);
  static Value list();
  static Value record();  // an empty Struct

  // Struct building and lookup.
  Value& add(std::string name, Value v);
  const Value* field(const std::string& name) const;
  // List building.
  Value& push(Value v);
};

// Binary encoding of a Value (little-endian; see docs/saver-trace-format.md).
void encodeValue(const Value& v, std::vector<uint8_t>& out);

// Bounded decoding: false on truncated or malformed input (depth and counts are
// checked against the remaining bytes, so hostile input cannot exhaust memory).
bool decodeValue(const uint8_t*& p, const uint8_t* end, Value& v, int depth = 0);

}  // namespace qnn::trace
