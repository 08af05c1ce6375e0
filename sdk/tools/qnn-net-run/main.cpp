// qnn-net-run: executes a model library or a context binary on a QNN backend.
#include <cstdio>

#include "net_run.h"
#include "net_run_options.h"
#include "tool_main.h"
#include "QnnSdkBuildId.h"

int main(int argc, char** argv) {
  return qnn::tools::runToolMain("qnn-net-run", [&]() {
    auto parser = qnn::tools::netrun::makeNetRunParser();
    parser.parse(argc, argv);
    if (parser.has("help")) {
      std::printf("%s", parser.usage().c_str());
      return 0;
    }
    if (parser.has("version")) {
      std::printf("QNN SDK %s (OpenQNN)\n", QNN_SDK_BUILD_ID);
      return 0;
    }
    return qnn::tools::netrun::runNetRun(qnn::tools::netrun::netRunOptionsFromArgs(parser));
  });
}
