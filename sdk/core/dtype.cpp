#include "core/dtype.h"

namespace qnn::sdk {
namespace {

struct DTypeInfo {
  DType type;
  size_t size;
  const char* name;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::kInt8, 1, "INT_8"},           {DType::kInt16, 2, "INT_16"},
    {DType::kInt32, 4, "INT_32"},         {DType::kInt64, 8, "INT_64"},
    {DType::kUInt8, 1, "UINT_8"},         {DType::kUInt16, 2, "UINT_16"},
    {DType::kUInt32, 4, "UINT_32"},       {DType::kUInt64, 8, "UINT_64"},
    {DType::kFloat16, 2, "FLOAT_16"},     {DType::kFloat32, 4, "FLOAT_32"},
    {DType::kSFixed8, 1, "SFIXED_POINT_8"}, {DType::kSFixed16, 2, "SFIXED_POINT_16"},
    {DType::kSFixed32, 4, "SFIXED_POINT_32"}, {DType::kUFixed8, 1, "UFIXED_POINT_8"},
    {DType::kUFixed16, 2, "UFIXED_POINT_16"}, {DType::kUFixed32, 4, "UFIXED_POINT_32"},
    {DType::kBool8, 1, "BOOL_8"},
};

const DTypeInfo* lookup(DType t) {
  for (const auto& info : kDTypes)
    if (info.type == t) return &info;
  return nullptr;
}

}  // namespace

size_t dtypeSize(DType t) {
  const DTypeInfo* info = lookup(t);
  return info ? info->size : 0;
}

bool dtypeIsKnown(uint32_t raw) { return lookup(static_cast<DType>(raw)) != nullptr; }

bool dtypeIsFloat(DType t) { return t == DType::kFloat16 || t == DType::kFloat32; }

bool dtypeIsFixedPoint(DType t) {
  uint32_t family = static_cast<uint32_t>(t) >> 8;
  return lookup(t) && (family == 0x3 || family == 0x4);
}

bool dtypeIsSigned(DType t) {
  uint32_t family = static_cast<uint32_t>(t) >> 8;
  return lookup(t) && (family == 0x0 || family == 0x2 || family == 0x3);
}

const char* dtypeName(DType t) {
  const DTypeInfo* info = lookup(t);
  return info ? info->name : "UNDEFINED";
}

DType dtypeFromName(const std::string& name) {
  std::string bare = name.rfind("QNN_DATATYPE_", 0) == 0 ? name.substr(13) : name;
  for (const auto& info : kDTypes)
    if (bare == info.name) return info.type;
  return DType::kUndefined;
}

}  // namespace qnn::sdk
