// qnn-net-run and qnn-context-binary-generator with --op_packages, end to end
// on libQnnCpu.so: a model library whose graph uses the test package's op.
// Expected values come from a plain loop here.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/tools/net_run/tool_runner.h"

using namespace nettest;

namespace {

const std::string kNetRun = NET_RUN;
const std::string kCbg = CONTEXT_BINARY_GENERATOR;
const std::string kCpu = CPU_BACKEND;
const std::string kModel = CUSTOM_OP_MODEL;
const std::string kPackage = std::string(TEST_CPU_PACKAGE) + ":OpenQnnTestCpuPackageInterfaceProvider";

// out = 2 * x / (1 + |x|) + x
std::vector<float> reference(const std::vector<float>& x) {
  std::vector<float> r;
  for (float v : x) r.push_back(static_cast<float>(2.0 * v / (1.0 + std::fabs(double(v))) + v));
  return r;
}

class OpPackageTools : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = makeTempDir();
    out = dir + "/out";
    x = {-2.5f, -0.5f, 0.f, 0.25f, 1.f, 4.f};
    writeFloats(dir + "/x.raw", x);
    writeText(dir + "/list.txt", dir + "/x.raw\n");
  }
  std::string netRun() const {
    return kNetRun + " --backend " + kCpu + " --output_dir " + out + " --input_list " + dir + "/list.txt ";
  }
  void checkResult() {
    std::vector<float> got = readFloats(out + "/Result_0/out.raw"), want = reference(x);
    ASSERT_EQ(got.size(), want.size());
    // float32 softsign, scale and add of values below 8: a few ulp.
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << i;
  }
  std::string dir, out;
  std::vector<float> x;
};

TEST_F(OpPackageTools, NetRunRegistersThePackage) {
  RunResult r = runTool(netRun() + "--model " + kModel + " --op_packages " + kPackage + ":CPU");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkResult();
}

TEST_F(OpPackageTools, NetRunWithoutThePackageFails) {
  RunResult r = runTool(netRun() + "--model " + kModel);
  EXPECT_NE(r.exitCode, 0);
  EXPECT_FALSE(exists(out + "/Result_0"));
}

TEST_F(OpPackageTools, NetRunReportsABadPackage) {
  RunResult r = runTool(netRun() + "--model " + kModel + " --op_packages " + dir + "/missing.so:Provider");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("missing.so"), std::string::npos) << r.err;
}

TEST_F(OpPackageTools, ContextBinaryRecordsThePackage) {
  RunResult g = runTool(kCbg + " --backend " + kCpu + " --model " + kModel + " --op_packages " + kPackage +
                        " --binary_file custom --output_dir " + dir + "/bin");
  ASSERT_EQ(g.exitCode, 0) << g.err;
  // Loading needs the package: refused with its name without it, runs with it.
  RunResult missing = runTool(netRun() + "--retrieve_context " + dir + "/bin/custom.bin --log_level error");
  EXPECT_NE(missing.exitCode, 0);
  EXPECT_NE(missing.err.find("needs op package 'openqnn.test.CpuPackage'"), std::string::npos) << missing.err;
  EXPECT_FALSE(exists(out + "/Result_0"));
  RunResult r = runTool(netRun() + "--retrieve_context " + dir + "/bin/custom.bin --op_packages " + kPackage);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkResult();
}

}  // namespace
