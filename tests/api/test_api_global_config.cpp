// QnnGlobalConfig_Set: the SoC model for devices and contexts created after
// it, on the HTP simulator (reported by QnnDevice_getPlatformInfo and
// QnnDevice_getInfo); refusals leave the previous setting in place. The
// setting is process-wide, so every test puts it back.
#include <gtest/gtest.h>

#include "HTP/QnnHtpDevice.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

QnnGlobalConfig_t socConfig(Qnn_SocModel_t model) {
  QnnGlobalConfig_t c = QNN_GLOBAL_CONFIG_INIT;
  c.option = QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL;
  c.socModel = model;
  return c;
}

// The HTP device extension of a platform info: (socModel, arch).
std::pair<uint32_t, uint32_t> htpSocAndArch(const QnnDevice_PlatformInfo_t* info) {
  const auto* ext = reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(
      info->v1.hwDevices[0].v1.deviceInfoExtension);
  return {ext->onChipDevice.socModel, static_cast<uint32_t>(ext->onChipDevice.arch)};
}

class GlobalConfig : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(htp.ok()) << htp.error(); }
  void TearDown() override { reset(); }
  void reset() {
    QnnGlobalConfig_t unknown = socConfig(QNN_SOC_MODEL_UNKNOWN);
    const QnnGlobalConfig_t* list[] = {&unknown, nullptr};
    EXPECT_EQ(api().globalConfigSet(list), QNN_SUCCESS);
  }
  std::pair<uint32_t, uint32_t> platform() {
    const QnnDevice_PlatformInfo_t* info = nullptr;
    EXPECT_EQ(api().deviceGetPlatformInfo(nullptr, &info), QNN_SUCCESS);
    auto answer = htpSocAndArch(info);
    EXPECT_EQ(api().deviceFreePlatformInfo(nullptr, info), QNN_SUCCESS);
    return answer;
  }
  const QNN_INTERFACE_VER_TYPE& api() { return htp.api(); }
  LoadedBackend htp{htpBackendPath()};
};

TEST_F(GlobalConfig, SocModelReachesLaterDevicesAndTheLastOneWins) {
  const std::pair<uint32_t, uint32_t> byDefault = platform();
  QnnGlobalConfig_t first = socConfig(QNN_SOC_MODEL_SM8550), second = socConfig(QNN_SOC_MODEL_SM8650);
  const QnnGlobalConfig_t* list[] = {&first, &second, nullptr};
  ASSERT_EQ(api().globalConfigSet(list), QNN_SUCCESS);
  EXPECT_EQ(platform(), std::make_pair(uint32_t(QNN_SOC_MODEL_SM8650), 75u));

  Qnn_DeviceHandle_t device = nullptr;
  ASSERT_EQ(api().deviceCreate(nullptr, nullptr, &device), QNN_SUCCESS);
  const QnnDevice_PlatformInfo_t* info = nullptr;
  ASSERT_EQ(api().deviceGetInfo(device, &info), QNN_SUCCESS);
  EXPECT_EQ(htpSocAndArch(info), std::make_pair(uint32_t(QNN_SOC_MODEL_SM8650), 75u));

  // A device config still decides for its own device.
  QnnHtpDevice_CustomConfig_t custom{};
  custom.option = QNN_HTP_DEVICE_CONFIG_OPTION_SOC;
  custom.socModel = QNN_SOC_MODEL_SM8450;
  QnnDevice_Config_t config = QNN_DEVICE_CONFIG_INIT;
  config.option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
  config.customConfig = &custom;
  const QnnDevice_Config_t* configs[] = {&config, nullptr};
  Qnn_DeviceHandle_t configured = nullptr;
  ASSERT_EQ(api().deviceCreate(nullptr, configs, &configured), QNN_SUCCESS);
  ASSERT_EQ(api().deviceGetInfo(configured, &info), QNN_SUCCESS);
  EXPECT_EQ(htpSocAndArch(info), std::make_pair(uint32_t(QNN_SOC_MODEL_SM8450), 69u));
  EXPECT_EQ(api().deviceFree(configured), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(device), QNN_SUCCESS);

  reset();
  EXPECT_EQ(platform(), byDefault);
}

TEST_F(GlobalConfig, RefusalsKeepThePreviousSetting) {
  QnnGlobalConfig_t sm8550 = socConfig(QNN_SOC_MODEL_SM8550);
  const QnnGlobalConfig_t* set[] = {&sm8550, nullptr};
  ASSERT_EQ(api().globalConfigSet(set), QNN_SUCCESS);

  QnnGlobalConfig_t notInTable = socConfig(static_cast<Qnn_SocModel_t>(9999));
  QnnGlobalConfig_t noHtp = socConfig(static_cast<Qnn_SocModel_t>(59));  // QCM4490: no Hexagon with an HTP
  QnnGlobalConfig_t undefined = QNN_GLOBAL_CONFIG_INIT;
  QnnGlobalConfig_t sm8650 = socConfig(QNN_SOC_MODEL_SM8650);
  for (QnnGlobalConfig_t* bad : {&notInTable, &noHtp, &undefined}) {
    const QnnGlobalConfig_t* list[] = {&sm8650, bad, nullptr};  // the good one before must not apply either
    EXPECT_EQ(api().globalConfigSet(list), QNN_GLOBAL_CONFIG_ERROR_INVALID_CONFIG);
    EXPECT_EQ(platform(), std::make_pair(uint32_t(QNN_SOC_MODEL_SM8550), 73u));
  }
  EXPECT_EQ(api().globalConfigSet(nullptr), QNN_SUCCESS);  // no options: nothing changes
  const QnnGlobalConfig_t* empty[] = {nullptr};
  EXPECT_EQ(api().globalConfigSet(empty), QNN_SUCCESS);
  EXPECT_EQ(platform(), std::make_pair(uint32_t(QNN_SOC_MODEL_SM8550), 73u));
}

TEST(GlobalConfigCpu, AnySocModelIsAcceptedAndAnUnknownOptionRefused) {
  LoadedBackend cpu(cpuBackendPath());
  ASSERT_TRUE(cpu.ok()) << cpu.error();
  QnnGlobalConfig_t sm8650 = socConfig(QNN_SOC_MODEL_SM8650), undefined = QNN_GLOBAL_CONFIG_INIT;
  const QnnGlobalConfig_t* good[] = {&sm8650, nullptr};
  EXPECT_EQ(cpu.api().globalConfigSet(good), QNN_SUCCESS);
  const QnnGlobalConfig_t* bad[] = {&undefined, nullptr};
  EXPECT_EQ(cpu.api().globalConfigSet(bad), QNN_GLOBAL_CONFIG_ERROR_INVALID_CONFIG);
  QnnGlobalConfig_t unknown = socConfig(QNN_SOC_MODEL_UNKNOWN);
  const QnnGlobalConfig_t* back[] = {&unknown, nullptr};
  EXPECT_EQ(cpu.api().globalConfigSet(back), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
