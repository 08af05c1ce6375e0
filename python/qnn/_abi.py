"""ctypes declarations of the QNN C API structs this package uses, laid out as include/QNN (API 2.32)
lays them out. tests/python/test_abi.py checks every field's offset and size against the ABI facts
(tests/abi/abi-2.32.json) and the function-table member lists against the headers, so they cannot
drift."""
import ctypes as C

API_MAJOR, API_MINOR = 2, 32
SYSTEM_API_MAJOR = 1

# QnnInterface_ImplementationV2_32_t, in header order (every member a function pointer).
INTERFACE_MEMBERS = (
    "propertyHasCapability", "backendCreate", "backendSetConfig", "backendGetApiVersion", "backendGetBuildId",
    "backendRegisterOpPackage", "backendGetSupportedOperations", "backendValidateOpConfig", "backendFree",
    "contextCreate", "contextSetConfig", "contextGetBinarySize", "contextGetBinary", "contextCreateFromBinary",
    "contextFree", "graphCreate", "graphCreateSubgraph", "graphSetConfig", "graphAddNode", "graphFinalize",
    "graphRetrieve", "graphExecute", "graphExecuteAsync", "tensorCreateContextTensor", "tensorCreateGraphTensor",
    "logCreate", "logSetLogLevel", "logFree", "profileCreate", "profileSetConfig", "profileGetEvents",
    "profileGetSubEvents", "profileGetEventData", "profileGetExtendedEventData", "profileFree", "memRegister",
    "memDeRegister", "deviceGetPlatformInfo", "deviceFreePlatformInfo", "deviceGetInfrastructure", "deviceCreate",
    "deviceSetConfig", "deviceGetInfo", "deviceFree", "signalCreate", "signalSetConfig", "signalTrigger",
    "signalFree", "errorGetMessage", "errorGetVerboseMessage", "errorFreeVerboseMessage",
    "graphPrepareExecutionEnvironment", "graphReleaseExecutionEnvironment", "graphGetProperty",
    "contextValidateBinary", "contextCreateFromBinaryWithSignal", "contextCreateFromBinaryListAsync",
    "tensorUpdateGraphTensors", "tensorUpdateContextTensors", "contextGetBinarySectionSize",
    "contextGetBinarySection", "contextApplyBinarySection", "backendGetProperty", "contextGetProperty",
    "contextGetIncrementalBinary", "contextReleaseIncrementalBinary", "contextFinalize", "globalConfigSet",
    "contextCreateFromBinaryWithCallback", "contextGetBinarySectionUpdate", "contextFreeBinarySectionUpdate")
# API 2.39's table: the 71 above and the four it appends (the opt-in 2.39 provider,
# QNN_OPENQNN_PROVIDER_API=2.39, hands it out; docs/compatibility.md).
INTERFACE_MEMBERS_2_39 = INTERFACE_MEMBERS + (
    "contextAddToDlc", "graphValidate", "graphFreeValidationResult", "backendRegisterOpPackageFromBinary")
# QnnSystemInterface_ImplementationV1_7_t.
SYSTEM_MEMBERS = (
    "systemContextCreate", "systemContextGetBinaryInfo", "systemContextGetMetaData", "systemContextFree",
    "systemTensorGetMemoryFootprint", "systemLogCreate", "systemLogSetLogLevel", "systemLogFree",
    "systemDlcCreateFromFile", "systemDlcCreateFromBinary", "systemDlcComposeGraphs", "systemDlcGetOpMappings",
    "systemDlcFree", "systemProfileCreateSerializationTarget", "systemProfileSerializeEventData",
    "systemProfileFreeSerializationTarget")


class Version(C.Structure):
    _fields_ = [("major", C.c_uint32), ("minor", C.c_uint32), ("patch", C.c_uint32)]


class ApiVersion(C.Structure):
    _fields_ = [("coreApiVersion", Version), ("backendApiVersion", Version)]


class InterfaceTable(C.Structure):
    _fields_ = [(name, C.c_void_p) for name in INTERFACE_MEMBERS]


class Interface(C.Structure):
    """QnnInterface_t."""
    _fields_ = [("backendId", C.c_uint32), ("providerName", C.c_char_p), ("apiVersion", ApiVersion),
                ("table", InterfaceTable)]


class InterfaceTable2_39(C.Structure):
    _fields_ = [(name, C.c_void_p) for name in INTERFACE_MEMBERS_2_39]


class Interface2_39(C.Structure):
    """QnnInterface_t of API 2.39 (640 bytes): the same header, the 75-member table."""
    _fields_ = [("backendId", C.c_uint32), ("providerName", C.c_char_p), ("apiVersion", ApiVersion),
                ("table", InterfaceTable2_39)]


class SystemTable(C.Structure):
    _fields_ = [(name, C.c_void_p) for name in SYSTEM_MEMBERS]


class SystemInterface(C.Structure):
    """QnnSystemInterface_t."""
    _fields_ = [("backendId", C.c_uint32), ("providerName", C.c_char_p), ("systemApiVersion", Version),
                ("table", SystemTable)]


class ScaleOffset(C.Structure):
    _fields_ = [("scale", C.c_float), ("offset", C.c_int32)]


class AxisScaleOffset(C.Structure):
    _fields_ = [("axis", C.c_int32), ("numScaleOffsets", C.c_uint32), ("scaleOffset", C.POINTER(ScaleOffset))]


class BwScaleOffset(C.Structure):
    _fields_ = [("bitwidth", C.c_uint32), ("scale", C.c_float), ("offset", C.c_int32)]


class BwAxisScaleOffset(C.Structure):
    _fields_ = [("bitwidth", C.c_uint32), ("axis", C.c_int32), ("numElements", C.c_uint32),
                ("scales", C.POINTER(C.c_float)), ("offsets", C.POINTER(C.c_int32))]


class _QuantUnion(C.Union):
    _fields_ = [("scaleOffsetEncoding", ScaleOffset), ("axisScaleOffsetEncoding", AxisScaleOffset),
                ("bwScaleOffsetEncoding", BwScaleOffset), ("bwAxisScaleOffsetEncoding", BwAxisScaleOffset)]


class QuantizeParams(C.Structure):
    _anonymous_ = ("u",)
    _fields_ = [("encodingDefinition", C.c_int32), ("quantizationEncoding", C.c_int32), ("u", _QuantUnion)]


class ClientBuffer(C.Structure):
    _fields_ = [("data", C.c_void_p), ("dataSize", C.c_uint32)]


class _MemUnion(C.Union):
    _fields_ = [("clientBuf", ClientBuffer), ("memHandle", C.c_void_p)]


class TensorV1(C.Structure):
    _anonymous_ = ("m",)
    _fields_ = [("id", C.c_uint32), ("name", C.c_char_p), ("type", C.c_int32), ("dataFormat", C.c_uint32),
                ("dataType", C.c_int32), ("quantizeParams", QuantizeParams), ("rank", C.c_uint32),
                ("dimensions", C.POINTER(C.c_uint32)), ("memType", C.c_int32), ("m", _MemUnion)]


class SparseParams(C.Structure):
    _fields_ = [("type", C.c_int32), ("numSpecifiedElements", C.c_uint32), ("numSparseDimensions", C.c_uint32)]


class TensorV2(C.Structure):
    _anonymous_ = ("m",)
    _fields_ = TensorV1._fields_ + [("isDynamicDimensions", C.POINTER(C.c_uint8)), ("sparseParams", SparseParams),
                                    ("isProduced", C.c_uint8)]


class _TensorUnion(C.Union):
    _fields_ = [("v1", TensorV1), ("v2", TensorV2)]


class Tensor(C.Structure):
    """Qnn_Tensor_t."""
    _anonymous_ = ("u",)
    _fields_ = [("version", C.c_int32), ("u", _TensorUnion)]


class GraphInfoV1(C.Structure):
    """The leading fields every QnnSystemContext_GraphInfo version shares."""
    _fields_ = [("graphName", C.c_char_p), ("numGraphInputs", C.c_uint32), ("graphInputs", C.POINTER(Tensor)),
                ("numGraphOutputs", C.c_uint32), ("graphOutputs", C.POINTER(Tensor))]


class GraphInfoV3(C.Structure):
    _fields_ = GraphInfoV1._fields_ + [("numUpdateableTensors", C.c_uint32), ("updateableTensors", C.POINTER(Tensor)),
                                       ("graphBlobInfoSize", C.c_uint32), ("graphBlobInfo", C.c_void_p),
                                       ("startOpIndex", C.c_uint32), ("endOpIndex", C.c_uint32)]


class _GraphInfoUnion(C.Union):
    _fields_ = [("graphInfoV1", GraphInfoV1), ("graphInfoV3", GraphInfoV3)]


class GraphInfo(C.Structure):
    """QnnSystemContext_GraphInfo_t."""
    _anonymous_ = ("u",)
    _fields_ = [("version", C.c_int32), ("u", _GraphInfoUnion)]


class BinaryInfoV1(C.Structure):
    """The leading fields every QnnSystemContext_BinaryInfo version shares (through the graphs)."""
    _fields_ = [("backendId", C.c_uint32), ("buildId", C.c_char_p), ("coreApiVersion", Version),
                ("backendApiVersion", Version), ("socVersion", C.c_char_p), ("hwInfoBlobVersion", Version),
                ("contextBlobVersion", Version), ("hwInfoBlobSize", C.c_uint32), ("hwInfoBlob", C.c_void_p),
                ("contextBlobSize", C.c_uint64), ("numContextTensors", C.c_uint32),
                ("contextTensors", C.POINTER(Tensor)), ("numGraphs", C.c_uint32), ("graphs", C.POINTER(GraphInfo))]


class BinaryInfoV3(C.Structure):
    """Version 3 (HTP binaries): no hardware-info blob, so the graphs sit elsewhere than in V1/V2."""
    _fields_ = [("backendId", C.c_uint32), ("buildId", C.c_char_p), ("coreApiVersion", Version),
                ("backendApiVersion", Version), ("socVersion", C.c_char_p), ("contextBlobVersion", Version),
                ("contextBlobSize", C.c_uint64), ("numContextTensors", C.c_uint32),
                ("contextTensors", C.POINTER(Tensor)), ("numGraphs", C.c_uint32), ("graphs", C.POINTER(GraphInfo)),
                ("platformInfo", C.c_void_p), ("contextMetadataSize", C.c_uint32), ("contextMetadata", C.c_void_p),
                ("socModel", C.c_uint32)]


class _BinaryInfoUnion(C.Union):
    _fields_ = [("contextBinaryInfoV1", BinaryInfoV1), ("contextBinaryInfoV3", BinaryInfoV3)]


class BinaryInfo(C.Structure):
    """QnnSystemContext_BinaryInfo_t (its versions share the fields above)."""
    _anonymous_ = ("u",)
    _fields_ = [("version", C.c_int32), ("u", _BinaryInfoUnion)]


class _ScalarValue(C.Union):
    _fields_ = [("floatValue", C.c_float), ("doubleValue", C.c_double), ("uint64Value", C.c_uint64),
                ("int64Value", C.c_int64), ("uint32Value", C.c_uint32), ("int32Value", C.c_int32),
                ("uint16Value", C.c_uint16), ("int16Value", C.c_int16), ("uint8Value", C.c_uint8),
                ("int8Value", C.c_int8), ("bool8Value", C.c_uint8), ("stringValue", C.c_char_p)]


class Scalar(C.Structure):
    """Qnn_Scalar_t."""
    _anonymous_ = ("u",)
    _fields_ = [("dataType", C.c_int32), ("u", _ScalarValue)]


class _ParamValue(C.Union):
    _fields_ = [("scalarParam", Scalar), ("tensorParam", Tensor)]


class Param(C.Structure):
    """Qnn_Param_t."""
    _anonymous_ = ("u",)
    _fields_ = [("paramType", C.c_int32), ("name", C.c_char_p), ("u", _ParamValue)]


class OpConfigV1(C.Structure):
    _fields_ = [("name", C.c_char_p), ("packageName", C.c_char_p), ("typeName", C.c_char_p),
                ("numOfParams", C.c_uint32), ("params", C.POINTER(Param)), ("numOfInputs", C.c_uint32),
                ("inputTensors", C.POINTER(Tensor)), ("numOfOutputs", C.c_uint32),
                ("outputTensors", C.POINTER(Tensor))]


class OpConfig(C.Structure):
    """Qnn_OpConfig_t."""
    _fields_ = [("version", C.c_int32), ("v1", OpConfigV1)]


class ProfileEventData(C.Structure):
    """QnnProfile_EventData_t."""
    _fields_ = [("type", C.c_uint32), ("unit", C.c_uint32), ("value", C.c_uint64), ("identifier", C.c_char_p)]


class SaverConfig(C.Structure):
    """QnnSaver_Config_t with its outputDirectory member (the union's pointer-sized first member)."""
    _fields_ = [("option", C.c_int32), ("outputDirectory", C.c_char_p), ("_rest", C.c_void_p)]


class ModelGraphInfo(C.Structure):
    """GraphInfo_t of the model-library interface (QnnModel_composeGraphs)."""
    _fields_ = [("graph", C.c_void_p), ("graphName", C.c_char_p), ("inputTensors", C.POINTER(Tensor)),
                ("numInputTensors", C.c_uint32), ("outputTensors", C.POINTER(Tensor)), ("numOutputTensors", C.c_uint32)]


class CoreInfoV1(C.Structure):
    _fields_ = [("coreId", C.c_uint32), ("coreType", C.c_uint32), ("coreInfoExtension", C.c_void_p)]


class CoreInfo(C.Structure):
    _fields_ = [("version", C.c_int32), ("v1", CoreInfoV1)]


class HardwareDeviceInfoV1(C.Structure):
    _fields_ = [("deviceId", C.c_uint32), ("deviceType", C.c_uint32), ("numCores", C.c_uint32),
                ("cores", C.POINTER(CoreInfo)), ("deviceInfoExtension", C.c_void_p)]


class HardwareDeviceInfo(C.Structure):
    _fields_ = [("version", C.c_int32), ("v1", HardwareDeviceInfoV1)]


class PlatformInfoV1(C.Structure):
    _fields_ = [("numHwDevices", C.c_uint32), ("hwDevices", C.POINTER(HardwareDeviceInfo))]


class PlatformInfo(C.Structure):
    """QnnDevice_PlatformInfo_t."""
    _fields_ = [("version", C.c_int32), ("v1", PlatformInfoV1)]


class MemShape(C.Structure):
    """Qnn_MemShape_t."""
    _fields_ = [("numDim", C.c_uint32), ("dimSize", C.POINTER(C.c_uint32)), ("shapeConfig", C.c_char_p)]


class MemDmaBufInfo(C.Structure):
    """Qnn_MemDmaBufInfo_t."""
    _fields_ = [("fd", C.c_int32), ("data", C.c_void_p)]


class _MemInfoUnion(C.Union):
    _fields_ = [("ionFd", C.c_int32), ("customInfo", C.c_void_p), ("dmaBufInfo", MemDmaBufInfo)]


class MemDescriptor(C.Structure):
    """Qnn_MemDescriptor_t (ionInfo is a struct holding only its fd: ionFd here)."""
    _anonymous_ = ("u",)
    _fields_ = [("memShape", MemShape), ("dataType", C.c_int32), ("memType", C.c_int32), ("u", _MemInfoUnion)]


class HtpSharedBufferConfig(C.Structure):
    """QnnHtpMem_SharedBufferConfig_t."""
    _fields_ = [("fd", C.c_int32), ("offset", C.c_uint64)]


class _MemHtpUnion(C.Union):
    _fields_ = [("qurtAddress", C.c_uint32), ("sharedBufferConfig", HtpSharedBufferConfig)]


class MemHtpDescriptor(C.Structure):
    """QnnMemHtp_Descriptor_t."""
    _anonymous_ = ("u",)
    _fields_ = [("type", C.c_int32), ("size", C.c_uint64), ("u", _MemHtpUnion)]


class _BackendConfigUnion(C.Union):
    _fields_ = [("customConfig", C.c_void_p), ("platformOption", C.c_char_p)]


class BackendConfig(C.Structure):
    """QnnBackend_Config_t."""
    _anonymous_ = ("u",)
    _fields_ = [("option", C.c_int32), ("u", _BackendConfigUnion)]


class _ContextConfigUnion(C.Union):
    _fields_ = [("customConfig", C.c_void_p), ("priority", C.c_int32), ("oemString", C.c_char_p),
                ("enableGraphs", C.POINTER(C.c_char_p)), ("memoryLimitHint", C.c_uint64),
                ("isPersistentBinary", C.c_uint8), ("isGraphInitDeferred", C.c_uint8),
                ("graphRetentionOrder", C.POINTER(C.c_char_p))]


class ContextConfig(C.Structure):
    """QnnContext_Config_t."""
    _anonymous_ = ("u",)
    _fields_ = [("option", C.c_int32), ("u", _ContextConfigUnion)]


class _GraphConfigUnion(C.Union):
    _fields_ = [("customConfig", C.c_void_p), ("priority", C.c_int32), ("profileHandle", C.c_void_p),
                ("profilingState", C.c_int32), ("numProfilingExecutions", C.c_uint32)]


class GraphConfig(C.Structure):
    """QnnGraph_Config_t."""
    _anonymous_ = ("u",)
    _fields_ = [("option", C.c_int32), ("u", _GraphConfigUnion)]


class HtpGraphOptimizationOption(C.Structure):
    """QnnHtpGraph_OptimizationOption_t."""
    _fields_ = [("type", C.c_int32), ("floatValue", C.c_float)]


class _HtpGraphConfigUnion(C.Union):
    _fields_ = [("optimizationOption", HtpGraphOptimizationOption), ("precision", C.c_int32),
                ("vtcmSizeInMB", C.c_uint32), ("foldReluActivationIntoConvOff", C.c_bool),
                ("shortDepthConvOnHmxOff", C.c_bool), ("numHvxThreads", C.c_uint64), ("numCores", C.c_uint32),
                ("vtcmSizeInBytes", C.c_uint32), ("weightsPacking", C.c_bool), ("assumeSameQuant", C.c_bool),
                ("shareIOBuffer", C.c_bool), ("advancedActivationFusion", C.c_bool),
                ("highPrecisionSigmoid", C.c_bool), ("monolithicLstm", C.c_bool),
                ("precisionCompensation", C.c_bool), ("enablePredication", C.c_bool), ("fp16ClampOverflow", C.c_bool),
                ("_size", C.c_uint8 * 48)]


class HtpGraphCustomConfig(C.Structure):
    """QnnHtpGraph_CustomConfig_t (the union's largest member, 44 bytes, held as _size)."""
    _anonymous_ = ("u",)
    _fields_ = [("option", C.c_int32), ("u", _HtpGraphConfigUnion)]


class _HtpContextConfigUnion(C.Union):
    _fields_ = [("weightSharingEnabled", C.c_bool), ("fileReadMemoryBudgetInMb", C.c_uint64),
                ("dspMemoryProfilingEnabled", C.c_bool), ("shareResources", C.c_bool), ("ioMemEstimation", C.c_bool),
                ("isPrepareOnly", C.c_bool), ("initAcceleration", C.c_bool),
                ("skipValidationOnBinarySection", C.c_bool), ("useExtendedUdma", C.c_bool),
                ("loraWeightSharingEnabled", C.c_bool), ("_size", C.c_uint8 * 16)]


class HtpContextCustomConfig(C.Structure):
    """QnnHtpContext_CustomConfig_t (the group registrations, 16 bytes, held as _size)."""
    _anonymous_ = ("u",)
    _fields_ = [("option", C.c_int32), ("u", _HtpContextConfigUnion)]


class NodeValidationResult(C.Structure):
    """QnnGraph_NodeValidationResult_t (API 2.39)."""
    _fields_ = [("nodeName", C.c_char_p), ("status", C.c_int32), ("errorCode", C.c_uint64),
                ("errorMessage", C.c_char_p)]


class ValidationResult(C.Structure):
    """QnnGraph_ValidationResult_t (API 2.39)."""
    _fields_ = [("numResults", C.c_uint32), ("results", C.POINTER(NodeValidationResult)),
                ("overallStatus", C.c_uint64)]


LOG_CALLBACK = C.CFUNCTYPE(None, C.c_char_p, C.c_int32, C.c_uint64, C.c_void_p)

# Function types of the members this package calls (argument types as in the headers).
P = C.c_void_p
FN = {
    "backendCreate": C.CFUNCTYPE(C.c_uint64, P, P, C.POINTER(P)),
    "backendRegisterOpPackage": C.CFUNCTYPE(C.c_uint64, P, C.c_char_p, C.c_char_p, C.c_char_p),
    "backendRegisterOpPackageFromBinary": C.CFUNCTYPE(C.c_uint64, P, P, C.c_uint64, C.c_char_p, C.c_char_p),
    "graphValidate": C.CFUNCTYPE(C.c_uint64, P, P, C.POINTER(C.POINTER(ValidationResult))),
    "graphFreeValidationResult": C.CFUNCTYPE(C.c_uint64, C.POINTER(ValidationResult)),
    "backendFree": C.CFUNCTYPE(C.c_uint64, P),
    "backendGetBuildId": C.CFUNCTYPE(C.c_uint64, C.POINTER(C.c_char_p)),
    "contextCreateFromBinary": C.CFUNCTYPE(C.c_uint64, P, P, P, P, C.c_uint64, C.POINTER(P), P),
    "contextFree": C.CFUNCTYPE(C.c_uint64, P, P),
    "contextCreate": C.CFUNCTYPE(C.c_uint64, P, P, P, C.POINTER(P)),
    "contextGetBinarySize": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(C.c_uint64)),
    "contextGetBinary": C.CFUNCTYPE(C.c_uint64, P, P, C.c_uint64, C.POINTER(C.c_uint64)),
    "graphCreate": C.CFUNCTYPE(C.c_uint64, P, C.c_char_p, P, C.POINTER(P)),
    "tensorCreateGraphTensor": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(Tensor)),
    "graphAddNode": C.CFUNCTYPE(C.c_uint64, P, OpConfig),
    "graphFinalize": C.CFUNCTYPE(C.c_uint64, P, P, P),
    "deviceCreate": C.CFUNCTYPE(C.c_uint64, P, P, C.POINTER(P)),
    "deviceFree": C.CFUNCTYPE(C.c_uint64, P),
    "deviceGetPlatformInfo": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(C.POINTER(PlatformInfo))),
    "deviceFreePlatformInfo": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(PlatformInfo)),
    "profileCreate": C.CFUNCTYPE(C.c_uint64, P, C.c_uint32, C.POINTER(P)),
    "profileFree": C.CFUNCTYPE(C.c_uint64, P),
    "profileGetEvents": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(C.POINTER(C.c_uint64)), C.POINTER(C.c_uint32)),
    "profileGetSubEvents": C.CFUNCTYPE(C.c_uint64, C.c_uint64, C.POINTER(C.POINTER(C.c_uint64)),
                                       C.POINTER(C.c_uint32)),
    "profileGetEventData": C.CFUNCTYPE(C.c_uint64, C.c_uint64, C.POINTER(ProfileEventData)),
    "graphRetrieve": C.CFUNCTYPE(C.c_uint64, P, C.c_char_p, C.POINTER(P)),
    "graphExecute": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(Tensor), C.c_uint32, C.POINTER(Tensor), C.c_uint32, P, P),
    "logCreate": C.CFUNCTYPE(C.c_uint64, LOG_CALLBACK, C.c_int32, C.POINTER(P)),
    "logFree": C.CFUNCTYPE(C.c_uint64, P),
    "errorGetMessage": C.CFUNCTYPE(C.c_uint64, C.c_uint64, C.POINTER(C.c_char_p)),
    "contextAddToDlc": C.CFUNCTYPE(C.c_uint64, P, P),
    "systemContextCreate": C.CFUNCTYPE(C.c_uint64, C.POINTER(P)),
    "systemContextGetBinaryInfo": C.CFUNCTYPE(C.c_uint64, P, P, C.c_uint64, C.POINTER(C.POINTER(BinaryInfo)),
                                              C.POINTER(C.c_uint64)),
    "systemContextFree": C.CFUNCTYPE(C.c_uint64, P),
    "memRegister": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(MemDescriptor), C.c_uint32, C.POINTER(P)),
    "memDeRegister": C.CFUNCTYPE(C.c_uint64, C.POINTER(P), C.c_uint32),
    "backendSetConfig": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(C.POINTER(BackendConfig))),
    "contextSetConfig": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(C.POINTER(ContextConfig))),
    "graphSetConfig": C.CFUNCTYPE(C.c_uint64, P, C.POINTER(C.POINTER(GraphConfig))),
}
