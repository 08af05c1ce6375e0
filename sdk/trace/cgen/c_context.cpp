// Context and registered-memory calls -> C: contexts created (from binaries
// too), configured, binaries got and kept, memRegister on the program's memfds.
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"
#include "trace/qnn_data_bytes.h"

namespace qnn::trace::cgen {
namespace {

// Bytes of a registered buffer, from its recorded descriptor.
uint64_t bufferBytes(const Value& descriptor) {
  size_t elements = 1;
  if (const Value* dims = descriptor.field("dims"))
    for (const Value& d : dims->items) elements *= d.u;
  const Value* type = descriptor.field("dataType");
  return qnnDataBytes(type ? uint32_t(type->u) : 0x0008, elements);
}

}  // namespace

template <>
bool CGenerator::on<Call::contextGetBinarySize>(const CallRecord& c) {
  const Args<Call::contextGetBinarySize> a(c);
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySize, " + handle(a.context, "context") + ", &size));");
  return true;
}

template <>
bool CGenerator::on<Call::contextGetBinary>(const CallRecord& c) {
  const Args<Call::contextGetBinary> a(c);
  // The program keeps the binary it gets: a later createFromBinary of the
  // recorded bytes uses this one, made by the replaying backend.
  std::string id = std::to_string(a.binary.u), ctx = handle(a.context, "context");
  if (liveBinaries_.insert(a.binary.u).second) {
    globals_.push_back("static void* binary_" + id + ";");
    globals_.push_back("static Qnn_ContextBinarySize_t binarySize_" + id + ";");
  }
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySize, " + ctx + ", &size));");
  line("free(binary_" + id + ");");
  line("binary_" + id + " = outputBuffer((uint32_t)size);");
  line("CHECK(API(contextGetBinary, " + ctx + ", binary_" + id + ", size, &binarySize_" + id + "));");
  return true;
}

template <>
bool CGenerator::on<Call::contextCreateFromBinaryWithCallback>(const CallRecord& c) {
  const Args<Call::contextCreateFromBinaryWithCallback> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  // The recorded client's callback is not in the trace: the program's own serves the buffer.
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  line("Qnn_ContextBinaryCallback_t callback = bufferCallback(" + binaryArgs(a.binary) + ");");
  line("CHECK(API(contextCreateFromBinaryWithCallback, " + backend + ", " + device + ", " + cfg + ", &callback, " +
       binaryArgs(a.binary) + ", &" + handle(a.context, "context") + ", " +
       handle(a.profile, "profile") + ", " + handle(a.signal, "signal") + "));");
  return true;
}

template <Call C>
bool CGenerator::createContextFromBinary(const CallRecord& c) {
  const Args<C> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  std::string tail;
  if constexpr (C == Call::contextCreateFromBinaryWithSignal) tail = ", " + handle(a.signal, "signal");
  line("CHECK(API(" + std::string(callMember(C)) + ", " + backend + ", " + device + ", " + cfg + ", " +
       binaryArgs(a.binary) + ", &" + handle(a.context, "context") + ", " +
       handle(a.profile, "profile") + tail + "));");
  return true;
}

template <>
bool CGenerator::on<Call::contextCreateFromBinaryListAsync>(const CallRecord& c) {
  const Args<Call::contextCreateFromBinaryListAsync> a(c);
  return emitListAsync(a);
  return true;
}

template <>
bool CGenerator::on<Call::contextValidateBinary>(const CallRecord& c) {
  const Args<Call::contextValidateBinary> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  line("CHECK(API(contextValidateBinary, " + backend + ", " + device + ", " + cfg + ", " + binaryArgs(a.binary) +
       "));");
  return true;
}

template <>
bool CGenerator::on<Call::memRegister>(const CallRecord& c) {
  const Args<Call::memRegister> a(c);
  const Value& descriptors = a.memDescriptors;
  const Value& handles = a.memHandles;
  size_t n = descriptors.items.size();
  for (const Value& d : descriptors.items)  // custom memory (no fd) is not replayable
    if (!d.field("fd") || !d.field("dims") || handles.items.size() != n) return false;
  if (n == 0) return false;
  std::string ns = std::to_string(n);
  line("Qnn_MemDescriptor_t desc[" + ns + "];");
  line("Qnn_MemHandle_t handles[" + ns + "];");
  line("void* mapped[" + ns + "];");
  line("int fds[" + ns + "];");
  line("memset(desc, 0, sizeof desc);");
  for (size_t k = 0; k < n; ++k) {
    const Value& d = descriptors.items[k];
    std::string dk = "desc[" + std::to_string(k) + "]", ks = std::to_string(k);
    std::string dims = fresh("dims");
    std::string init;
    for (const Value& x : d.field("dims")->items) init += (init.empty() ? "" : ", ") + std::to_string(x.u) + "u";
    line("static uint32_t " + dims + "[] = {" + (init.empty() ? "1u" : init) + "};");
    line(dk + ".memShape.numDim = " + std::to_string(d.field("dims")->items.size()) + "u;");
    line(dk + ".memShape.dimSize = " + dims + ";");
    line(dk + ".dataType = (Qnn_DataType_t)" + field(d, "dataType") + ";");
    line(dk + ".memType = QNN_MEM_TYPE_ION;");
    line("fds[" + ks + "] = sharedBuffer(" + std::to_string(bufferBytes(d)) + "u, &mapped[" + ks + "]);");
    line(dk + ".ionInfo.fd = fds[" + ks + "];");
  }
  line("if (CHECK(API(memRegister, " + handle(a.context, "context") + ", desc, " + ns + "u, handles))) {");
  for (size_t k = 0; k < n; ++k) {
    std::string ks = std::to_string(k), mem = handle(handles.items[k], "mem");
    line("  " + mem + " = handles[" + ks + "];");
    line("  bindMapping(" + mem + ", mapped[" + ks + "], " + std::to_string(bufferBytes(descriptors.items[k])) +
         "u, fds[" + ks + "]);");
  }
  line("}");
  return true;
}

template <>
bool CGenerator::on<Call::memDeRegister>(const CallRecord& c) {
  const Args<Call::memDeRegister> a(c);
  const Value& handles = a.memHandles;
  if (handles.items.empty()) return false;
  std::string list;
  for (const Value& h : handles.items) list += (list.empty() ? "" : ", ") + handle(h, "mem");
  line("Qnn_MemHandle_t handles[] = {" + list + "};");
  line("CHECK(API(memDeRegister, handles, " + std::to_string(handles.items.size()) + "u));");
  return true;
}

// Calls sharing a handler.
QNN_CGEN_SHARED_HANDLER(contextCreateFromBinary, createContextFromBinary)
QNN_CGEN_SHARED_HANDLER(contextCreateFromBinaryWithSignal, createContextFromBinary)

}  // namespace qnn::trace::cgen
