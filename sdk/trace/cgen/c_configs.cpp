// Config arrays of the generated program. Each recorded entry names its union
// member by the field it was recorded under (docs/saver-trace-format.md).
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"

namespace qnn::trace::cgen {

// A recorded list of names as a NULL-terminated array of the program; "NULL" for a null list.
std::string CGenerator::nameArray(const Value& names) {
  if (names.kind != Value::Kind::List) return "NULL";
  std::string array = fresh("names"), items;
  for (const Value& n : names.items) items += (n.kind == Value::Kind::String ? cString(n.s) : "NULL") + ", ";
  line("static const char* const " + array + "[] = {" + items + "NULL};");
  return array;
}

std::string CGenerator::emitConfig(const Value& list, const char* type) {
  if (list.kind != Value::Kind::List) return "NULL";
  std::string optionType = type;
  optionType.replace(optionType.rfind("_t"), 2, "Option_t");  // QnnGraph_Config_t -> QnnGraph_ConfigOption_t
  std::string entries = fresh("config"), array = fresh("configList");
  size_t n = list.items.size(), used = 0;
  if (n) {
    line(std::string(type) + " " + entries + "[" + std::to_string(n) + "];");
    line("memset(" + entries + ", 0, sizeof " + entries + ");");
  }
  line(std::string("const ") + type + "* " + array + "[" + std::to_string(n + 1) + "];");
  for (const Value& e : list.items) {
    std::string c = entries + "[" + std::to_string(used) + "]";
    std::string set;
    if (const Value* custom = e.field("custom")) {
      std::string bytes = data(*custom);
      if (bytes != "NULL") set = c + ".customConfig = " + bytes + ";";
    } else if (e.field("priority")) {
      set = c + ".priority = (Qnn_Priority_t)" + field(e, "priority") + ";";
    } else if (const Value* r = e.field("errorReporting")) {
      set = c + ".errorConfig.reportingLevel = (Qnn_ErrorReportingLevel_t)" + field(*r, "reportingLevel") + "; " + c +
            ".errorConfig.storageLimit = " + field(*r, "storageLimit") + ";";
    } else if (const Value* s = e.field("oemString")) {
      set = c + ".oemString = " + (s->kind == Value::Kind::String ? cString(s->s) : "NULL") + ";";
    } else if (const Value* s = e.field("platformOption")) {
      set = c + ".platformOption = " + (s->kind == Value::Kind::String ? cString(s->s) : "NULL") + ";";
    } else if (const Value* d = e.field("asyncQueueDepth")) {
      set = c + ".asyncExeQueueDepth.type = (QnnContext_AsyncExecutionQueueDepthType_t)" + field(*d, "type") + "; " +
            c + ".asyncExeQueueDepth.depth = " + field(*d, "depth") + ";";
    } else if (const Value* p = e.field("profile")) {
      set = c + ".profileHandle = " + handle(*p, "profile") + ";";
    } else if (e.field("timeoutUs")) {
      set = c + ".timeoutDurationUs = " + field(e, "timeoutUs") + ";";
    } else if (e.field("flag")) {
      set = "/* the option alone */";
    } else if (const Value* l = e.field("enableGraphs") ? e.field("enableGraphs") : e.field("graphRetentionOrder")) {
      set = c + (e.field("enableGraphs") ? ".enableGraphs = " : ".graphRetentionOrder = ") + nameArray(*l) + ";";
    } else {
      // Scalar union members, recorded under their own names.
      for (const char* member : {"memoryLimitHint", "isPersistentBinary", "binaryCompatibilityType",
                                 "isGraphInitDeferred", "profilingState", "numProfilingExecutions",
                                 "enableBinarySectionWeightsUpdates"})
        if (e.field(member)) set = c + "." + member + " = " + field(e, member) + ";";
    }
    if (set.empty()) {
      const Value* type = e.field("customType");
      const Value* note = e.field("customNote");
      std::string why = e.field("customWithPointers") && type ? "custom config " + type->s + " holds pointers"
                        : note && note->kind == Value::Kind::String ? note->s
                                                                     : "payload not recorded";
      line("/* config option " + field(e, "option") + ": " + why + "; entry left out */");
      continue;
    }
    line(c + ".option = (" + optionType + ")" + field(e, "option") + ";");
    line(set);
    line(array + "[" + std::to_string(used) + "] = &" + c + ";");
    ++used;
  }
  line(array + "[" + std::to_string(used) + "] = NULL;");
  return array;
}

}  // namespace qnn::trace::cgen
