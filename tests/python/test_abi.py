"""The package's ctypes layouts against the ABI facts of include/QNN (tests/abi/abi-2.32.json: every
record's size and every field's offset and size, as the compiler lays them out) and its function-table
member lists against the headers and against the project's one list of members (sdk/core/api_members.h)."""
import ctypes as C
import json
import os
import re

import pytest

from qnn import _abi as A

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FACTS = json.load(open(os.path.join(ROOT, "tests", "abi", "abi-2.32.json")))["headers"]
ENTRIES = {k: v for h in FACTS.values() for k, v in h.items()}


def record_size(name):
    m = re.match(r"size (\d+)", ENTRIES[f"record {name}"])
    return int(m.group(1))


def field(name, member):
    m = re.match(r"@(\d+) size (\d+)", ENTRIES[f"field {name}.{member}"])
    return int(m.group(1)), int(m.group(2))


# (C record, ctypes class, {C field: ctypes field path})
LAYOUTS = [
    ("Qnn_Version_t", A.Version, {"major": "major", "minor": "minor", "patch": "patch"}),
    ("Qnn_ApiVersion_t", A.ApiVersion, {"coreApiVersion": "coreApiVersion", "backendApiVersion": "backendApiVersion"}),
    ("QnnInterface_t", A.Interface, {"backendId": "backendId", "providerName": "providerName",
                                     "apiVersion": "apiVersion", "v2_32": "table"}),
    ("QnnSystemInterface_t", A.SystemInterface, {"backendId": "backendId", "providerName": "providerName",
                                                 "systemApiVersion": "systemApiVersion", "v1_7": "table"}),
    ("Qnn_ScaleOffset_t", A.ScaleOffset, {"scale": "scale", "offset": "offset"}),
    ("Qnn_AxisScaleOffset_t", A.AxisScaleOffset, {"axis": "axis", "numScaleOffsets": "numScaleOffsets",
                                                  "scaleOffset": "scaleOffset"}),
    ("Qnn_BwScaleOffset_t", A.BwScaleOffset, {"bitwidth": "bitwidth", "scale": "scale", "offset": "offset"}),
    ("Qnn_BwAxisScaleOffset_t", A.BwAxisScaleOffset, {"bitwidth": "bitwidth", "axis": "axis",
                                                      "numElements": "numElements", "scales": "scales",
                                                      "offsets": "offsets"}),
    ("Qnn_QuantizeParams_t", A.QuantizeParams, {"encodingDefinition": "encodingDefinition",
                                                "quantizationEncoding": "quantizationEncoding",
                                                "scaleOffsetEncoding": "scaleOffsetEncoding",
                                                "bwAxisScaleOffsetEncoding": "bwAxisScaleOffsetEncoding"}),
    ("Qnn_Scalar_t", A.Scalar, {"dataType": "dataType", "floatValue": "floatValue", "doubleValue": "doubleValue",
                                "stringValue": "stringValue"}),
    ("Qnn_Param_t", A.Param, {"paramType": "paramType", "name": "name", "scalarParam": "scalarParam",
                              "tensorParam": "tensorParam"}),
    ("Qnn_OpConfigV1_t", A.OpConfigV1, {f: f for f in ("name", "packageName", "typeName", "numOfParams", "params",
                                                        "numOfInputs", "inputTensors", "numOfOutputs",
                                                        "outputTensors")}),
    ("Qnn_OpConfig_t", A.OpConfig, {"version": "version", "v1": "v1"}),
    ("QnnProfile_EventData_t", A.ProfileEventData, {f: f for f in ("type", "unit", "value", "identifier")}),
    ("QnnSaver_Config_t", A.SaverConfig, {"option": "option", "outputDirectory": "outputDirectory"}),
    ("QnnDevice_CoreInfoV1_t", A.CoreInfoV1, {f: f for f in ("coreId", "coreType", "coreInfoExtension")}),
    ("QnnDevice_CoreInfo_t", A.CoreInfo, {"version": "version", "v1": "v1"}),
    ("QnnDevice_HardwareDeviceInfoV1_t", A.HardwareDeviceInfoV1,
     {f: f for f in ("deviceId", "deviceType", "numCores", "cores", "deviceInfoExtension")}),
    ("QnnDevice_HardwareDeviceInfo_t", A.HardwareDeviceInfo, {"version": "version", "v1": "v1"}),
    ("QnnDevice_PlatformInfoV1_t", A.PlatformInfoV1, {"numHwDevices": "numHwDevices", "hwDevices": "hwDevices"}),
    ("QnnDevice_PlatformInfo_t", A.PlatformInfo, {"version": "version", "v1": "v1"}),
    ("Qnn_ClientBuffer_t", A.ClientBuffer, {"data": "data", "dataSize": "dataSize"}),
    ("Qnn_TensorV1_t", A.TensorV1, {f: f for f in ("id", "name", "type", "dataFormat", "dataType", "quantizeParams",
                                                    "rank", "dimensions", "memType", "clientBuf", "memHandle")}),
    ("Qnn_TensorV2_t", A.TensorV2, {f: f for f in ("id", "name", "dataType", "quantizeParams", "rank", "dimensions",
                                                    "clientBuf", "isDynamicDimensions", "sparseParams",
                                                    "isProduced")}),
    ("Qnn_Tensor_t", A.Tensor, {"version": "version", "v1": "v1", "v2": "v2"}),
    ("QnnSystemContext_GraphInfoV1_t", A.GraphInfoV1, {f: f for f in ("graphName", "numGraphInputs", "graphInputs",
                                                                      "numGraphOutputs", "graphOutputs")}),
    ("QnnSystemContext_GraphInfoV3_t", A.GraphInfoV3, {f: f for f in ("graphName", "graphOutputs",
                                                                      "updateableTensors", "graphBlobInfo",
                                                                      "startOpIndex", "endOpIndex")}),
    ("QnnSystemContext_GraphInfo_t", A.GraphInfo, {"version": "version", "graphInfoV1": "graphInfoV1",
                                                   "graphInfoV3": "graphInfoV3"}),
    ("Qnn_MemShape_t", A.MemShape, {f: f for f in ("numDim", "dimSize", "shapeConfig")}),
    ("Qnn_MemDmaBufInfo_t", A.MemDmaBufInfo, {"fd": "fd", "data": "data"}),
    ("Qnn_MemDescriptor_t", A.MemDescriptor, {"memShape": "memShape", "dataType": "dataType", "memType": "memType",
                                              "ionInfo": "ionFd", "customInfo": "customInfo",
                                              "dmaBufInfo": "dmaBufInfo"}),
    ("QnnHtpMem_SharedBufferConfig_t", A.HtpSharedBufferConfig, {"fd": "fd", "offset": "offset"}),
    ("QnnMemHtp_Descriptor_t", A.MemHtpDescriptor, {f: f for f in ("type", "size", "qurtAddress",
                                                                   "sharedBufferConfig")}),
    ("QnnBackend_Config_t", A.BackendConfig, {f: f for f in ("option", "customConfig", "platformOption")}),
    ("QnnContext_Config_t", A.ContextConfig, {f: f for f in ("option", "customConfig", "priority", "oemString",
                                                             "enableGraphs", "memoryLimitHint", "isPersistentBinary",
                                                             "isGraphInitDeferred", "graphRetentionOrder")}),
    ("QnnGraph_Config_t", A.GraphConfig, {f: f for f in ("option", "customConfig", "priority", "profileHandle",
                                                         "profilingState", "numProfilingExecutions")}),
    ("QnnHtpGraph_OptimizationOption_t", A.HtpGraphOptimizationOption, {"type": "type", "floatValue": "floatValue"}),
    ("QnnHtpGraph_CustomConfig_t", A.HtpGraphCustomConfig,
     {f: f for f in ("option", "optimizationOption", "precision", "vtcmSizeInMB", "foldReluActivationIntoConvOff",
                     "shortDepthConvOnHmxOff", "numHvxThreads", "numCores", "vtcmSizeInBytes", "weightsPacking",
                     "assumeSameQuant", "shareIOBuffer", "advancedActivationFusion", "highPrecisionSigmoid",
                     "monolithicLstm")}),
    ("QnnHtpContext_CustomConfig_t", A.HtpContextCustomConfig,
     {f: f for f in ("option", "weightSharingEnabled", "fileReadMemoryBudgetInMb", "dspMemoryProfilingEnabled",
                     "shareResources", "ioMemEstimation", "isPrepareOnly", "initAcceleration",
                     "skipValidationOnBinarySection", "useExtendedUdma", "loraWeightSharingEnabled")}),
    ("QnnSystemContext_BinaryInfoV1_t", A.BinaryInfoV1, {f: f for f in ("backendId", "buildId", "coreApiVersion",
                                                                        "socVersion", "hwInfoBlob", "contextBlobSize",
                                                                        "numContextTensors", "contextTensors",
                                                                        "numGraphs", "graphs")}),
    ("QnnSystemContext_BinaryInfoV3_t", A.BinaryInfoV3, {f: f for f in ("backendId", "buildId", "coreApiVersion",
                                                                        "backendApiVersion", "socVersion",
                                                                        "contextBlobVersion", "contextBlobSize",
                                                                        "numContextTensors", "contextTensors",
                                                                        "numGraphs", "graphs", "platformInfo",
                                                                        "contextMetadataSize", "contextMetadata",
                                                                        "socModel")}),
]


def ctypes_field(cls, name):
    """(offset, size) of a field of cls, looking inside anonymous unions."""
    for n, ty, *_ in cls._fields_:
        if n == name:
            f = getattr(cls, n)
            return f.offset, f.size
    for anon in getattr(cls, "_anonymous_", ()):
        holder = getattr(cls, anon)
        union = dict((n, ty) for n, ty, *_ in cls._fields_)[anon]
        for n, ty, *_ in union._fields_:
            if n == name:
                return holder.offset + getattr(union, n).offset, getattr(union, n).size
    raise AttributeError(name)


@pytest.mark.parametrize("record,cls,fields", LAYOUTS, ids=[r for r, _, _ in LAYOUTS])
def test_layout_matches_headers(record, cls, fields):
    if record == "QnnSystemContext_BinaryInfoV1_t":  # the package declares the shared prefix only
        assert C.sizeof(cls) <= record_size(record)
    else:
        assert C.sizeof(cls) == record_size(record), record
    for c_name, py_name in fields.items():
        assert ctypes_field(cls, py_name) == field(record, c_name), f"{record}.{c_name}"


def members_of(header, struct_re):
    text = open(os.path.join(ROOT, "include", "QNN", header)).read()
    body = re.search(r"typedef struct \{([^}]*)\} " + struct_re + ";", text).group(1)
    return tuple(re.findall(r"\s(\w+);", body))


def test_function_tables_match_headers():
    assert A.INTERFACE_MEMBERS == members_of("QnnInterface.h", r"QnnInterface_ImplementationV2_32_t")
    assert A.SYSTEM_MEMBERS == members_of("System/QnnSystemInterface.h", r"QnnSystemInterface_ImplementationV1_7_t")


def listed_members(macro):
    """(id, member, API function) of one X-macro list of sdk/core/api_members.h, lists it
    names (QNN_FOR_EACH_...(X)) expanded in place."""
    text = open(os.path.join(ROOT, "sdk", "core", "api_members.h")).read()
    body = re.search(r"#define " + macro + r"\(X\)((?:[^\n]*\\\n)*[^\n]*)", text).group(1)
    found = []
    for m in re.finditer(r"X\((\d+), (\w+), (\w+)\)|(QNN_FOR_EACH_\w+)\(X\)", body):
        found += [m.groups()[:3]] if m.group(1) else listed_members(m.group(4))
    return found


@pytest.mark.parametrize("macro,members", [("QNN_FOR_EACH_INTERFACE_MEMBER_2_32", A.INTERFACE_MEMBERS),
                                           ("QNN_FOR_EACH_INTERFACE_MEMBER", A.INTERFACE_MEMBERS_2_39),
                                           ("QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_1_7", A.SYSTEM_MEMBERS)])
def test_function_tables_match_member_list(macro, members):
    listed = listed_members(macro)
    assert [int(i) for i, _, _ in listed] == list(range(1, len(listed) + 1)), "ids are the table positions"
    assert tuple(m for _, m, _ in listed) == members


def test_2_39_table_matches_the_2_39_facts():
    """The 75-member table (Python's and the member list's) at the offsets of the public 2.39
    QnnInterface.h (tests/abi/abi-2.39-part.json)."""
    facts = json.load(open(os.path.join(ROOT, "tests", "abi", "abi-2.39-part.json")))["headers"]
    entries = {k: v for h in facts.values() for k, v in h.items()}
    prefix = "field QnnInterface_ImplementationV2_39_t."
    offsets = {k[len(prefix):]: int(re.match(r"@(\d+)", v).group(1)) for k, v in entries.items() if k.startswith(prefix)}
    by_offset = tuple(sorted(offsets, key=offsets.get))
    assert by_offset == A.INTERFACE_MEMBERS_2_39
    assert tuple(m for _, m, _ in listed_members("QNN_FOR_EACH_INTERFACE_MEMBER")) == by_offset
    assert C.sizeof(A.Interface2_39) == 640
    assert A.Interface2_39.table.offset == A.Interface.table.offset


@pytest.mark.parametrize("record,cls", [("QnnGraph_NodeValidationResult_t", A.NodeValidationResult),
                                        ("QnnGraph_ValidationResult_t", A.ValidationResult)])
def test_validation_result_layouts_match_the_2_39_facts(record, cls):
    facts = json.load(open(os.path.join(ROOT, "tests", "abi", "abi-2.39-part.json")))["headers"]
    entries = {k: v for h in facts.values() for k, v in h.items()}
    assert C.sizeof(cls) == int(re.match(r"size (\d+)", entries[f"record {record}"]).group(1))
    for name, _ in cls._fields_:
        m = re.match(r"@(\d+) size (\d+)", entries[f"field {record}.{name}"])
        assert (getattr(cls, name).offset, getattr(cls, name).size) == (int(m.group(1)), int(m.group(2))), name
