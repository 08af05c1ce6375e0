// qnn-net-run: executes a model library or a context binary on a QNN backend.

#include "tools/common/tool_main.h"
#include "tools/qnn-net-run/net_run.h"
#include "tools/qnn-net-run/net_run_options.h"

int main(int argc, char** argv) {
  return qnn::tools::runToolMain("qnn-net-run", [&]() {
    auto parser = qnn::tools::netrun::makeNetRunParser();
    parser.parse(argc, argv);
    if (parser.answeredHelpOrVersion(qnn::tools::ArgParser::VersionText::Sdk)) return 0;
    return qnn::tools::netrun::runNetRun(qnn::tools::netrun::netRunOptionsFromArgs(parser));
  });
}
