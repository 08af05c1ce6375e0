// QnnContext_createFromBinaryListAsync -> C: the recorded list again (each
// entry's binary and configs; an entry whose client gave a data callback gets
// one serving ranges of its binary), a ListSlot per entry filled by the
// prelude's noteListLoad, then each recorded context and graph taken from its
// entry's slot (graphs by name).
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"

namespace qnn::trace::cgen {

bool CGenerator::emitListAsync(const Args<Call::contextCreateFromBinaryListAsync>& a) {
  const Value* entries = &a.contextParams;
  if (entries->items.empty()) return false;
  auto handleOf = [&](const Value& v, const char* name, const char* kind) {
    const Value* f = v.field(name);
    return f ? handle(*f, kind) : std::string("NULL");
  };
  const std::string n = std::to_string(entries->items.size());
  const std::string slots = fresh("slots");
  line("static ListSlot " + slots + "[" + n + "];");
  line("memset(" + slots + ", 0, sizeof " + slots + ");");
  std::string list;
  for (size_t k = 0; k < entries->items.size(); ++k) {
    const Value& e = entries->items[k];
    const Value* binary = e.field("binary");
    const Value* config = e.field("config");
    if (!binary) return false;
    const std::string cfg = config ? emitConfig(*config, "QnnContext_Config_t") : "NULL";
    const std::string slot = "&" + slots + "[" + std::to_string(k) + "]";
    const std::string profile = handleOf(e, "profile", "profile");
    const std::string params = fresh("params");
    if (e.field("callbackType")) {
      // The recorded client's callback is not in the trace: the program's own serves the buffer.
      const std::string range = fresh("range"), callback = fresh("callback"), v2 = fresh("paramsV2");
      line("static BufferRange " + range + ";");
      line("static Qnn_ContextBinaryCallback_t " + callback + ";");
      line(callback + " = rangeCallback(&" + range + ", " + binaryArgs(*binary) + ");");
      line("QnnContext_ParamsV2_t " + v2 + " = {" + cfg + ", " + binaryArgs(*binary) + ", " + profile +
           ", noteListLoad, " + slot + ", &" + callback + "};");
      line("QnnContext_Params_t " + params + ";");
      line("memset(&" + params + ", 0, sizeof " + params + ");");
      line(params + ".version = QNN_CONTEXT_PARAMS_VERSION_2;");
      line(params + ".v2 = &" + v2 + ";");
    } else {
      line("QnnContext_Params_t " + params + " = {QNN_CONTEXT_PARAMS_VERSION_1, {{" + cfg + ", " + binaryArgs(*binary) +
           ", " + profile + ", noteListLoad, " + slot + "}}};");
    }
    list += "&" + params + ", ";
  }
  const std::string array = fresh("list");
  line("const QnnContext_Params_t* " + array + "[] = {" + list + "NULL};");
  const std::string listConfig = emitConfig(a.config, "QnnContext_Config_t");
  line("if (CHECK(API(contextCreateFromBinaryListAsync, " + handle(a.backend, "backend") + ", " +
       handle(a.device, "device") + ", " + array + ", " + listConfig + ", " + handle(a.signal, "signal") + "))) {");
  for (size_t k = 0; k < entries->items.size(); ++k) {
    const Value& e = entries->items[k];
    const Value* context = e.field("context");
    if (!context) continue;  // that load failed when recorded
    const std::string slot = slots + "[" + std::to_string(k) + "]";
    line("  " + handle(*context, "context") + " = " + slot + ".context;");
    if (const Value* graphs = e.field("graphs"))
      for (const Value& g : graphs->items) {
        const Value* name = g.field("graphName");
        const Value* graph = g.field("graph");
        if (!name || !graph || name->kind != Value::Kind::String) continue;
        line("  " + handle(*graph, "graph") + " = listGraph(&" + slot + ", " + cString(name->s) + ");");
      }
  }
  line("}");
  return true;
}

}  // namespace qnn::trace::cgen
