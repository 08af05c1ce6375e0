// Offline preparation with the vendor's workflow: qnn-context-binary-generator
// --backend libQnnHtp.so prepares the quantized test model, qnn-net-run
// --retrieve_context runs the stored prepared graph on the simulator.
#include <gtest/gtest.h>

#include "tests/tools/net_run/tool_runner.h"

namespace {

using namespace nettest;

TEST(HtpTools, OfflinePrepareThenRetrieveContext) {
  const std::string dir = makeTempDir();
  RunResult g = runTool(std::string(CONTEXT_BINARY_GENERATOR) + " --backend " + HTP_BACKEND + " --model " +
                        MODEL_QUANT + " --binary_file htp_quant --output_dir " + dir + "/bin");
  ASSERT_EQ(g.exitCode, 0) << g.err;
  ASSERT_TRUE(exists(dir + "/bin/htp_quant.bin"));
  // The binary holds the HTP prepared graph (magic "HTPP" inside the compressed payload
  // is not visible; the run below shows it is loaded without preparing).
  writeFloats(dir + "/q.raw", {-1.0f, 0.0f, 0.26f, 2.0f});
  writeText(dir + "/qlist.txt", dir + "/q.raw\n");
  RunResult r = runTool(std::string(NET_RUN) + " --backend " + HTP_BACKEND + " --retrieve_context " + dir +
                        "/bin/htp_quant.bin --input_list " + dir + "/qlist.txt --use_native_output_files" +
                        " --profiling_level basic --output_dir " + dir + "/out");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // q = round(x / 0.05) + 100 -> 80, 100, 105, 140; relu in the same encoding keeps q >= 100.
  EXPECT_EQ(readBytes(dir + "/out/Result_0/q_out.raw"), (std::vector<uint8_t>{100, 100, 105, 140}));
  // The load event of the profile says the passes were not run again.
  std::string profile = readText(dir + "/out/qnn-profiling-data_0.log");
  EXPECT_NE(profile.find("passes not re-run"), std::string::npos);
  // A binary made by the CPU backend is refused by the HTP (backend id mismatch).
  RunResult c = runTool(std::string(CONTEXT_BINARY_GENERATOR) + " --backend " + CPU_BACKEND + " --model " +
                        MODEL_QUANT + " --binary_file cpu_quant --output_dir " + dir + "/bin");
  ASSERT_EQ(c.exitCode, 0) << c.err;
  RunResult bad = runTool(std::string(NET_RUN) + " --backend " + HTP_BACKEND + " --retrieve_context " + dir +
                          "/bin/cpu_quant.bin --input_list " + dir + "/qlist.txt --output_dir " + dir + "/out2");
  EXPECT_NE(bad.exitCode, 0);
}

}  // namespace
