#include "oppackage/op_package_checks.h"

#include <map>

#include "oppackage/op_package_values.h"
#include "oppackage/op_package_vocabulary.h"

namespace qnn::oppackage {

namespace {

class Checker {
 public:
  Checker(const OpPackageConfig& config, std::vector<Diagnostic>& out) : config_(config), out_(out) {}

  void run() {
    std::map<std::string, int> opLines;
    for (const auto& op : config_.ops) {
      auto [it, inserted] = opLines.emplace(op.name, op.line);
      if (!inserted)
        error(op.line, "<OpDef> op '" + op.name + "' is defined twice (first at line " + std::to_string(it->second) + ")");
      checkOp(op);
    }
    for (const auto& list : config_.supplements) checkSupplementalList(list);
    for (const auto& op : config_.ops) checkBackends(op);
  }

 private:
  void error(int line, const std::string& message) { out_.push_back({config_.file, line, message}); }

  const OpDef* findOp(const std::string& name) const {
    for (const auto& op : config_.ops)
      if (op.name == name) return &op;
    return nullptr;
  }

  void checkUniqueNames(const OpDef& op) {
    // Inputs, outputs and parameters share one namespace: the generated code
    // names accessors after them.
    std::map<std::string, int> seen;
    for (const auto* list : {&op.inputs, &op.outputs, &op.params})
      for (const auto& t : *list) {
        auto [it, inserted] = seen.emplace(t.name, t.line);
        if (!inserted)
          error(t.line, "<Name> '" + t.name + "' of op '" + op.name + "' is used twice (first at line " +
                            std::to_string(it->second) + ")");
      }
  }

  // Optional tensors after mandatory ones, and only the last may repeat: the
  // position of a tensor must be decidable from the count alone.
  void checkOrder(const std::vector<TensorDef>& tensors, const char* kind, const OpDef& op) {
    bool sawOptional = false;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorDef& t = tensors[i];
      if (t.mandatory && sawOptional)
        error(t.line, std::string("<") + kind + "> '" + t.name + "' of op '" + op.name +
                          "' is mandatory but follows an optional one");
      sawOptional = sawOptional || !t.mandatory;
      if (t.repeated && i + 1 != tensors.size())
        error(t.line, std::string("<") + kind + "> '" + t.name + "' of op '" + op.name +
                          "' is <Repeated> but not the last one");
    }
  }

  void checkParam(const TensorDef& p, const OpDef& op) {
    const std::string where = "parameter '" + p.name + "' of op '" + op.name + "'";
    if (p.repeated) error(p.line, "<Parameter> " + where + " cannot be <Repeated>");
    const DatatypeInfo* type = primaryDatatype(p);
    if (!p.enumeration.empty()) {
      if (p.rank != 0) error(p.enumerationLine, "<Enumeration> of " + where + " needs <Rank>SCALAR</Rank>");
      for (const auto& d : p.datatypes) {
        const DatatypeInfo* info = findDatatype(d);
        if (info && (info->kind == ValueKind::Float || info->kind == ValueKind::Bool))
          error(p.enumerationLine, "<Enumeration> of " + where + " needs an integer <Datatype>, not " + d);
      }
    }
    if (!p.defaultValue) return;
    const std::string& v = *p.defaultValue;
    if (!p.enumeration.empty()) {
      if (!enumerationIndex(p, v)) {
        std::string values;
        for (const auto& e : p.enumeration) values += (values.empty() ? "" : ", ") + e;
        error(p.defaultLine, "<Default> '" + v + "' of " + where + " is not one of its <Enumeration> values (" + values + ")");
      }
      return;
    }
    if (!type) return;  // BACKEND_SPECIFIC only: checked against the supplement's type when generating
    bool legal = false;
    for (const auto& d : p.datatypes)
      if (const DatatypeInfo* info = findDatatype(d))
        legal = legal || (p.rank == 0 ? parseScalarValue(v, *info).has_value() : parseTensorValues(v, *info).has_value());
    if (!legal)
      error(p.defaultLine, "<Default> '" + v + "' of " + where + " is not a " + (p.rank == 0 ? "scalar" : "tensor") +
                        " value of its <Datatype> " + type->name);
  }

  void checkOp(const OpDef& op) {
    checkUniqueNames(op);
    checkOrder(op.inputs, "Input", op);
    checkOrder(op.outputs, "Output", op);
    for (const auto& p : op.params) checkParam(p, op);
    for (const auto& t : op.inputs)
      if (t.rank == 0 && !t.isStaticTensor)
        error(t.line, "<Input> '" + t.name + "' of op '" + op.name + "' has <Rank>SCALAR</Rank>; inputs are tensors (1D or more)");
  }

  void checkSupplementTensors(const std::vector<SupplementalTensor>& supplements, const std::vector<TensorDef>& defs,
                              const char* kind, const OpDef& op, const std::string& backend) {
    for (const auto& s : supplements) {
      const TensorDef* def = nullptr;
      for (const auto& d : defs)
        if (d.name == s.name) def = &d;
      if (!def) {
        error(s.line, std::string("supplemental <") + kind + "> '" + s.name + "' for backend " + backend +
                          " names no " + kind + " of op '" + op.name + "'");
        continue;
      }
      bool anyType = false;
      for (const auto& d : def->datatypes) anyType = anyType || d == kBackendSpecific;
      for (const auto& d : s.datatypes) {
        bool listed = anyType;
        for (const auto& allowed : def->datatypes) listed = listed || allowed == d;
        if (!listed)
          error(s.line, std::string("supplemental <") + kind + "> '" + s.name + "' for backend " + backend + " allows " +
                            d + ", which op '" + op.name + "' does not list: a supplement can only narrow datatypes");
      }
      if (s.onlyDefaultSupported && !def->defaultValue && !def->mandatory)
        error(s.line, std::string("supplemental <") + kind + "> '" + s.name + "' for backend " + backend +
                          " has <OnlyDefaultSupported> but op '" + op.name + "' gives it no <Default>");
    }
  }

  void checkSupplementalList(const SupplementalOpDefList& list) {
    for (size_t i = 0; i < list.supportedOps.size(); ++i)
      if (const std::string& name = list.supportedOps[i]; !findOp(name))
        error(list.supportedOpLines[i], "<OpName> '" + name + "' in <SupportedOps> of backend " + list.backend +
                             " names no op of the <OpDefList>");
    std::map<std::string, int> seen;
    for (const auto& def : list.defs) {
      const OpDef* op = findOp(def.name);
      if (!op) {
        error(def.line, "<SupplementalOpDef> '" + def.name + "' for backend " + list.backend +
                            " names no op of the <OpDefList>");
        continue;
      }
      auto [it, inserted] = seen.emplace(def.name, def.line);
      if (!inserted)
        error(def.line, "<SupplementalOpDef> '" + def.name + "' appears twice for backend " + list.backend +
                            " (first at line " + std::to_string(it->second) + ")");
      checkSupplementTensors(def.inputs, op->inputs, "Input", *op, list.backend);
      checkSupplementTensors(def.outputs, op->outputs, "Output", *op, list.backend);
      checkSupplementTensors(def.params, op->params, "Parameter", *op, list.backend);
    }
  }

  // Every op targets some backend, and each BACKEND_SPECIFIC datatype or layout is
  // made concrete by the supplement of every backend the op targets.
  void checkBackends(const OpDef& op) {
    std::vector<std::string> backends = op.supportedBackends;
    for (const auto& list : config_.supplements)
      for (const auto& name : list.supportedOps)
        if (name == op.name) backends.push_back(list.backend);
    if (backends.empty()) {
      error(op.line, "<OpDef> op '" + op.name +
                         "' names no backend (<SupportedBackend> or <OpName> in a <SupplementalOpDefList>)");
      return;
    }
    for (const auto& backend : backends) {
      const SupplementalOpDef* supplement = nullptr;
      for (const auto& list : config_.supplements)
        if (backendFamily(list.backend) == backendFamily(backend))
          for (const auto& def : list.defs)
            if (def.name == op.name) supplement = &def;
      checkResolved(op.inputs, supplement ? &supplement->inputs : nullptr, "Input", op, backend);
      checkResolved(op.outputs, supplement ? &supplement->outputs : nullptr, "Output", op, backend);
      checkResolved(op.params, supplement ? &supplement->params : nullptr, "Parameter", op, backend);
    }
  }

  void checkResolved(const std::vector<TensorDef>& defs, const std::vector<SupplementalTensor>* supplements,
                     const char* kind, const OpDef& op, const std::string& backend) {
    for (const auto& t : defs) {
      const SupplementalTensor* s = nullptr;
      if (supplements)
        for (const auto& candidate : *supplements)
          if (candidate.name == t.name) s = &candidate;
      bool specificType = false;
      for (const auto& d : t.datatypes) specificType = specificType || d == kBackendSpecific;
      if (specificType && (!s || s->datatypes.empty()))
        error(t.line, std::string("<") + kind + "> '" + t.name + "' of op '" + op.name +
                          "' has <Datatype>BACKEND_SPECIFIC</Datatype> but backend " + backend +
                          " has no <SupplementalOpDef> giving its datatype");
      if (t.layout == kBackendSpecific && (!s || s->layout.empty()))
        error(t.line, std::string("<") + kind + "> '" + t.name + "' of op '" + op.name +
                          "' has <Layout>BACKEND_SPECIFIC</Layout> but backend " + backend +
                          " has no <SupplementalOpDef> giving its layout");
    }
  }

  const OpPackageConfig& config_;
  std::vector<Diagnostic>& out_;
};

}  // namespace

void checkOpPackageConfig(const OpPackageConfig& config, std::vector<Diagnostic>& out) {
  Checker(config, out).run();
}

}  // namespace qnn::oppackage
