// QnnSystemProfile_* of libQnnSystem.so through dlopen and the public headers: messages a
// client serializes (an execute with per-node sub-events, extended event data, a finalize)
// land in a profiling log that qnn-profile-viewer reads; the file is complete after every
// call; the message cap, bad messages and handle misuse are refused with the file as it was.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/tools/system/context_binary_fixture.h"
#include "tests/tools/system/system_loader.h"
#include "tests/tools/system/tool_runner.h"

namespace qnn::test {
namespace {

class SystemProfile : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(sys.ok()) << sys.error(); }
  const QNN_SYSTEM_INTERFACE_VER_TYPE& api() { return sys.api(); }
  QnnSystemProfile_SerializationTarget_t target(const char* name) {
    QnnSystemProfile_SerializationTarget_t t{};
    t.type = QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_FILE;
    t.file.fileName = name;
    t.file.fileDirectory = dirPath.c_str();
    return t;
  }
  nlohmann::json readLog(const std::string& name) {
    std::ifstream in(dir.file(name));
    std::stringstream s;
    s << in.rdbuf();
    return nlohmann::json::parse(s.str());
  }
  LoadedSystemLibrary sys{systemLibraryPath()};
  TempDir dir;
  std::string dirPath = dir.path();
};

QnnSystemProfile_ProfileEventV1_t event(uint32_t type, uint64_t value, const char* id) {
  QnnSystemProfile_ProfileEventV1_t e = QNN_SYSTEM_PROFILE_EVENT_V1_INIT;
  e.type = QNN_SYSTEM_PROFILE_EVENT_DATA;
  e.eventData = {type, QNN_PROFILE_EVENTUNIT_MICROSEC, value, id};
  return e;
}

TEST_F(SystemProfile, SerializedMessagesAreALogTheViewerReads) {
  QnnSystemProfile_SerializationTargetConfig_t configs[2]{};
  configs[0].type = QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_CONFIG_SERIALIZATION_HEADER;
  configs[0].serializationHeader = {"myapp", "1.2", "OpenQNN CPU backend"};
  configs[1].type = QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_CONFIG_MAX_NUM_MESSAGES;
  configs[1].maxNumMessages = 3;
  QnnSystemProfile_SerializationTargetHandle_t h = nullptr;
  ASSERT_EQ(api().systemProfileCreateSerializationTarget(target("run.log"), configs, 2, &h), QNN_SUCCESS);
  EXPECT_EQ(readLog("run.log")["events"].size(), 0u);  // created empty, already readable

  // An execute: graph-execute event with two node sub-events (one as extended data).
  QnnSystemProfile_ProfileEventV1_t nodes[2] = {event(QNN_PROFILE_EVENTTYPE_NODE, 40, "conv (Conv2d)"), {}};
  nodes[1] = QNN_SYSTEM_PROFILE_EVENT_V1_INIT;
  nodes[1].type = QNN_SYSTEM_PROFILE_EXTENDED_EVENT_DATA;
  nodes[1].extendedEventData.version = QNN_PROFILE_DATA_VERSION_1;
  nodes[1].extendedEventData.v1.type = QNN_PROFILE_EVENTTYPE_NODE;
  nodes[1].extendedEventData.v1.unit = QNN_PROFILE_EVENTUNIT_MICROSEC;
  nodes[1].extendedEventData.v1.value.dataType = QNN_DATATYPE_UINT_64;
  nodes[1].extendedEventData.v1.value.uint64Value = 25;
  nodes[1].extendedEventData.v1.identifier = "relu (Relu)";
  QnnSystemProfile_ProfileEventV1_t exec = event(QNN_PROFILE_EVENTTYPE_EXECUTE, 70, "graph execute: model");
  exec.profileSubEventData = nodes;
  exec.numSubEvents = 2;
  QnnSystemProfile_ProfileData_t execute = QNN_SYSTEM_PROFILE_DATA_INIT;
  execute.version = QNN_SYSTEM_PROFILE_DATA_VERSION_1;
  execute.v1.header = QNN_SYSTEM_PROFILE_HEADER_V1_INIT;
  execute.v1.header.startTime = 1000500;
  execute.v1.header.stopTime = 1000570;
  execute.v1.header.methodType = QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_EXECUTE;
  execute.v1.header.graphName = "model";
  execute.v1.profilingEvents = &exec;
  execute.v1.numProfilingEvents = 1;
  QnnSystemProfile_ProfileEventV1_t fin = event(QNN_PROFILE_EVENTTYPE_FINALIZE, 900, "graph finalize: model");
  QnnSystemProfile_ProfileData_t finalize = execute;
  finalize.v1.header.startTime = 1000000;
  finalize.v1.header.methodType = QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_FINALIZE;
  finalize.v1.profilingEvents = &fin;
  const QnnSystemProfile_ProfileData_t* first[] = {&finalize, &execute};
  ASSERT_EQ(api().systemProfileSerializeEventData(h, first, 2), QNN_SUCCESS);

  nlohmann::json log = readLog("run.log");
  EXPECT_EQ(log["format"], "openqnn-profile");
  EXPECT_EQ(log["tool"], "myapp 1.2");
  EXPECT_EQ(log["backendBuildId"], "OpenQNN CPU backend");
  ASSERT_EQ(log["events"].size(), 2u);
  EXPECT_EQ(log["events"][0]["phase"], "finalize");
  EXPECT_EQ(log["events"][0]["value"], 900);
  EXPECT_EQ(log["events"][0]["startUs"], 0);
  const auto& e = log["events"][1];
  EXPECT_EQ(e["phase"], "execute");
  EXPECT_EQ(e["graph"], "model");
  EXPECT_EQ(e["startUs"], 500);
  ASSERT_EQ(e["subEvents"].size(), 2u);
  EXPECT_EQ(e["subEvents"][0]["identifier"], "conv (Conv2d)");
  EXPECT_EQ(e["subEvents"][1]["identifier"], "relu (Relu)");
  EXPECT_EQ(e["subEvents"][1]["value"], 25);

  // Past the cap of 3 messages: refused, the file as it was.
  const QnnSystemProfile_ProfileData_t* two[] = {&execute, &execute};
  EXPECT_EQ(api().systemProfileSerializeEventData(h, two, 2), QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(readLog("run.log")["events"].size(), 2u);
  ASSERT_EQ(api().systemProfileSerializeEventData(h, two, 1), QNN_SUCCESS);
  EXPECT_EQ(api().systemProfileFreeSerializationTarget(h), QNN_SUCCESS);
  EXPECT_EQ(readLog("run.log")["events"].size(), 3u);

  // qnn-profile-viewer reads it.
  const ToolResult r = runTool(QNN_TEST_VIEWER_PATH, {"--input_log", dir.file("run.log")}, dir.path());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("conv"), std::string::npos) << r.out;
}

TEST_F(SystemProfile, BadTargetsMessagesAndHandlesAreRefused) {
  QnnSystemProfile_SerializationTargetHandle_t h = nullptr;
  QnnSystemProfile_SerializationTarget_t bad = target("x.log");
  bad.type = QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_UNDEFINED;
  EXPECT_EQ(api().systemProfileCreateSerializationTarget(bad, nullptr, 0, &h), QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemProfileCreateSerializationTarget(target(nullptr), nullptr, 0, &h),
            QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  QnnSystemProfile_SerializationTarget_t nowhere = target("x.log");
  nowhere.file.fileDirectory = "/nonexistent/dir";
  EXPECT_NE(api().systemProfileCreateSerializationTarget(nowhere, nullptr, 0, &h), QNN_SUCCESS);
  QnnSystemProfile_SerializationTargetConfig_t unknown{};
  unknown.type = QnnSystemProfile_SerializationTargetConfigType_t(42);
  EXPECT_EQ(api().systemProfileCreateSerializationTarget(target("x.log"), &unknown, 1, &h),
            QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemProfileCreateSerializationTarget(target("x.log"), nullptr, 0, nullptr),
            QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(h, nullptr);

  ASSERT_EQ(api().systemProfileCreateSerializationTarget(target("ok.log"), nullptr, 0, &h), QNN_SUCCESS);
  QnnSystemProfile_ProfileEventV1_t broken = event(QNN_PROFILE_EVENTTYPE_EXECUTE, 1, "x");
  broken.numSubEvents = 3;  // no array
  QnnSystemProfile_ProfileData_t d = QNN_SYSTEM_PROFILE_DATA_INIT;
  d.version = QNN_SYSTEM_PROFILE_DATA_VERSION_1;
  d.v1.profilingEvents = &broken;
  d.v1.numProfilingEvents = 1;
  const QnnSystemProfile_ProfileData_t* list[] = {&d};
  EXPECT_EQ(api().systemProfileSerializeEventData(h, list, 1), QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  d.version = QNN_SYSTEM_PROFILE_DATA_VERSION_UNDEFINED;
  EXPECT_EQ(api().systemProfileSerializeEventData(h, list, 1), QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  const QnnSystemProfile_ProfileData_t* nullMessage[] = {nullptr};
  EXPECT_EQ(api().systemProfileSerializeEventData(h, nullMessage, 1), QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemProfileSerializeEventData(h, nullptr, 1), QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(readLog("ok.log")["events"].size(), 0u);
  EXPECT_EQ(api().systemProfileFreeSerializationTarget(h), QNN_SUCCESS);
  for (auto hnd : {h, QnnSystemProfile_SerializationTargetHandle_t(nullptr), QnnSystemProfile_SerializationTargetHandle_t(0xbad)}) {
    EXPECT_EQ(api().systemProfileSerializeEventData(hnd, list, 1), QNN_SYSTEM_PROFILE_ERROR_INVALID_HANDLE);
    EXPECT_EQ(api().systemProfileFreeSerializationTarget(hnd), QNN_SYSTEM_PROFILE_ERROR_INVALID_HANDLE);
  }
}

}  // namespace
}  // namespace qnn::test
