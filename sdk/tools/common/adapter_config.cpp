#include "tools/common/adapter_config.h"

#include <yaml.h>

#include <cstdio>
#include <memory>
#include <set>

#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

struct Document {
  yaml_document_t doc;
  bool loaded = false;
  ~Document() {
    if (loaded) yaml_document_delete(&doc);
  }
};

std::string scalar(yaml_node_t* node) {
  if (!node || node->type != YAML_SCALAR_NODE) return {};
  return std::string(reinterpret_cast<const char*>(node->data.scalar.value), node->data.scalar.length);
}

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

}  // namespace

std::vector<AdapterUseCase> readAdapterConfig(const std::string& path) {
  auto bad = [&](const std::string& why) { return ToolError("adapter weight config '" + path + "': " + why); };
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) throw ToolError("cannot open adapter weight config '" + path + "'");
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) throw bad("cannot start the YAML parser");
  yaml_parser_set_input_file(&parser, file.get());
  Document d;
  const bool ok = yaml_parser_load(&parser, &d.doc);
  d.loaded = ok;
  std::string problem = ok ? "" : (parser.problem ? parser.problem : "malformed YAML");
  const size_t line = parser.problem_mark.line + 1;
  yaml_parser_delete(&parser);
  if (!ok) throw bad(problem + " (line " + std::to_string(line) + ")");
  yaml_node_t* root = yaml_document_get_root_node(&d.doc);
  if (!root || root->type != YAML_MAPPING_NODE) throw bad("expected a mapping with a use_case list");
  yaml_node_t* list = nullptr;
  for (yaml_node_pair_t* p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; ++p)
    if (scalar(yaml_document_get_node(&d.doc, p->key)) == "use_case")
      list = yaml_document_get_node(&d.doc, p->value);
  if (!list || list->type != YAML_SEQUENCE_NODE) throw bad("'use_case' must be a list");
  std::vector<AdapterUseCase> out;
  std::set<std::string> names;
  const std::string base = directoryOf(path);
  for (yaml_node_item_t* it = list->data.sequence.items.start; it < list->data.sequence.items.top; ++it) {
    yaml_node_t* entry = yaml_document_get_node(&d.doc, *it);
    const std::string where = "use case " + std::to_string(out.size());
    if (!entry || entry->type != YAML_MAPPING_NODE) throw bad(where + " is not a mapping");
    AdapterUseCase u;
    for (yaml_node_pair_t* p = entry->data.mapping.pairs.start; p < entry->data.mapping.pairs.top; ++p) {
      const std::string key = scalar(yaml_document_get_node(&d.doc, p->key));
      yaml_node_t* valueNode = yaml_document_get_node(&d.doc, p->value);
      if (!valueNode || valueNode->type != YAML_SCALAR_NODE) throw bad(where + ": '" + key + "' must be a string");
      const std::string value = scalar(valueNode);
      if (key == "name") u.name = value;
      else if (key == "graph") u.graph = value;
      else if (key == "weights") u.weights = value;
      else if (key == "encodings") u.encodings = value;
      else throw bad(where + ": unknown key '" + key + "' (name, graph, weights, encodings)");
    }
    if (u.name.empty()) throw bad(where + " has no name");
    if (u.name.find('/') != std::string::npos) throw bad("use case '" + u.name + "': a name, not a path");
    if (!names.insert(u.name).second) throw bad("use case '" + u.name + "' is listed twice");
    if (u.weights.empty()) throw bad("use case '" + u.name + "' has no weights file");
    for (std::string* f : {&u.weights, &u.encodings})
      if (!f->empty() && (*f)[0] != '/') *f = base + *f;
    out.push_back(std::move(u));
  }
  if (out.empty()) throw bad("the use_case list is empty");
  return out;
}

}  // namespace qnn::tools
