// Tensor and op-config statements of the generated program.
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"

namespace qnn::trace::cgen {
namespace {

constexpr uint64_t kDefined = 1;  // QNN_DEFINITION_DEFINED
enum Encoding : uint64_t {
  ScaleOffset = 0, AxisScaleOffset = 1, BwScaleOffset = 2, BwAxisScaleOffset = 3, BlockwiseExpansion = 5,
  Microscaling = 12
};
constexpr uint64_t kFloat8 = 0x0208;  // QNN_DATATYPE_FLOAT_8: E8M0 block scales
constexpr uint64_t kMemHandle = 1;  // QNN_TENSORMEMTYPE_MEMHANDLE

const Value& items(const Value& v, const char* name) {
  static const Value& empty = *new Value(Value::list());  // never destroyed: used from exit-time generation
  const Value* f = v.field(name);
  return f && f->kind == Value::Kind::List ? *f : empty;
}

double number(const Value& v) {
  return v.kind == Value::Kind::Float ? v.f : v.kind == Value::Kind::Int ? double(v.i) : double(v.u);
}

std::string join(const Value& list, std::string (*item)(const Value&)) {
  std::string s;
  for (size_t k = 0; k < list.items.size(); ++k) s += (k ? ", " : "") + item(list.items[k]);
  return s;
}

std::string uintItem(const Value& v) { return std::to_string(v.u) + "u"; }
std::string intItem(const Value& v) { return std::to_string(v.kind == Value::Kind::Int ? v.i : int64_t(v.u)); }
std::string floatItem(const Value& v) { return cFloat(number(v)); }

}  // namespace

std::string CGenerator::scaleOffsetArray(const Value& pairs) {
  if (pairs.items.empty()) return "NULL";
  const std::string arr = fresh("scaleOffsets");
  std::string init;
  for (const Value& p : pairs.items)
    if (p.items.size() == 2)
      init += (init.empty() ? "{" : ", {") + cFloat(number(p.items[0])) + ", " + intItem(p.items[1]) + "}";
  line("Qnn_ScaleOffset_t " + arr + "[] = {" + init + "};");
  return arr;
}

void CGenerator::emitTensor(const std::string& var, const Value& t, TensorUse use) {
  const Value* name = t.field("name");
  if (!t.field("id") || !t.field("dims")) {
    line("memset(&" + var + ", 0, sizeof " + var + "); /* malformed tensor record */");
    return;
  }
  const Value& dims = items(t, "dims");
  std::string dimsName = "NULL";
  if (!dims.items.empty()) {
    dimsName = fresh("dims");
    line("uint32_t " + dimsName + "[] = {" + join(dims, uintItem) + "};");
  }
  std::string id = use == TensorUse::Create ? field(t, "id") : "tid(" + field(t, "id") + ")";
  line("tensorBase(&" + var + ", " + field(t, "version", "1") + ", " + id + ", " +
       (name && name->kind == Value::Kind::String ? cString(name->s) : "NULL") + ", " + field(t, "type") + ", " +
       field(t, "dataFormat") + ", " + field(t, "dataType") + ", " + std::to_string(dims.items.size()) + "u, " +
       dimsName + ");");

  const Value* q = t.field("quant");
  if (q) {
    line("tensorQuant(&" + var + ", " + field(*q, "definition") + ", " + field(*q, "encoding") + ");");
    const Value* def = q->field("definition");
    const Value* enc = q->field("encoding");
    std::string qp = var + ".v1.quantizeParams.";
    // A C array of the recorded list (named after `prefix`), or NULL when it is empty.
    auto arrayOrNull = [&](const std::string& ctype, const char* prefix, const Value& list,
                           std::string (*item)(const Value&)) -> std::string {
      if (list.items.empty()) return "NULL";
      const std::string name = fresh(prefix);
      line(ctype + " " + name + "[] = {" + join(list, item) + "};");
      return name;
    };
    if (def && def->u == kDefined && enc) {
      switch (enc->u) {
        case ScaleOffset:
          line(qp + "scaleOffsetEncoding.scale = " + cFloat(q->field("scale") ? number(*q->field("scale")) : 0.0) + ";");
          line(qp + "scaleOffsetEncoding.offset = " + field(*q, "offset") + ";");
          break;
        case BwScaleOffset:
          line(qp + "bwScaleOffsetEncoding.bitwidth = " + field(*q, "bitwidth") + ";");
          line(qp + "bwScaleOffsetEncoding.scale = " + cFloat(q->field("scale") ? number(*q->field("scale")) : 0.0) + ";");
          line(qp + "bwScaleOffsetEncoding.offset = " + field(*q, "offset") + ";");
          break;
        case AxisScaleOffset: {
          const Value& so = items(*q, "scaleOffsets");
          const std::string arr = scaleOffsetArray(so);
          line(qp + "axisScaleOffsetEncoding.axis = " + field(*q, "axis") + ";");
          line(qp + "axisScaleOffsetEncoding.numScaleOffsets = " + std::to_string(so.items.size()) + "u;");
          line(qp + "axisScaleOffsetEncoding.scaleOffset = " + arr + ";");
          break;
        }
        case BwAxisScaleOffset: {
          const Value& scales = items(*q, "scales");
          const Value& offsets = items(*q, "offsets");
          const std::string s = arrayOrNull("float", "scales", scales, floatItem);
          const std::string o = arrayOrNull("int32_t", "offsets", offsets, intItem);
          line(qp + "bwAxisScaleOffsetEncoding.bitwidth = " + field(*q, "bitwidth") + ";");
          line(qp + "bwAxisScaleOffsetEncoding.axis = " + field(*q, "axis") + ";");
          line(qp + "bwAxisScaleOffsetEncoding.numElements = " + std::to_string(scales.items.size()) + "u;");
          line(qp + "bwAxisScaleOffsetEncoding.scales = " + s + ";");
          line(qp + "bwAxisScaleOffsetEncoding.offsets = " + o + ";");
          break;
        }
        case BlockwiseExpansion: {
          const Value& so = items(*q, "scaleOffsets");
          const Value& blocks = items(*q, "blockScales");
          const bool wide = q->field("blockScaleStorageType") && q->field("blockScaleStorageType")->u == 1;
          const std::string arr = scaleOffsetArray(so);
          const std::string bs = arrayOrNull(wide ? "uint16_t" : "uint8_t", "blockScales", blocks, uintItem);
          const std::string e = fresh("blockwise");
          line("Qnn_BlockwiseExpansion_t " + e + " = QNN_BLOCKWISE_EXPANSION_INIT;");
          line(e + ".axis = " + field(*q, "axis") + ";");
          line(e + ".scaleOffsets = " + arr + ";");
          line(e + ".numBlocksPerAxis = " + field(*q, "numBlocksPerAxis") + ";");
          line(e + ".blockScaleBitwidth = " + field(*q, "blockScaleBitwidth") + ";");
          line(e + ".blockScaleStorageType = (Qnn_BlockwiseExpansionBlockScaleStorageType_t)" +
               field(*q, "blockScaleStorageType") + ";");
          line(e + (wide ? ".blocksScale16 = " : ".blocksScale8 = ") + bs + ";");
          line(qp + "blockwiseExpansion = &" + e + ";");
          break;
        }
        case Microscaling: {
          const Value& dims = items(*q, "blockDimensions");
          const Value& scales = items(*q, "blockScales");
          const bool e8m0 = q->field("scaleDataType") && q->field("scaleDataType")->u == kFloat8;
          const std::string bd = arrayOrNull("uint32_t", "blockDims", dims, uintItem);
          const std::string bs = arrayOrNull(e8m0 ? "uint8_t" : "float", "blockScales", scales, e8m0 ? uintItem : floatItem);
          const std::string e = fresh("microscaling");
          line("Qnn_MicroscalingEncoding_t " + e + " = QNN_MICROSCALING_ENCODING_INIT;");
          line(e + ".valueEncoding = (Qnn_FloatEncoding_t)" + field(*q, "valueEncoding") + ";");
          line(e + ".blockRank = " + std::to_string(dims.items.size()) + "u;");
          line(e + ".blockDimensions = " + bd + ";");
          line(e + ".blockCount = " + field(*q, "blockCount") + ";");
          line(e + ".scaleDataType = (Qnn_DataType_t)" + field(*q, "scaleDataType") + ";");
          line(e + (e8m0 ? ".blockScales8 = " : ".blockScalesFloat = ") + bs + ";");
          line(qp + "microScalingEncoding = &" + e + ";");
          break;
        }
        default: line("/* quantization encoding " + field(*q, "encoding") + " not known to the generator */"); break;
      }
    }
  }

  const Value* memType = t.field("memType");
  const Value* bytes = t.field("data");
  std::string size = field(t, "dataSize");
  if (memType && memType->u == kMemHandle) {
    std::string mem = handle(t.field("memHandle") ? *t.field("memHandle") : Value(), "mem");
    line("tensorMem(&" + var + ", " + mem + ");");
    // Shared-memory contents the Saver saw at execute go back into the buffer.
    if (use == TensorUse::Input && bytes) line("fillMem(" + mem + ", " + data(*bytes) + ", " + size + ");");
  } else if (use == TensorUse::Output) {
    line("tensorData(&" + var + ", outputBuffer(" + size + "), " + size + ");");
  } else if (bytes && use != TensorUse::Reference) {
    line("tensorData(&" + var + ", " + data(*bytes) + ", " + size + ");");
  }

  if (t.field("sparseType")) {  // version-2 fields
    const Value& dyn = items(t, "isDynamicDimensions");
    if (!dyn.items.empty()) {
      std::string d = fresh("dynamic");
      line("uint8_t " + d + "[] = {" + join(dyn, uintItem) + "};");
      line(var + ".v2.isDynamicDimensions = " + d + ";");
    }
    line(var + ".v2.sparseParams.type = (Qnn_SparseLayoutType_t)" + field(t, "sparseType") + ";");
    line(var + ".v2.isProduced = " + field(t, "isProduced") + ";");
  }
}

void CGenerator::emitTensorArray(const std::string& name, const Value& list, TensorUse use) {
  if (list.items.empty()) return;
  line("Qnn_Tensor_t " + name + "[" + std::to_string(list.items.size()) + "];");
  for (size_t k = 0; k < list.items.size(); ++k)
    emitTensor(name + "[" + std::to_string(k) + "]", list.items[k], use);
}

void CGenerator::emitOp(const Value& op) {
  const Value& params = items(op, "params");
  const Value& inputs = items(op, "inputs");
  const Value& outputs = items(op, "outputs");
  std::string p = params.items.empty() ? "NULL" : fresh("params");
  std::string in = inputs.items.empty() ? "NULL" : fresh("inputs");
  std::string out = outputs.items.empty() ? "NULL" : fresh("outputs");
  if (!params.items.empty()) {
    line("Qnn_Param_t " + p + "[" + std::to_string(params.items.size()) + "];");
    line("memset(" + p + ", 0, sizeof " + p + ");");
  }
  for (size_t k = 0; k < params.items.size(); ++k) {
    const Value& param = params.items[k];
    std::string pk = p + "[" + std::to_string(k) + "]";
    const Value* name = param.field("name");
    line(pk + ".paramType = (Qnn_ParamType_t)" + field(param, "paramType") + ";");
    line(pk + ".name = " + (name && name->kind == Value::Kind::String ? cString(name->s) : "NULL") + ";");
    if (const Value* s = param.field("scalar")) {
      const Value* v = s->field("value");
      std::string member = "uint32Value";
      std::string value = v ? (v->kind == Value::Kind::Float   ? cFloat(v->f)
                               : v->kind == Value::Kind::Int   ? std::to_string(v->i)
                                                               : std::to_string(v->u) + "u")
                            : "0";
      switch (s->field("dataType") ? s->field("dataType")->u : 0) {
        case 0x0232: member = "floatValue"; break;      // QNN_DATATYPE_FLOAT_32
        case 0x0032: member = "int32Value"; break;      // QNN_DATATYPE_INT_32
        case 0x0016: member = "int16Value"; break;      // QNN_DATATYPE_INT_16
        case 0x0008: member = "int8Value"; break;       // QNN_DATATYPE_INT_8
        case 0x0116: member = "uint16Value"; break;     // QNN_DATATYPE_UINT_16
        case 0x0108: case 0x0508: member = "uint8Value"; break;  // UINT_8, BOOL_8
        default: break;
      }
      line(pk + ".scalarParam.dataType = (Qnn_DataType_t)" + field(*s, "dataType") + ";");
      line(pk + ".scalarParam." + member + " = " + value + ";");
    } else if (const Value* t = param.field("tensor")) {
      emitTensor(pk + ".tensorParam", *t, TensorUse::Input);
    }
  }
  emitTensorArray(in, inputs, TensorUse::Reference);
  emitTensorArray(out, outputs, TensorUse::Reference);
  const Value* name = op.field("name");
  const Value* package = op.field("packageName");
  const Value* type = op.field("typeName");
  auto str = [](const Value* v) { return v && v->kind == Value::Kind::String ? cString(v->s) : std::string("NULL"); };
  line("Qnn_OpConfig_t op;");
  line("memset(&op, 0, sizeof op);");
  line("op.version = (Qnn_OpConfigVersion_t)" + field(op, "version", "1") + ";");
  line("op.v1.name = " + str(name) + ";");
  line("op.v1.packageName = " + str(package) + ";");
  line("op.v1.typeName = " + str(type) + ";");
  line("op.v1.numOfParams = " + std::to_string(params.items.size()) + "u;");
  line("op.v1.params = " + p + ";");
  line("op.v1.numOfInputs = " + std::to_string(inputs.items.size()) + "u;");
  line("op.v1.inputTensors = " + in + ";");
  line("op.v1.numOfOutputs = " + std::to_string(outputs.items.size()) + "u;");
  line("op.v1.outputTensors = " + out + ";");
}

}  // namespace qnn::trace::cgen
