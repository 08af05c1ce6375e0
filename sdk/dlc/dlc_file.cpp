#include "dlc/dlc_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "byte_io/crc.h"
#include "core/dtype.h"
#include "core/tensor_view.h"
#include "dlc/dlc_layout.h"
#include "adapters/client_datatypes.h"

namespace qnn::dlc {
namespace {

using sdk::Status;
using Json = nlohmann::json;

using layout::kPreambleSize;
using layout::kVersion;
// A header beyond this is refused before anything is allocated for it.
constexpr uint64_t kMaxHeaderRawSize = uint64_t(256) << 20;



// The core's datatype table (core/dtype.h): its values are Qnn_DataType_t's.
// The core's datatypes and the packed ones of API 2.39 (static data, e.g. SFIXED_POINT_4 weights).
Qnn_DataType_t dataTypeFromName(const std::string& name) {
  const sdk::DType core = sdk::dtypeFromName(name);
  if (core != sdk::DType::kUndefined) return static_cast<Qnn_DataType_t>(core);
  const std::string bare = name.rfind("QNN_DATATYPE_", 0) == 0 ? name.substr(13) : name;
  for (Qnn_DataType_t t : {QNN_DATATYPE_INT_2, QNN_DATATYPE_INT_4, QNN_DATATYPE_UINT_2, QNN_DATATYPE_UINT_4,
                           QNN_DATATYPE_FLOAT_4, QNN_DATATYPE_FLOAT_8, QNN_DATATYPE_SFIXED_POINT_2,
                           QNN_DATATYPE_SFIXED_POINT_4, QNN_DATATYPE_UFIXED_POINT_2, QNN_DATATYPE_UFIXED_POINT_4})
    if (sdk::qnnDatatypeName(t) == bare) return t;
  return QNN_DATATYPE_UNDEFINED;
}
size_t dataTypeSize(Qnn_DataType_t t) { return sdk::dtypeSize(static_cast<sdk::DType>(t)); }

Status bad(const std::string& path, const std::string& what) {
  return sdk::corruptData("DLC '" + path + "': " + what);
}

template <typename T>
void append(std::vector<uint8_t>* bytes, T v) {
  const size_t at = bytes->size();
  bytes->resize(at + sizeof(T));
  std::memcpy(bytes->data() + at, &v, sizeof(T));
}

// One JSON number in the storage of data type t.
bool appendValue(const Json& v, Qnn_DataType_t t, std::vector<uint8_t>* bytes) {
  if (t == QNN_DATATYPE_BOOL_8) {
    if (!v.is_boolean() && !v.is_number_integer()) return false;
    append<uint8_t>(bytes, v.is_boolean() ? uint8_t(v.get<bool>()) : uint8_t(v.get<int64_t>() != 0));
    return true;
  }
  if (!v.is_number()) return false;
  switch (t) {
    case QNN_DATATYPE_FLOAT_32: append<float>(bytes, float(v.get<double>())); return true;
    case QNN_DATATYPE_INT_8: append<int8_t>(bytes, int8_t(v.get<int64_t>())); return true;
    case QNN_DATATYPE_INT_16: append<int16_t>(bytes, int16_t(v.get<int64_t>())); return true;
    case QNN_DATATYPE_INT_32: append<int32_t>(bytes, int32_t(v.get<int64_t>())); return true;
    case QNN_DATATYPE_INT_64: append<int64_t>(bytes, v.get<int64_t>()); return true;
    case QNN_DATATYPE_UINT_8: append<uint8_t>(bytes, uint8_t(v.get<uint64_t>())); return true;
    case QNN_DATATYPE_UINT_16: append<uint16_t>(bytes, uint16_t(v.get<uint64_t>())); return true;
    case QNN_DATATYPE_UINT_32: append<uint32_t>(bytes, uint32_t(v.get<uint64_t>())); return true;
    case QNN_DATATYPE_UINT_64: append<uint64_t>(bytes, v.get<uint64_t>()); return true;
    default: return false;
  }
}

std::vector<uint32_t> dimsOf(const Json& j) {
  std::vector<uint32_t> dims;
  for (const Json& d : j) {
    const int64_t v = d.get<int64_t>();
    if (v < 0 || v > int64_t(std::numeric_limits<uint32_t>::max())) throw std::out_of_range("dimension out of range");
    dims.push_back(uint32_t(v));
  }
  return dims;
}

// The graph description of the header; throws on a malformed one (open() turns
// that into a Status). Static data is bounds- and CRC-checked against the file.
Graph parseGraph(const Json& g, const uint8_t* file, uint64_t dataEnd) {
  Graph graph;
  graph.name = g.at("name").get<std::string>();
  graph.inputs = g.at("inputs").get<std::vector<std::string>>();
  graph.outputs = g.at("outputs").get<std::vector<std::string>>();
  for (const auto& [name, t] : g.at("tensors").items()) {
    Tensor tensor;
    tensor.name = name;
    if (!layout::tensorTypeFromName(t.at("type").get<std::string>(), &tensor.type))
      throw std::invalid_argument("tensor '" + name + "': unknown type");
    tensor.dataType = dataTypeFromName(t.at("data_type").get<std::string>());
    if (tensor.dataType == QNN_DATATYPE_UNDEFINED) throw std::invalid_argument("tensor '" + name + "': unknown data_type");
    tensor.dims = dimsOf(t.at("dims"));
    if (t.contains("axis_format")) tensor.axisFormat = t.at("axis_format").get<std::string>();
    if (t.contains("source_name")) tensor.sourceName = t.at("source_name").get<std::string>();
    if (t.contains("quant_params")) {
      const Json& q = t.at("quant_params");
      tensor.quant.defined = true;
      tensor.quant.bitwidth = q.at("bitwidth").get<uint32_t>();
      tensor.quant.scales = q.at("scale").get<std::vector<float>>();
      tensor.quant.offsets = q.at("offset").get<std::vector<int32_t>>();
      if (q.contains("axis")) tensor.quant.axis = q.at("axis").get<int32_t>();
      if (tensor.quant.scales.empty() || tensor.quant.scales.size() != tensor.quant.offsets.size() ||
          (tensor.quant.axis < 0 && tensor.quant.scales.size() != 1) || tensor.quant.bitwidth == 0 ||
          tensor.quant.bitwidth > 32)
        throw std::invalid_argument("tensor '" + name + "': inconsistent quant_params");
      if (q.contains("blockwise_expansion")) {
        const Json& b = q.at("blockwise_expansion");
        QuantParams& qp = tensor.quant;
        qp.blockwise = true;
        qp.numBlocks = b.at("num_blocks").get<uint32_t>();
        qp.blockScaleBitwidth = b.at("block_scale_bitwidth").get<uint32_t>();
        for (const Json& m : b.at("block_scales")) {
          if (!m.is_number_unsigned() || m.get<uint64_t>() > 0xffff)
            throw std::invalid_argument("tensor '" + name + "': block_scales must be integers in 0..65535");
          qp.blockScales.push_back(uint16_t(m.get<uint64_t>()));
        }
        // The channel and block axes must fit the dims (the backends check the rest).
        const size_t rank = tensor.dims.size();
        const bool axisOk = qp.axis >= 0 && size_t(qp.axis) < rank && sdk::blockwiseBlockAxis(rank, qp.axis) >= 0 &&
                            tensor.dims[qp.axis] == qp.scales.size();
        if (!axisOk || qp.numBlocks == 0 || qp.blockScales.size() != qp.scales.size() * qp.numBlocks)
          throw std::invalid_argument("tensor '" + name + "': inconsistent blockwise_expansion");
      }
    }
    if (t.contains("data")) {
      const Json& d = t.at("data");
      const uint64_t offset = d.at("offset").get<uint64_t>(), size = d.at("size").get<uint64_t>();
      if (offset < kPreambleSize || offset > dataEnd || size > dataEnd - offset)
        throw std::invalid_argument("tensor '" + name + "': data outside the file's data region");
      if (!sdk::binary::checksumMatches(sdk::binary::crc32Of(file + offset, size), d.at("crc32").get<uint32_t>()))
        throw std::invalid_argument("tensor '" + name + "': data CRC mismatch (the file is damaged)");
      uint64_t elements = 1;
      for (uint32_t dim : tensor.dims) elements *= dim;
      const uint32_t raw = static_cast<uint32_t>(tensor.dataType);
      const bool narrow = sdk::packedBits(raw) != 0 || sdk::isMiniFloat(raw);
      const size_t elementSize = narrow ? 1 : dataTypeSize(tensor.dataType);
      if (elementSize == 0 || elements > std::numeric_limits<uint64_t>::max() / elementSize ||
          (narrow ? sdk::packedBytes(elements, sdk::packedBits(raw)) : elements * elementSize) != size)
        throw std::invalid_argument("tensor '" + name + "': " + std::to_string(size) +
                                    " data bytes do not match its dims and data type");
      tensor.data = file + offset;
      tensor.size = size;
    } else if (tensor.type == QNN_TENSOR_TYPE_STATIC || tensor.type == QNN_TENSOR_TYPE_UPDATEABLE_STATIC) {
      throw std::invalid_argument("static tensor '" + name + "' has no data");
    }
    graph.tensors.push_back(std::move(tensor));
  }
  if (g.contains("op_packages")) {
    for (const Json& p : g.at("op_packages")) {
      OpPackageRef ref;
      ref.name = p.at("name").get<std::string>();
      if (ref.name.empty()) throw std::invalid_argument("an op_packages entry has an empty name");
      ref.domain = p.value("domain", "");
      ref.version = p.value("version", "");
      graph.opPackages.push_back(std::move(ref));
    }
  }
  for (const Json& n : g.at("nodes")) {
    Node node;
    node.name = n.at("name").get<std::string>();
    node.package = n.at("package").get<std::string>();
    node.type = n.at("type").get<std::string>();
    node.inputs = n.at("input_names").get<std::vector<std::string>>();
    node.outputs = n.at("output_names").get<std::vector<std::string>>();
    for (const auto& [pname, p] : n.at("params").items()) {
      Param param;
      param.name = pname;
      param.isTensor = p.at("kind").get<std::string>() == "tensor";
      param.dataType = dataTypeFromName(p.at("data_type").get<std::string>());
      const std::string where = "node '" + node.name + "' param '" + pname + "'";
      if (param.isTensor) {
        param.dims = dimsOf(p.at("dims"));
        uint64_t elements = 1;
        for (uint32_t dim : param.dims) elements *= dim;
        const Json& values = p.at("value");
        if (!values.is_array() || values.size() != elements)
          throw std::invalid_argument(where + ": value count does not match dims");
        for (const Json& v : values)
          if (!appendValue(v, param.dataType, &param.bytes)) throw std::invalid_argument(where + ": bad value");
      } else if (!appendValue(p.at("value"), param.dataType, &param.bytes)) {
        throw std::invalid_argument(where + ": bad value");
      }
      node.params.push_back(std::move(param));
    }
    graph.nodes.push_back(std::move(node));
  }
  return graph;
}

}  // namespace

Status DlcFile::open(const std::string& path, std::unique_ptr<DlcFile>* out) {
  std::unique_ptr<DlcFile> file(new DlcFile());
  file->path_ = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return sdk::invalidArgument("DLC '" + path + "': cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return sdk::invalidArgument("DLC '" + path + "': not a regular file");
  }
  const uint64_t fileSize = uint64_t(st.st_size);
  if (fileSize < kPreambleSize) {
    ::close(fd);
    return bad(path, "shorter than the 64-byte preamble (" + std::to_string(fileSize) + " bytes)");
  }
  void* map = mmap(nullptr, size_t(fileSize), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return sdk::invalidArgument("DLC '" + path + "': cannot map (" + std::strerror(errno) + ")");
  file->map_ = map, file->mapSize_ = size_t(fileSize);
  QNN_SDK_RETURN_IF_ERROR(file->parse(static_cast<const uint8_t*>(map), fileSize));
  *out = std::move(file);
  return Status::ok();
}

Status DlcFile::openBuffer(const uint8_t* data, uint64_t size, const std::string& label, std::unique_ptr<DlcFile>* out) {
  std::unique_ptr<DlcFile> file(new DlcFile());
  file->path_ = label;
  if (!data) return sdk::invalidArgument("DLC '" + label + "': no buffer");
  if (size < kPreambleSize)
    return bad(label, "shorter than the 64-byte preamble (" + std::to_string(size) + " bytes)");
  file->owned_.assign(data, data + size);
  QNN_SDK_RETURN_IF_ERROR(file->parse(file->owned_.data(), size));
  *out = std::move(file);
  return Status::ok();
}

Status DlcFile::openOwned(std::vector<uint8_t>&& bytes, const std::string& label, std::unique_ptr<DlcFile>* out) {
  std::unique_ptr<DlcFile> file(new DlcFile());
  file->path_ = label;
  if (bytes.size() < kPreambleSize)
    return bad(label, "shorter than the 64-byte preamble (" + std::to_string(bytes.size()) + " bytes)");
  file->owned_ = std::move(bytes);
  QNN_SDK_RETURN_IF_ERROR(file->parse(file->owned_.data(), file->owned_.size()));
  *out = std::move(file);
  return Status::ok();
}

Status DlcFile::parse(const uint8_t* bytes, uint64_t fileSize) {
  const std::string& path = path_;
  base_ = bytes, size_ = fileSize;
  DlcFile* file = this;
  if (std::memcmp(bytes, layout::kMagic, sizeof layout::kMagic) != 0)
    return bad(path, "not an OpenQNN DLC (bad magic)");
  const layout::Preamble pre = layout::readPreamble(bytes);
  if (pre.version != kVersion)
    return bad(path, "format version " + std::to_string(pre.version) + ", this library reads version " +
                         std::to_string(kVersion));
  if (!sdk::binary::checksumMatches(layout::preambleCrcOf(bytes), pre.preambleCrc))
    return bad(path, "preamble CRC mismatch");
  const uint64_t headerOffset = pre.headerOffset, headerSize = pre.headerSize, headerRawSize = pre.headerRawSize;
  if (pre.fileSize != fileSize)
    return bad(path, "the preamble records " + std::to_string(pre.fileSize) + " bytes, the file has " +
                         std::to_string(fileSize) + " (truncated or appended to)");
  if (headerOffset < kPreambleSize || headerOffset > fileSize || headerSize > fileSize - headerOffset)
    return bad(path, "header outside the file");
  // Deflate expands at most ~1032:1: a larger stated size is refused before it is allocated.
  if (headerRawSize > kMaxHeaderRawSize || headerRawSize > headerSize * 1032 + 64)
    return bad(path, "header size " + std::to_string(headerRawSize) + " refused");
  if (!sdk::binary::checksumMatches(sdk::binary::crc32Of(bytes + headerOffset, headerSize), pre.headerCrc))
    return bad(path, "header CRC mismatch");
  std::string raw(size_t(headerRawSize), '\0');
  uLongf rawSize = uLongf(headerRawSize);
  if (uncompress(reinterpret_cast<Bytef*>(raw.data()), &rawSize, bytes + headerOffset, uLong(headerSize)) != Z_OK ||
      rawSize != headerRawSize)
    return bad(path, "header does not decompress to its recorded size");
  dataEnd_ = headerOffset;
  try {
    const Json header = Json::parse(raw);
    if (header.at("format").get<std::string>() != "openqnn-dlc") return bad(path, "header format is not openqnn-dlc");
    if (const Json* m = header.contains("metadata") ? &header.at("metadata") : nullptr) {
      file->metadata_.converter = m->value("converter", "");
      file->metadata_.converterCommand = m->value("converter_command", "");
      file->metadata_.modelVersion = m->value("model_version", "");
      file->metadata_.quantizer = m->value("quantizer", "");
      file->metadata_.quantizerCommand = m->value("quantizer_command", "");
      if (m->contains("source_model") && m->at("source_model").is_object()) {
        const Json& s = m->at("source_model");
        file->metadata_.sourceModel = s.value("path", "");
        if (s.contains("sha256") && s.at("sha256").is_string()) file->metadata_.sourceSha256 = s.at("sha256");
      }
    }
    for (const Json& g : header.at("graphs")) file->graphs_.push_back(parseGraph(g, bytes, headerOffset));
    if (header.contains("context_binaries")) {
      for (const Json& c : header.at("context_binaries")) {
        ContextBinary cb;
        cb.name = c.at("name").get<std::string>();
        cb.recordType = c.at("record_type").get<uint32_t>();
        cb.backendId = c.at("backend_id").get<uint32_t>();
        const Json& d = c.at("data");
        const uint64_t offset = d.at("offset").get<uint64_t>(), size = d.at("size").get<uint64_t>();
        if (offset < kPreambleSize || offset > headerOffset || size > headerOffset - offset || size == 0)
          return bad(path, "context binary '" + cb.name + "' outside the file's data region");
        if (!sdk::binary::checksumMatches(sdk::binary::crc32Of(bytes + offset, size), d.at("crc32").get<uint32_t>()))
          return bad(path, "context binary '" + cb.name + "': CRC mismatch (the file is damaged)");
        cb.data = bytes + offset, cb.size = size;
        file->contextBinaries_.push_back(std::move(cb));
      }
    }
  } catch (const Json::exception& e) {
    return bad(path, std::string("malformed header: ") + e.what());
  } catch (const std::exception& e) {  // the checks of parseGraph
    return bad(path, e.what());
  }
  if (file->graphs_.empty()) return bad(path, "no graph");
  headerJson_ = std::move(raw);
  return Status::ok();
}

void DlcFile::releasePages(const uint8_t* data, uint64_t size) const {
  if (!map_ || !data || size == 0) return;
  const auto base = reinterpret_cast<uintptr_t>(map_), begin = reinterpret_cast<uintptr_t>(data);
  if (begin < base || begin + size > base + mapSize_) return;
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t first = (begin + page - 1) / page * page, last = (begin + size) / page * page;  // whole pages only
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

DlcFile::~DlcFile() {
  if (map_) munmap(map_, mapSize_);
}

}  // namespace qnn::dlc
