// Device and platform info as real clients read them (docs/compatibility.md,
// "Configs, properties and queries"). Clients written for the HTP read
// deviceInfoExtension without checking it, so a backend must either describe
// its device with the extension (the HTP) or refuse the query (the CPU, as the
// vendor's CPU backend does: clients fall back, e.g. "emulator or cpu backend?").
#include <gtest/gtest.h>

#include "HTP/QnnHtpDevice.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

TEST(DeviceInfo, CpuRefusesPlatformQueriesButMakesDevices) {
  LoadedBackend cpu(cpuBackendPath());
  ASSERT_TRUE(cpu.ok()) << cpu.error();
  const QNN_INTERFACE_VER_TYPE& api = cpu.api();
  const QnnDevice_PlatformInfo_t* info = reinterpret_cast<const QnnDevice_PlatformInfo_t*>(0x1);
  EXPECT_EQ(api.deviceGetPlatformInfo(nullptr, &info), QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(info, reinterpret_cast<const QnnDevice_PlatformInfo_t*>(0x1));  // untouched on error
  EXPECT_EQ(api.deviceGetPlatformInfo(nullptr, nullptr), QNN_DEVICE_ERROR_INVALID_ARGUMENT);

  // Devices still exist (QNN_PROPERTY_GROUP_DEVICE), carry contexts, and answer getInfo likewise.
  EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GROUP_DEVICE), QNN_PROPERTY_SUPPORTED);
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  Qnn_DeviceHandle_t device = nullptr;
  ASSERT_EQ(api.deviceCreate(nullptr, nullptr, &device), QNN_SUCCESS);
  EXPECT_EQ(api.deviceGetInfo(device, &info), QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE);
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api.contextCreate(backend, device, nullptr, &ctx), QNN_SUCCESS);
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api.deviceFree(device), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
}

// The HTP's answer carries the on-chip extension, consistent with the SoC the
// device was configured with: its Hexagon version and that version's VTCM.
TEST(DeviceInfo, HtpDescribesTheConfiguredSoc) {
  LoadedBackend htp(htpBackendPath());
  ASSERT_TRUE(htp.ok()) << htp.error();
  const QNN_INTERFACE_VER_TYPE& api = htp.api();
  struct Soc {
    uint32_t model, arch, vtcmMB;
  };
  // SM8350, SM8450, SM8550, SM8650, SC8380XP (the default, ONNX Runtime's examples), SM8750,
  // SM8850 (the SoC ONNX Runtime's QNN EP tests name), and SSG2115P / SA8295 whose VTCM is not their arch's.
  for (Soc soc : {Soc{30, 68, 4}, Soc{36, 69, 8}, Soc{43, 73, 8}, Soc{57, 75, 8}, Soc{60, 73, 8}, Soc{69, 79, 8},
                  Soc{87, 81, 8}, Soc{46, 73, 2}, Soc{39, 68, 8}}) {
    QnnHtpDevice_CustomConfig_t custom{};
    custom.option = QNN_HTP_DEVICE_CONFIG_OPTION_SOC;
    custom.socModel = soc.model;
    QnnDevice_Config_t config = QNN_DEVICE_CONFIG_INIT;
    config.option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
    config.customConfig = &custom;
    const QnnDevice_Config_t* configs[] = {&config, nullptr};
    Qnn_DeviceHandle_t device = nullptr;
    ASSERT_EQ(api.deviceCreate(nullptr, configs, &device), QNN_SUCCESS) << soc.model;
    const QnnDevice_PlatformInfo_t* info = nullptr;
    ASSERT_EQ(api.deviceGetInfo(device, &info), QNN_SUCCESS);
    ASSERT_EQ(info->version, QNN_DEVICE_PLATFORM_INFO_VERSION_1);
    ASSERT_EQ(info->v1.numHwDevices, 1u);
    const QnnDevice_HardwareDeviceInfoV1_t& hw = info->v1.hwDevices[0].v1;
    EXPECT_EQ(hw.numCores, 1u);
    ASSERT_NE(hw.cores, nullptr);
    ASSERT_NE(hw.deviceInfoExtension, nullptr);
    const auto* ext = reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(hw.deviceInfoExtension);
    EXPECT_EQ(ext->devType, QNN_HTP_DEVICE_TYPE_ON_CHIP);
    EXPECT_EQ(ext->onChipDevice.socModel, soc.model);
    EXPECT_EQ(uint32_t(ext->onChipDevice.arch), soc.arch) << soc.model;
    EXPECT_EQ(ext->onChipDevice.vtcmSize, soc.vtcmMB) << soc.model;
    EXPECT_EQ(api.deviceFree(device), QNN_SUCCESS);
  }
  const QnnDevice_PlatformInfo_t* info = nullptr;
  ASSERT_EQ(api.deviceGetPlatformInfo(nullptr, &info), QNN_SUCCESS);
  ASSERT_NE(info->v1.hwDevices[0].v1.deviceInfoExtension, nullptr);
  EXPECT_EQ(api.deviceFreePlatformInfo(nullptr, info), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
