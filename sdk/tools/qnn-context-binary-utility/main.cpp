// qnn-context-binary-utility: reads a context binary through libQnnSystem.so and
// writes what it holds as JSON (binary_info_json.h describes the document).
// Every failure is one "qnn-context-binary-utility: error: ..." line and exit 1;
// the JSON file is written only after the binary was read successfully.
#include <cstdio>

#include "tools/common/arg_parser.h"
#include "tools/common/output_path.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-context-binary-utility/binary_info_json.h"
#include "tools/qnn-context-binary-utility/system_context_reader.h"

namespace {

constexpr const char* kTool = "qnn-context-binary-utility";

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool, "Writes the graphs, tensors and versions recorded in a context binary as JSON.",
          withVersionAndHelp(
              {{"context_binary", true, "FILE", "context binary to read (required)"},
               {"json_file", true, "FILE", "JSON file to write; its directory must exist (required)"},
               {"system_library", true, "FILE", "libQnnSystem.so to use (default: the one next to this tool)"}})};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  args.require("context_binary");
  args.require("json_file");
  const std::string binaryPath = args.value("context_binary");
  const std::string jsonPath = args.value("json_file");

  requireParentDirectory(jsonPath);
  std::vector<uint8_t> binary = readBinaryFile(binaryPath);
  SystemContextReader system(args.value("system_library"));
  // Names come from the binary: replace invalid UTF-8 instead of failing on it.
  const std::string text =
      binaryInfoToJson(system.binaryInfo(binary, binaryPath)).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  writeBinaryFile(jsonPath, text.data(), text.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
