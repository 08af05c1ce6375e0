#include "cpu/cpu_op_package_kernel.h"

#include <cstdarg>
#include <cstdio>

#include "core/logger.h"

namespace qnn::cpu {
namespace {

QnnLog_Level_t logLevelOf(QnnCpuOpPackage_MsgType_t type) {
  switch (type) {
    case QNN_CPU_MSG_ERROR: return QNN_LOG_LEVEL_ERROR;
    case QNN_CPU_MSG_HIGH: return QNN_LOG_LEVEL_WARN;
    case QNN_CPU_MSG_MED: return QNN_LOG_LEVEL_INFO;
    case QNN_CPU_MSG_LOW: return QNN_LOG_LEVEL_VERBOSE;
    default: return QNN_LOG_LEVEL_DEBUG;
  }
}

void reportMessage(QnnCpuOpPackage_MsgType_t type, const char* format, ...) {
  if (!format) return;
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  auto logger = sdk::opPackageLogger();
  sdk::logMessage(logger.get(), logLevelOf(type), std::string("op package: ") + text);
}

void profile(QnnCpuOpPackage_ProfileType_t type, QnnCpuOpPackage_ProfileData_t data) {
  auto logger = sdk::opPackageLogger();
  sdk::logMessage(logger.get(), QNN_LOG_LEVEL_DEBUG,
                  "op package profile (" + std::string(type == QNN_CPU_PROFILE_DETAILED ? "detailed" : "basic") +
                      "): " + std::to_string(data));
}

QnnCpuOpPackage_GlobalInfra_t gInfrastructure = {reportMessage, profile};

// The datatypes the CPU op package interface can show; fixed-point tensors
// reach packages dequantized (the engine's float emulation), so they are
// FLOAT_32 by the time they get here.
bool toPackageDataType(sdk::DType t, QnnCpuOpPackage_DataType_t* out) {
  switch (t) {
    case DType::kFloat32: *out = QNN_CPU_DATATYPE_FLOAT_32; return true;
    case DType::kInt8: *out = QNN_CPU_DATATYPE_INT_8; return true;
    case DType::kUInt8: *out = QNN_CPU_DATATYPE_UINT_8; return true;
    case DType::kInt32: *out = QNN_CPU_DATATYPE_INT_32; return true;
    case DType::kUInt32: *out = QNN_CPU_DATATYPE_UINT_32; return true;
    case DType::kBool8: *out = QNN_CPU_DATATYPE_BOOL_8; return true;
    default: return false;
  }
}

Status fillTensor(DType dtype, const std::vector<uint32_t>& dims, const std::string& what, void* data,
                  QnnCpuOpPackage_Tensor_t* t, std::vector<uint32_t>* storage) {
  if (!toPackageDataType(dtype, &t->dataType))
    return sdk::unsupportedDType(what + " has datatype " + sdk::dtypeName(dtype) +
                                 ", which the CPU op package interface cannot show (it has FLOAT_32, INT_8, "
                                 "UINT_8, INT_32, UINT_32 and BOOL_8)");
  *storage = dims;
  t->dataFormat = 0;  // flat buffer
  t->rank = static_cast<uint32_t>(storage->size());
  t->maxDimensions = storage->data();
  t->currentDimensions = storage->data();
  t->data = data;
  return Status::ok();
}

}  // namespace

QnnOpPackage_GlobalInfrastructure_t cpuOpPackageInfrastructure() { return &gInfrastructure; }

PackageOpKernel::PackageOpKernel(std::shared_ptr<const sdk::OpPackage> package, const sdk::NodeInfo& node,
                                 bool createImpl)
    : package_(std::move(package)),
      createImpl_(createImpl),
      name_(node.name),
      packageName_(node.packageName),
      typeName_(node.typeName) {}

PackageOpKernel::~PackageOpKernel() {
  if (opImpl_ && sdk::OpPackage::callable()) package_->impl().freeOpImpl(opImpl_);
}

std::string PackageOpKernel::describe() const {
  return "op '" + typeName_ + "' of op package '" + packageName_ + "'";
}

Status PackageOpKernel::init(const OpParams& params) {
  params_ = params;
  const auto& all = params_.all();
  paramTensors_.resize(all.size());  // sized once: the package keeps pointers into these
  paramStructs_.resize(all.size());
  size_t i = 0;
  for (auto& [name, value] : all) {
    QnnCpuOpPackage_Param_t& p = paramStructs_[i];
    p.name = name.c_str();
    if (value.isTensor) {
      p.type = QNN_CPU_PARAMTYPE_TENSOR;
      QNN_SDK_RETURN_IF_ERROR(fillTensor(value.dtype, value.dims, "param '" + name + "'",
                                         const_cast<uint8_t*>(value.data.data()), &paramTensors_[i].tensor,
                                         &paramTensors_[i].dims));
      p.tensorParam = &paramTensors_[i].tensor;
    } else {
      p.type = QNN_CPU_PARAMTYPE_SCALAR;
      p.scalarParam = value.scalarAsDouble();
    }
    paramPointers_.push_back(&p);
    ++i;
  }
  return Status::ok();
}

Status PackageOpKernel::bindTensors(const std::vector<TensorView>& views, const char* role,
                                    std::vector<TensorSlot>* slots, std::vector<QnnCpuOpPackage_Tensor_t*>* pointers) {
  slots->clear();
  pointers->clear();
  slots->resize(views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    TensorSlot& s = (*slots)[i];
    QNN_SDK_RETURN_IF_ERROR(fillTensor(views[i].dtype, views[i].dims, std::string(role) + " " + std::to_string(i),
                                       views[i].data, &s.tensor, &s.dims));
    pointers->push_back(&s.tensor);
  }
  return Status::ok();
}

Status PackageOpKernel::prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  QNN_SDK_RETURN_IF_ERROR(bindTensors(inputs, "input", &inputs_, &inputPointers_));
  QNN_SDK_RETURN_IF_ERROR(bindTensors(outputs, "output", &outputs_, &outputPointers_));
  node_.name = name_.c_str();
  node_.packageName = packageName_.c_str();
  node_.typeName = typeName_.c_str();
  node_.numOfParams = static_cast<uint32_t>(paramPointers_.size());
  node_.params = paramPointers_.data();
  node_.numOfInputs = static_cast<uint32_t>(inputPointers_.size());
  node_.inputs = inputPointers_.data();
  node_.numOfOutputs = static_cast<uint32_t>(outputPointers_.size());
  node_.outputs = outputPointers_.data();
  if (!createImpl_) return Status::ok();
  if (!sdk::OpPackage::callable()) return sdk::internalError("the process is exiting");
  QnnOpPackage_OpImpl_t impl = nullptr;
  Qnn_ErrorHandle_t st = package_->impl().createOpImpl(nullptr, &node_, &impl);
  if (st != QNN_SUCCESS)
    return sdk::unsupportedOp(describe() + ": createOpImpl returned error " + std::to_string(st));
  opImpl_ = impl;
  if (!opImpl_ || !opImpl_->opImplFn)
    return sdk::internalError(describe() + ": createOpImpl gave no op implementation function");
  return Status::ok();
}

Status PackageOpKernel::execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  if (!opImpl_) return sdk::invalidState(describe() + " was not prepared");
  for (size_t i = 0; i < inputs_.size() && i < inputs.size(); ++i) inputs_[i].tensor.data = inputs[i].data;
  for (size_t i = 0; i < outputs_.size() && i < outputs.size(); ++i) outputs_[i].tensor.data = outputs[i].data;
  Qnn_ErrorHandle_t st = opImpl_->opImplFn(opImpl_->userData);
  if (st != QNN_SUCCESS)
    return sdk::internalError("node '" + name_ + "' (" + describe() + ") failed with error " + std::to_string(st));
  return Status::ok();
}

}  // namespace qnn::cpu
