// The OpDefCollection reader: every malformed config in bad_xml/ fails with the
// exact "file:line: message" listed in bad_xml/expected.txt, and the example
// packages' configs read into the values their XML spells out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "oppackage/op_package_values.h"
#include "oppackage/op_package_vocabulary.h"
#include "oppackage/op_package_xml.h"

namespace opk = qnn::oppackage;

namespace {

const std::string kBadDir = QNN_TEST_BAD_XML_DIR;
const std::string kExamplesDir = QNN_TEST_OPPACKAGES_DIR;

struct Expectation {
  std::string file;
  std::string diagnostic;
};

std::vector<Expectation> expectations() {
  std::ifstream in(kBadDir + "/expected.txt");
  std::vector<Expectation> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    out.push_back({line.substr(0, line.find(':')), line});
  }
  return out;
}

std::vector<std::string> diagnosticsOf(const std::string& path) {
  try {
    opk::parseOpPackageConfigFile(path);
  } catch (const opk::OpPackageConfigError& e) {
    std::vector<std::string> out;
    for (const auto& d : e.diagnostics()) out.push_back(d.format());
    return out;
  }
  return {};
}

TEST(OpPackageXml, EveryMalformedConfigFailsWithItsExpectedFileLineMessage) {
  const auto cases = expectations();
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const auto got = diagnosticsOf(kBadDir + "/" + c.file);
    std::string all;
    for (const auto& g : got) all += g + "\n";
    ASSERT_EQ(got.size(), 1u) << (got.empty() ? "parsed without error" : all);
    EXPECT_EQ(got[0], kBadDir + "/" + c.diagnostic);
  }
}

TEST(OpPackageXml, EveryBadFileHasAnExpectation) {
  std::set<std::string> expected;
  for (const auto& c : expectations()) expected.insert(c.file);
  size_t xmlFiles = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kBadDir)) {
    if (entry.path().extension() != ".xml") continue;
    ++xmlFiles;
    EXPECT_EQ(expected.count(entry.path().filename().string()), 1u) << entry.path();
  }
  EXPECT_EQ(xmlFiles, expected.size());
}

TEST(OpPackageXml, ReportsEveryProblemOfAFileNotOnlyTheFirst) {
  const std::string xml = R"(<OpDefCollection PackageName="P">
  <OpDefList>
    <OpDef>
      <Name>A</Name>
      <Input><Name>x</Name><Mandatory>maybe</Mandatory><Datatype>FLOAT_32</Datatype><Shape><Rank>ND</Rank></Shape></Input>
      <Output><Name>y</Name><Mandatory>true</Mandatory><Datatype>FLOAT_99</Datatype><Shape><Rank>ND</Rank></Shape></Output>
      <SupportedBackend>CPU</SupportedBackend>
    </OpDef>
  </OpDefList>
</OpDefCollection>)";
  try {
    opk::parseOpPackageConfigText(xml, "inline.xml");
    FAIL() << "parsed";
  } catch (const opk::OpPackageConfigError& e) {
    ASSERT_EQ(e.diagnostics().size(), 2u) << e.what();
    EXPECT_EQ(e.diagnostics()[0].line, 5);
    EXPECT_EQ(e.diagnostics()[1].line, 6);
    EXPECT_NE(std::string(e.what()).find("inline.xml:6: <Datatype> 'FLOAT_99'"), std::string::npos) << e.what();
  }
}

TEST(OpPackageXml, UnreadableFileIsOneDiagnosticAtLineZero) {
  const auto got = diagnosticsOf(kBadDir + "/no_such_file.xml");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], kBadDir + "/no_such_file.xml:0: cannot open the file");
}

TEST(OpPackageXml, ReadsTheNormExampleCompletely) {
  const opk::OpPackageConfig c = opk::parseOpPackageConfigFile(kExamplesDir + "/ExampleNorm/config/ExampleNorm.xml");
  EXPECT_EQ(c.packageName, "ExampleNorm");
  EXPECT_EQ(c.domain, "openqnn.examples");
  EXPECT_EQ(c.version, "1.2.0");
  ASSERT_EQ(c.ops.size(), 1u);
  const opk::OpDef& op = c.ops[0];
  EXPECT_EQ(op.name, "RmsNorm");
  ASSERT_EQ(op.references.size(), 1u);
  EXPECT_EQ(op.references[0].source, "arXiv");
  EXPECT_NE(op.description.find("Root-mean-square"), std::string::npos);
  ASSERT_EQ(op.inputs.size(), 2u);
  EXPECT_EQ(op.inputs[1].name, "gamma");
  EXPECT_EQ(op.inputs[1].rank, 1);
  EXPECT_EQ(op.inputs[0].layout, "UNDEFINED");
  EXPECT_EQ(op.inputs[0].datatypes, std::vector<std::string>{"BACKEND_SPECIFIC"});
  ASSERT_EQ(op.params.size(), 3u);
  EXPECT_EQ(op.params[0].name, "epsilon");
  EXPECT_FALSE(op.params[0].mandatory);
  EXPECT_EQ(op.params[0].rank, 0);
  EXPECT_EQ(*op.params[0].defaultValue, "1e-6");
  EXPECT_EQ(op.params[1].rank, 1);
  EXPECT_EQ(op.params[1].datatypes, std::vector<std::string>{"QNN_DATATYPE_UINT_32"});
  EXPECT_EQ(op.params[2].enumeration, (std::vector<std::string>{"standard", "no_scale"}));
  EXPECT_EQ(op.supportedBackends, (std::vector<std::string>{"CPU", "HTP"}));
  ASSERT_EQ(c.supplements.size(), 2u);
  EXPECT_EQ(c.supplements[1].backend, "HTP");
  EXPECT_EQ(opk::packageBackends(c), (std::vector<std::string>{"CPU", "HTP"}));
}

TEST(OpPackageXml, SupplementsNarrowDatatypesPerBackend) {
  const opk::OpPackageConfig c = opk::parseOpPackageConfigFile(kExamplesDir + "/ExampleNorm/config/ExampleNorm.xml");
  const auto cpu = opk::opsForBackend(c, "CPU");
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0].inputs[0].datatypes, std::vector<std::string>{"QNN_DATATYPE_FLOAT_32"});
  EXPECT_FALSE(cpu[0].params[2].onlyDefaultSupported);
  const auto htp = opk::opsForBackend(c, "HTP");
  ASSERT_EQ(htp.size(), 1u);
  EXPECT_EQ(htp[0].inputs[0].datatypes,
            (std::vector<std::string>{"QNN_DATATYPE_UFIXED_POINT_8", "QNN_DATATYPE_UFIXED_POINT_16"}));
  EXPECT_TRUE(htp[0].params[2].onlyDefaultSupported);
  EXPECT_TRUE(opk::opsForBackend(c, "GPU").empty());
  // The original stays untouched.
  EXPECT_EQ(c.ops[0].inputs[0].datatypes, std::vector<std::string>{"BACKEND_SPECIFIC"});
}

TEST(OpPackageXml, ReadsTheElementwiseExample) {
  const opk::OpPackageConfig c =
      opk::parseOpPackageConfigFile(kExamplesDir + "/ExampleElementwise/config/ExampleElementwise.xml");
  ASSERT_EQ(c.ops.size(), 2u);
  EXPECT_EQ(c.ops[0].name, "ScaledSoftplus");
  EXPECT_EQ(c.ops[0].inputs[0].name, "in[0]");
  EXPECT_EQ(c.ops[1].name, "Relu6Custom");
  EXPECT_TRUE(c.ops[1].params.empty());
  EXPECT_EQ(opk::opsForBackend(c, "CPU").size(), 2u);
}

TEST(OpPackageValues, ScalarsTensorsAndEnumerations) {
  const opk::DatatypeInfo& f32 = *opk::findDatatype("FLOAT_32");
  const opk::DatatypeInfo& i8 = *opk::findDatatype("QNN_DATATYPE_INT_8");
  const opk::DatatypeInfo& u32 = *opk::findDatatype("uint_32");
  const opk::DatatypeInfo& b8 = *opk::findDatatype("BOOL_8");
  EXPECT_EQ(opk::findDatatype("FLOAT_31"), nullptr);
  EXPECT_EQ(*opk::parseScalarValue(" -1.5e2 ", f32), -150.0);
  EXPECT_EQ(*opk::parseScalarValue("-128", i8), -128.0);
  EXPECT_FALSE(opk::parseScalarValue("128", i8));
  EXPECT_FALSE(opk::parseScalarValue("-1", u32));
  EXPECT_FALSE(opk::parseScalarValue("1.5", u32));
  EXPECT_EQ(*opk::parseScalarValue("4294967295", u32), 4294967295.0);
  EXPECT_EQ(*opk::parseScalarValue("true", b8), 1.0);
  EXPECT_FALSE(opk::parseScalarValue("nan", f32));
  EXPECT_EQ(*opk::parseTensorValues("[[1, 2], [3, 4]]", f32), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(*opk::parseTensorValues("[]", f32), std::vector<double>{});
  EXPECT_FALSE(opk::parseTensorValues("[1, 2", f32));
  EXPECT_FALSE(opk::parseTensorValues("[1, x]", f32));
  opk::TensorDef mode;
  mode.enumeration = {"nearest", "linear"};
  EXPECT_EQ(*opk::enumerationIndex(mode, "linear"), 1u);
  EXPECT_EQ(*opk::enumerationIndex(mode, "0"), 0u);
  EXPECT_FALSE(opk::enumerationIndex(mode, "2"));
  EXPECT_FALSE(opk::enumerationIndex(mode, "cubic"));
  EXPECT_EQ(*opk::parseRank("4d"), 4);
  EXPECT_EQ(*opk::parseRank("ND"), opk::kAnyRank);
  EXPECT_FALSE(opk::parseRank("6D"));
  EXPECT_EQ(*opk::parseBackend("dsp_v68"), "DSP_V68");
  EXPECT_EQ(opk::backendFamily("DSP_V68"), "DSP");
  EXPECT_FALSE(opk::parseBackend("NPU"));
}

}  // namespace
