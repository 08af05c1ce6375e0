// Runs one node of a registered op package on the CPU backend, through the
// vendor CPU op package interface (CPU/QnnCpuOpPackage.h): the node is shown to
// the package as a QnnCpuOpPackage_Node_t, createOpImpl runs when the graph is
// prepared, opImplFn at every execute, freeOpImpl when the graph is freed.
// Documented in docs/op-packages.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "CPU/QnnCpuOpPackage.h"
#include "graph/graph_ir.h"
#include "cpu/kernels/kernel.h"
#include "runtime/op_package_registry.h"

namespace qnn::cpu {

// The global infrastructure every package's init receives: reportMessage logs
// through the backend's logger, profile is accepted and logged at debug level.
// Static storage, valid for the process.
QnnOpPackage_GlobalInfrastructure_t cpuOpPackageInfrastructure();

// A Kernel over a package op. The node struct, its tensors and params live in
// this object from createOpImpl to freeOpImpl at stable addresses (packages keep
// pointers to them); execute only refreshes the data pointers.
class PackageOpKernel : public Kernel {
 public:
  // createImpl false: validation only (init/prepare check datatypes; the
  // package's createOpImpl is not called).
  PackageOpKernel(std::shared_ptr<const sdk::OpPackage> package, const sdk::NodeInfo& node, bool createImpl);
  ~PackageOpKernel() override;
  PackageOpKernel(const PackageOpKernel&) = delete;
  PackageOpKernel& operator=(const PackageOpKernel&) = delete;

  Status init(const OpParams& params) override;
  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override;
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override;

 private:
  struct TensorSlot {
    QnnCpuOpPackage_Tensor_t tensor = QNN_CPU_OP_PACKAGE_TENSOR_INIT;
    std::vector<uint32_t> dims;
  };
  Status bindTensors(const std::vector<TensorView>& views, const char* role, std::vector<TensorSlot>* slots,
                     std::vector<QnnCpuOpPackage_Tensor_t*>* pointers);
  std::string describe() const;

  std::shared_ptr<const sdk::OpPackage> package_;  // declared first: outlives the op impl
  bool createImpl_;
  std::string name_, packageName_, typeName_;
  OpParams params_;  // owned copy: tensor params' data is shown to the package
  std::vector<TensorSlot> paramTensors_;
  std::vector<QnnCpuOpPackage_Param_t> paramStructs_;
  std::vector<QnnCpuOpPackage_Param_t*> paramPointers_;
  std::vector<TensorSlot> inputs_, outputs_;
  std::vector<QnnCpuOpPackage_Tensor_t*> inputPointers_, outputPointers_;
  QnnCpuOpPackage_Node_t node_ = QNN_CPU_OP_PACKAGE_NODE_INIT;
  QnnCpuOpPackage_OpImpl_t* opImpl_ = nullptr;  // owned by the package; freed with freeOpImpl
};

}  // namespace qnn::cpu
