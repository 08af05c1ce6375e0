// Runs ONNX models through ONNX Runtime's QNN Execution Provider plugin on our backends and compares
// every output with ONNX Runtime's own CPU provider in the same process: plain runs with the
// provider options the EP documents (the device, performance and graph options one value at a
// time, a device id the simulator lacks, JSON graph dumps, op packages with a custom-domain node),
// EP context models (embed modes 1 and 0, with the spill-fill buffer) reloaded in a new session, two
// models sharing one context, and profiling to a file (basic, detailed, op trace).
//
//   ort_qnn_ep_models MODEL_DIR CPU_BACKEND HTP_BACKEND [QNN_TRACE_REPLAY]
//
// With qnn-trace-replay given, a session recorded through our Saver (qnn_saver_path, forwarding to the
// HTP backend) is replayed on the HTP and must reproduce the recorded outputs. With base.bin and
// base_one.bin in MODEL_DIR (tests/tools/lora's graph through qnn-context-binary-generator
// --adapter_weight_config), an EP context model over them switches to the adapter by qnn.lora_config.
// With OPENQNN_OP_PACKAGE_DIR naming the folder of libExampleElementwise.so (oppackages/), a
// ScaledSoftplus node runs through op_packages on the CPU backend.
//
// The plugin library is the user's (OPENQNN_QNN_EP_PLUGIN, e.g. libonnxruntime_providers_qnn.so built
// from onnxruntime/onnxruntime-qnn against our SDK); ONNX Runtime is the one this program was built
// with (OPENQNN_ORT_ROOT at configure). Without a plugin the program skips (exit 77).
// Every node must run on our backend: on the HTP, CPU fallback is disabled (a node the EP does not
// take fails the session); on the CPU backend the EP itself refuses that setting, so the session logs
// ONNX Runtime's node placements and the harness requires "All nodes placed on [QNN...]".
#include <onnxruntime_cxx_api.h>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kSkip = 77;
// The plugin names its EP after the name it is registered under (CreateEpFactories' registration_name).
constexpr const char* kRegistrationName = "QNNExecutionProvider";
using Options = std::unordered_map<std::string, std::string>;

struct Tolerance {
  double abs;  // |ours - ORT| <= abs + rel * max|ORT|
  double rel;
  const char* why;
};
// The EP's own test tolerances: float on the CPU backend near float32 rounding; fp16 on the HTP
// relative to the outputs' range; QDQ within one step of the output's quantization (u8 4/255,
// u16 4/65535, plus float rounding of the dequantized value).
const Tolerance kFloat32{1e-5, 1e-4, "float32"};
const Tolerance kFp16{1e-3, 4e-3, "fp16"};
const Tolerance kU8Step{4.0 / 255 + 1e-6, 0, "one uint8 step"};
const Tolerance kU16Step{4.0 / 65535 + 1e-6, 0, "one uint16 step"};

// ONNX Runtime's log: warnings and errors printed and kept, the node placement lines kept.
std::string gPlacements, gWarnings;
void ortLog(void*, OrtLoggingLevel severity, const char*, const char*, const char* codeLocation, const char* message) {
  std::string m = message;
  if (m.find("placed on [") != std::string::npos) gPlacements += m + "\n";
  if (severity >= ORT_LOGGING_LEVEL_WARNING) {
    std::fprintf(stderr, "[ort] %s: %s\n", codeLocation, message);
    gWarnings += m + "\n";
  }
}

// The line of ONNX Runtime's warnings holding `text` (empty if none).
std::string warningWith(const std::string& text) {
  size_t at = gWarnings.find(text);
  if (at == std::string::npos) return "";
  size_t begin = gWarnings.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return gWarnings.substr(begin, gWarnings.find('\n', at) - begin);
}

struct Outputs {
  std::vector<std::vector<float>> values;
  std::vector<std::string> names;
};

struct Harness {
  Ort::Env& env;
  Ort::ConstEpDevice device;
  std::string modelDir;
  Options backends;  // "cpu"/"htp" -> library path
  int failed = 0;
  int passed = 0;

  std::string model(const std::string& file) const { return modelDir + "/" + file; }

  Ort::SessionOptions qnnSession(const std::string& backend, Options options, const Options& config = {}) {
    Ort::SessionOptions so;
    if (backend == "cpu")
      so.SetLogSeverityLevel(ORT_LOGGING_LEVEL_VERBOSE);  // for the placement lines (open() checks them)
    else
      so.AddConfigEntry("session.disable_cpu_ep_fallback", "1");
    for (const auto& [k, v] : config) so.AddConfigEntry(k.c_str(), v.c_str());
    options["backend_path"] = backends.at(backend);
    so.AppendExecutionProvider_V2(env, {device}, options);
    return so;
  }

  // Opens a session; on the CPU backend, fails unless ONNX Runtime placed every node on the EP.
  Ort::Session open(const std::string& path, Ort::SessionOptions& so, const std::string& backend) {
    gPlacements.clear();
    Ort::Session session(env, path.c_str(), so);
    if (backend == "cpu" && gPlacements.find("All nodes placed on [" + std::string(kRegistrationName) + "]") ==
                                std::string::npos)
      throw Ort::Exception("not every node was placed on the QNN EP:\n" + gPlacements, ORT_FAIL);
    return session;
  }

  void report(bool ok, const std::string& what, const std::string& detail) {
    std::printf("%s %s: %s\n", ok ? "ok  " : "FAIL", what.c_str(), detail.c_str());
    ok ? ++passed : ++failed;
  }

  // Runs `body`; an ONNX Runtime error is this check's failure, not the program's.
  void check(const std::string& what, const std::function<void()>& body) {
    try {
      body();
    } catch (const Ort::Exception& e) {
      report(false, what, e.what());
    }
  }

  void compare(const std::string& what, const Outputs& ours, const Outputs& ref, const Tolerance& tol) {
    if (ours.values.size() != ref.values.size()) {
      report(false, what, "output count differs from ORT's");
      return;
    }
    for (size_t o = 0; o < ref.values.size(); ++o) {
      const auto& a = ours.values[o];
      const auto& b = ref.values[o];
      if (a.size() != b.size()) {
        report(false, what, "output " + ref.names[o] + " has " + std::to_string(a.size()) + " values, ORT's " +
                                std::to_string(b.size()));
        continue;
      }
      double maxRef = 0, maxErr = 0;
      for (size_t i = 0; i < b.size(); ++i) {
        maxRef = std::max(maxRef, std::fabs(double(b[i])));
        double e = std::fabs(double(a[i]) - double(b[i]));
        maxErr = std::isnan(e) ? INFINITY : std::max(maxErr, e);
      }
      double limit = tol.abs + tol.rel * maxRef;
      char line[256];
      std::snprintf(line, sizeof line, "output %s max |diff| %.3g (tolerance %.3g: %s)", ref.names[o].c_str(),
                    maxErr, limit, tol.why);
      report(maxErr <= limit, what, line);
    }
  }
};

std::vector<float> randomInput(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = dist(gen);
  return v;
}

// Runs the session on its seeded input; with `inputAllocator`, the input lives in that allocator's memory.
Outputs run(Ort::Session& session, const Ort::RunOptions& runOptions = Ort::RunOptions{nullptr},
            OrtAllocator* inputAllocator = nullptr) {
  Ort::AllocatorWithDefaultOptions alloc;
  auto inputName = session.GetInputNameAllocated(0, alloc);
  auto shape = session.GetInputTypeInfo(0).GetTensorTypeAndShapeInfo().GetShape();
  size_t count = 1;
  for (int64_t d : shape) count *= static_cast<size_t>(d);
  std::vector<float> input = randomInput(count, 7);
  Ort::MemoryInfo mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
  Ort::Value tensor{nullptr};
  if (inputAllocator) {
    tensor = Ort::Value::CreateTensor<float>(inputAllocator, shape.data(), shape.size());
    std::copy(input.begin(), input.end(), tensor.GetTensorMutableData<float>());
  } else {
    tensor = Ort::Value::CreateTensor<float>(mem, input.data(), input.size(), shape.data(), shape.size());
  }

  Outputs out;
  std::vector<Ort::AllocatedStringPtr> held;
  std::vector<const char*> outNames;
  for (size_t i = 0; i < session.GetOutputCount(); ++i) {
    held.push_back(session.GetOutputNameAllocated(i, alloc));
    outNames.push_back(held.back().get());
    out.names.emplace_back(held.back().get());
  }
  const char* inNames[] = {inputName.get()};
  auto results = session.Run(runOptions, inNames, &tensor, 1, outNames.data(), outNames.size());
  for (auto& r : results) {
    const float* p = r.GetTensorData<float>();
    out.values.emplace_back(p, p + r.GetTensorTypeAndShapeInfo().GetElementCount());
  }
  return out;
}

Outputs run(Ort::Env& env, const std::string& path, Ort::SessionOptions& options) {
  Ort::Session session(env, path.c_str(), options);
  return run(session);
}

Outputs reference(Ort::Env& env, const std::string& path) {
  Ort::SessionOptions cpuOnly;
  return run(env, path, cpuOnly);
}

off_t fileSize(const std::string& path) {
  struct stat st{};
  return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

// One model on one backend with the given provider options, against ORT's CPU provider.
void plainRun(Harness& h, const std::string& file, const std::string& backend, const Options& options,
              const Tolerance& tol, const std::string& label = "") {
  std::string what = file + " on " + backend + (label.empty() ? "" : " (" + label + ")");
  h.check(what, [&] {
    Outputs ref = reference(h.env, h.model(file));
    auto so = h.qnnSession(backend, options);
    Ort::Session session = h.open(h.model(file), so, backend);
    h.compare(what, run(session), ref, tol);
  });
}

// EP context model: generated by one session, run by a new one from the _ctx.onnx alone.
void epContextRoundTrip(Harness& h, const std::string& file, const std::string& backend, const Options& options,
                        const Tolerance& tol, int embedMode, const std::string& label = "") {
  std::string what = file + " on " + backend + " (EP context, embed mode " + std::to_string(embedMode) +
                     (label.empty() ? "" : ", " + label) + ")";
  h.check(what, [&] {
    std::string ctx = file.substr(0, file.size() - 5) + "_" + backend + "_embed" + std::to_string(embedMode) + "_ctx.onnx";
    std::remove(ctx.c_str());
    {
      auto gen = h.qnnSession(backend, options,
                              {{"ep.context_enable", "1"}, {"ep.context_file_path", ctx},
                               {"ep.context_embed_mode", std::to_string(embedMode)}});
      Ort::Session session(h.env, h.model(file).c_str(), gen);
    }
    if (fileSize(ctx) <= 0) {
      h.report(false, what, "no context model written at " + ctx);
      return;
    }
    Outputs ref = reference(h.env, h.model(file));
    auto load = h.qnnSession(backend, options);
    Ort::Session session = h.open(ctx, load, backend);
    h.compare(what, run(session), ref, tol);
  });
}

// Two models compiled into one shared context (ep.share_ep_contexts; the last one stops sharing)
// and both reloaded in sessions that share it again.
void sharedContexts(Harness& h, const std::string& a, const Tolerance& tolA, const std::string& b,
                    const Tolerance& tolB, const Options& options) {
  std::string what = a + " + " + b + " on htp (ep.share_ep_contexts)";
  h.check(what, [&] {
    std::string ctxA = "shared_a_ctx.onnx", ctxB = "shared_b_ctx.onnx";
    std::remove(ctxA.c_str());
    std::remove(ctxB.c_str());
    {
      auto genA = h.qnnSession("htp", options, {{"ep.context_enable", "1"}, {"ep.context_file_path", ctxA},
                                                {"ep.context_embed_mode", "0"}, {"ep.share_ep_contexts", "1"}});
      Ort::Session sa(h.env, h.model(a).c_str(), genA);
      auto genB = h.qnnSession("htp", options, {{"ep.context_enable", "1"}, {"ep.context_file_path", ctxB},
                                                {"ep.context_embed_mode", "0"}, {"ep.share_ep_contexts", "1"},
                                                {"ep.stop_share_ep_contexts", "1"}});
      Ort::Session sb(h.env, h.model(b).c_str(), genB);
    }
    auto loadA = h.qnnSession("htp", options, {{"ep.share_ep_contexts", "1"}});
    Ort::Session sa(h.env, ctxA.c_str(), loadA);
    auto loadB = h.qnnSession("htp", options, {{"ep.share_ep_contexts", "1"}, {"ep.stop_share_ep_contexts", "1"}});
    Ort::Session sb(h.env, ctxB.c_str(), loadB);
    h.compare(what + " first", run(sa), reference(h.env, h.model(a)), tolA);
    h.compare(what + " second", run(sb), reference(h.env, h.model(b)), tolB);
  });
}

// profiling_level with profiling_file_path: the EP writes the backend's events as CSV.
void profilingToFile(Harness& h, const std::string& file, const std::string& backend, const std::string& level) {
  std::string what = file + " on " + backend + " (profiling_level " + level + ")";
  h.check(what, [&] {
    std::string csv = "profile_" + backend + "_" + level + ".csv";
    std::remove(csv.c_str());
    {
      auto so = h.qnnSession(backend, {{"profiling_level", level}, {"profiling_file_path", csv}});
      Ort::Session session = h.open(h.model(file), so, backend);
      run(session);
    }
    off_t size = fileSize(csv);
    h.report(size > 0, what, size > 0 ? std::to_string(size) + " bytes of events in " + csv : "no profile at " + csv);
  });
}

// qnn_saver_path: the EP loads our Saver as its backend; the Saver forwards to the HTP
// (QNN_SAVER_BACKEND) and records every call; qnn-trace-replay reproduces the recorded outputs.
void saverRecordsAndReplays(Harness& h, const std::string& file, const std::string& replayTool) {
  std::string what = file + " on htp through the Saver (qnn_saver_path)";
  h.check(what, [&] {
    const std::string htp = h.backends.at("htp");
    const std::string saver = htp.substr(0, htp.rfind('/') + 1) + "libQnnSaver.so";
    const std::string trace = "saver_output/saver_output.qnntrace";
    std::remove(trace.c_str());
    setenv("QNN_SAVER_BACKEND", htp.c_str(), 1);
    {
      auto so = h.qnnSession("htp", {{"qnn_saver_path", saver}, {"htp_performance_mode", "burst"}});
      Ort::Session session = h.open(h.model(file), so, "htp");
      h.compare(what, run(session), reference(h.env, h.model(file)), kU8Step);
    }
    unsetenv("QNN_SAVER_BACKEND");
    if (fileSize(trace) <= 0) {
      h.report(false, what, "no trace at " + trace);
      return;
    }
    const std::string command = "'" + replayTool + "' --trace " + trace + " --backend '" + htp + "' --compare";
    int rc = std::system(command.c_str());
    h.report(rc == 0, what + ", replayed", command + (rc == 0 ? ": outputs reproduced" : ": failed"));
  });
}

// LoRAv2: an EP context model over a base binary made by our qnn-context-binary-generator
// --adapter_weight_config; the run option qnn.lora_config ("<graph>;<adapter binary>") applies the
// adapter's binary section, and the outputs must follow the adapter's weights.
void loraAdapter(Harness& h) {
  std::string what = "lora_ctx.onnx on htp (qnn.lora_config)";
  h.check(what, [&] {
    auto so = h.qnnSession("htp", {});
    Ort::Session session = h.open(h.model("lora_ctx.onnx"), so, "htp");
    h.compare(what + " base weights", run(session), reference(h.env, h.model("lora_base_ref.onnx")), kFp16);
    const std::string config = "lora_config.txt";
    FILE* f = std::fopen(config.c_str(), "w");
    std::fprintf(f, "lora;%s\n", h.model("base_one.bin").c_str());
    std::fclose(f);
    Ort::RunOptions withAdapter;
    withAdapter.AddConfigEntry("qnn.lora_config", config.c_str());
    h.compare(what + " adapter one", run(session, withAdapter), reference(h.env, h.model("lora_one_ref.onnx")), kFp16);
  });
}

// enable_htp_shared_memory_allocator: the EP allocates through libcdsprpc.so (ours, on memfd) and
// registers the buffers with QnnMem_register; the input is placed in that memory.
void sharedMemoryInput(Harness& h, const std::string& file) {
  std::string what = file + " on htp (enable_htp_shared_memory_allocator, input in shared memory)";
  h.check(what, [&] {
    auto so = h.qnnSession("htp", {{"enable_htp_shared_memory_allocator", "1"}});
    Ort::Session session = h.open(h.model(file), so, "htp");
    Ort::ConstMemoryInfo shared = h.device.GetMemoryInfo(OrtDeviceMemoryType_HOST_ACCESSIBLE);
    if (!shared) {
      h.report(false, what, "the EP device has no host-accessible memory");
      return;
    }
    Ort::Allocator allocator(session, shared);
    h.compare(what, run(session, Ort::RunOptions{nullptr}, allocator), reference(h.env, h.model(file)), kU8Step);
  });
}


// The rows of the EP's profiling CSV (Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,
// Event Level,Event Identifier); the identifier is the rest of the line (it may hold commas).
struct CsvEvent {
  uint64_t timestamp = 0, value = 0;
  std::string message, unit, level, identifier;
};
std::vector<CsvEvent> readProfileCsv(const std::string& path) {
  std::vector<CsvEvent> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    size_t at = 0;
    for (int i = 0; i < 6; ++i) {
      size_t comma = line.find(',', at);
      if (comma == std::string::npos) break;
      f.push_back(line.substr(at, comma - at));
      at = comma + 1;
    }
    if (f.size() != 6) continue;
    CsvEvent e;
    e.timestamp = std::strtoull(f[0].c_str(), nullptr, 10);
    e.message = f[1];
    e.value = std::strtoull(f[2].c_str(), nullptr, 10);
    e.unit = f[3];
    e.level = f[5];
    e.identifier = line.substr(at);
    rows.push_back(e);
  }
  return rows;
}

// profiling_level optrace: the EP enables QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE on a detailed
// profile. On the HTP every node gets a trace event (estimated cycles, with the node's start on the
// accelerator's timeline) beside its node event's cycle estimate; the CPU backend has no op trace
// and refuses the config, which fails the session.
// With `viewer` (our qnn-profile-viewer), the EP's profiling log (<csv stem>_qnn.log, written through
// QnnSystemProfile) must read, its Chrome trace holding every trace event.
void opTraceProfile(Harness& h, const std::string& file, const Options& options, const std::string& viewer) {
  std::string what = file + " on htp (profiling_level optrace)";
  h.check(what, [&] {
    const std::string csv = "profile_htp_optrace.csv";
    std::remove(csv.c_str());
    Options withTrace = options;
    withTrace["profiling_level"] = "optrace";
    withTrace["profiling_file_path"] = csv;
    {
      auto so = h.qnnSession("htp", withTrace);
      Ort::Session session = h.open(h.model(file), so, "htp");
      run(session);
    }
    std::vector<CsvEvent> traces, estimates;
    for (const CsvEvent& e : readProfileCsv(csv)) {
      if (e.identifier.find("): op trace") != std::string::npos) traces.push_back(e);
      if (e.identifier.find(": estimated HTP cycles (") != std::string::npos) estimates.push_back(e);
    }
    bool ok = !traces.empty() && traces.size() == estimates.size();
    for (size_t i = 0; ok && i < traces.size(); ++i)
      ok = traces[i].unit == "CYCLES" && traces[i].value == estimates[i].value && traces[i].value > 0 &&
           (i == 0 || traces[i].timestamp >= traces[i - 1].timestamp);
    h.report(ok, what,
             std::to_string(traces.size()) + " per-node trace events with start timestamps, " +
                 std::to_string(estimates.size()) + " node cycle estimates" +
                 (ok ? ", values equal, timestamps in node order" : ": mismatch"));
    if (viewer.empty()) return;
    const std::string chrome = "profile_htp_optrace_trace.json";
    std::remove(chrome.c_str());
    const std::string command = "'" + viewer + "' --input_log profile_htp_optrace_qnn.log --output " + chrome + " >/dev/null";
    int rc = std::system(command.c_str());
    std::ifstream in(chrome);
    std::stringstream text;
    text << in.rdbuf();
    size_t inTrace = 0;
    for (size_t at = text.str().find("): op trace"); at != std::string::npos; at = text.str().find("): op trace", at + 1))
      ++inTrace;
    h.report(rc == 0 && inTrace == traces.size(), what + ", qnn-profile-viewer",
             command + ": " + std::to_string(inTrace) + " trace events in the Chrome trace");
  });
  std::string cpu = file + " on cpu (profiling_level optrace refused)";
  h.check(cpu, [&] {
    gWarnings.clear();
    try {
      auto so = h.qnnSession("cpu", {{"profiling_level", "optrace"}, {"profiling_file_path", "profile_cpu_optrace.csv"}});
      Ort::Session session = h.open(h.model("float_cnn.onnx"), so, "cpu");
      h.report(false, cpu, "every node was placed on the EP");
    } catch (const Ort::Exception&) {
      std::string line = warningWith("Failed to enable op trace");
      h.report(!line.empty(), cpu, line.empty() ? "no op trace refusal in ONNX Runtime's log" : line);
    }
  });
}

// A placeholder for a custom op's schema: ONNX Runtime resolves a graph only with a schema for every
// node; the QNN EP takes the node (op_packages), so the kernel never runs.
struct PlaceholderKernel {
  PlaceholderKernel(const OrtApi&, const OrtKernelInfo*) {}
  void Compute(OrtKernelContext*) { std::fprintf(stderr, "placeholder kernel ran: the QNN EP did not take the node\n"); }
};
struct PlaceholderOp : Ort::CustomOpBase<PlaceholderOp, PlaceholderKernel> {
  explicit PlaceholderOp(const char* name) : name_(name) {}
  void* CreateKernel(const OrtApi& api, const OrtKernelInfo* info) const { return new PlaceholderKernel(api, info); }
  const char* GetName() const { return name_; }
  size_t GetInputTypeCount() const { return 1; }
  ONNXTensorElementDataType GetInputType(size_t) const { return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT; }
  size_t GetOutputTypeCount() const { return 1; }
  ONNXTensorElementDataType GetOutputType(size_t) const { return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT; }
  const char* name_;
};

// op_packages ("<op_type>:<path>:<interface symbol>[:<target>]"): the EP registers the package and
// maps every node of that op type to the op "<op_type>" of the package named after the interface
// symbol without its "InterfaceProvider" suffix. The model: one ScaledSoftplus node (beta 2) in a
// custom domain, against the formula in double precision.
void opPackageNode(Harness& h, const std::string& packageDir) {
  std::string what = "custom_softplus.onnx on cpu (op_packages, ExampleElementwise's ScaledSoftplus)";
  h.check(what, [&] {
    const std::string spec = "ScaledSoftplus:" + packageDir + "/libExampleElementwise.so:ExampleElementwiseInterfaceProvider:CPU";
    static PlaceholderOp op("ScaledSoftplus");
    static Ort::CustomOpDomain domain("openqnn.examples");
    static bool added = (domain.Add(&op), true);
    (void)added;
    auto so = h.qnnSession("cpu", {{"op_packages", spec}});
    so.Add(domain);
    Ort::Session session = h.open(h.model("custom_softplus.onnx"), so, "cpu");
    Outputs ours = run(session);
    Outputs ref;
    ref.names = ours.names;
    std::vector<float> x = randomInput(ours.values.empty() ? 0 : ours.values[0].size(), 7);
    std::vector<float> y;
    const double beta = 2.0;
    for (float v : x) y.push_back(float(std::log1p(std::exp(beta * v)) / beta));
    ref.values.push_back(y);
    h.compare(what, ours, ref, kFloat32);
  });
}

// dump_json_qnn_graph with json_qnn_graph_dir: the EP writes each QNN graph it builds as JSON there.
void jsonGraphDump(Harness& h, const std::string& file) {
  const std::string dir = "json_graphs";
  mkdir(dir.c_str(), 0755);
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') std::remove((dir + "/" + e->d_name).c_str());
    closedir(d);
  }
  plainRun(h, file, "htp", {{"dump_json_qnn_graph", "1"}, {"json_qnn_graph_dir", dir}}, kU8Step, "dump_json_qnn_graph");
  std::string found;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 5 && name.substr(name.size() - 5) == ".json" &&
          name.find("_tensor_log.json") == std::string::npos && fileSize(dir + "/" + name) > 0)
        found = name;
    }
    closedir(d);
  }
  std::ifstream in(dir + "/" + found);
  std::stringstream text;
  text << in.rdbuf();
  bool ok = !found.empty() && text.str().find("\"type\":\"Conv2d\"") != std::string::npos;
  h.report(ok, file + " on htp (json_qnn_graph_dir)",
           ok ? dir + "/" + found + " holds the QNN graph (its Conv2d node)" : "no JSON graph with the Conv2d in " + dir);
}

// "key value, key value" for a check's name.
std::string describe(const Options& options) {
  std::string text;
  for (const auto& [k, v] : options) text += (text.empty() ? "" : ", ") + k + " " + v;
  return text;
}

// The device, performance and graph options the EP documents, one session per value: each accepted
// and the outputs right.
void htpOptionSweep(Harness& h, const std::string& file) {
  std::vector<Options> sweep;
  for (const char* arch : {"73", "75", "79", "81"}) sweep.push_back({{"htp_arch", arch}});
  sweep.push_back({{"device_id", "0"}});
  sweep.push_back({{"device_id", "0"}, {"htp_arch", "75"}});
  for (const char* mb : {"0", "8", "16"}) sweep.push_back({{"vtcm_mb", mb}});
  for (const char* mode : {"burst", "balanced", "default", "high_performance", "high_power_saver", "low_balanced",
                           "extreme_power_saver", "low_power_saver", "power_saver", "sustained_high_performance"})
    sweep.push_back({{"htp_performance_mode", mode}});
  for (const char* priority : {"low", "normal", "normal_high", "high"}) sweep.push_back({{"qnn_context_priority", priority}});
  for (const char* mode : {"1", "2", "3"}) sweep.push_back({{"htp_graph_finalization_optimization_mode", mode}});
  for (const Options& options : sweep) {
    plainRun(h, file, "htp", options, kU8Step, describe(options));
  }
}

// A device id the simulator does not have (it models one HTP, device 0): a clear error, never a
// crash. The EP passes device_id in the device's arch config (with htp_arch): the backend refuses
// the device and the EP takes no node, so the session fails. It passes it to createPowerConfigId
// (with htp_performance_mode): refused there, the EP logs it and runs without the power vote.
void unknownDevice(Harness& h, const std::string& file) {
  struct Case {
    Options options;
    const char* logged;
    bool runs;
  };
  for (const Case& c : {Case{{{"device_id", "1"}, {"htp_arch", "73"}}, "Failed to create device", false},
                        Case{{{"device_id", "1"}, {"htp_performance_mode", "burst"}}, "power config id", true}}) {
    std::string what = file + " on htp (" + describe(c.options) + ")";
    gWarnings.clear();
    bool ran = false;
    h.check(what, [&] {
      try {
        auto so = h.qnnSession("htp", c.options);
        Ort::Session session(h.env, h.model(file).c_str(), so);
        h.compare(what + " outputs", run(session), reference(h.env, h.model(file)), kU8Step);
        ran = true;
      } catch (const Ort::Exception&) {
        if (c.runs) throw;
      }
      std::string line = warningWith(c.logged);
      h.report(ran == c.runs && !line.empty(), what, (ran ? "ran; " : "refused; ") + (line.empty() ? "no error logged" : line));
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s MODEL_DIR CPU_BACKEND HTP_BACKEND [QNN_TRACE_REPLAY]\n", argv[0]);
    return 2;
  }
  const char* plugin = std::getenv("OPENQNN_QNN_EP_PLUGIN");
  if (!plugin || !*plugin) {
    std::printf("skipped: set OPENQNN_QNN_EP_PLUGIN to ONNX Runtime's QNN EP plugin library\n");
    return kSkip;
  }
  try {
    Ort::Env env(ORT_LOGGING_LEVEL_WARNING, "openqnn-ort-qnn-ep", ortLog, nullptr);
    env.RegisterExecutionProviderLibrary(kRegistrationName, plugin);
    Ort::ConstEpDevice qnnDevice{nullptr};
    std::string seen;
    for (const auto& d : env.GetEpDevices()) {
      seen += std::string(seen.empty() ? "" : ", ") + d.EpName();
      if (std::string(d.EpName()) == kRegistrationName) qnnDevice = d;
    }
    if (!qnnDevice) {
      std::printf("FAIL: %s registered no %s device (devices: %s)\n", plugin, kRegistrationName, seen.c_str());
      return 1;
    }
    Harness h{env, qnnDevice, argv[1], {{"cpu", argv[2]}, {"htp", argv[3]}}};
    // The EP takes fp16 precision only with a SoC named (one whose HTP has a float unit).
    const Options fp16{{"enable_htp_fp16_precision", "1"}, {"soc_model", "87"}};

    plainRun(h, "float_cnn.onnx", "cpu", {}, kFloat32);
    plainRun(h, "float_attention.onnx", "cpu", {}, kFloat32);
    plainRun(h, "float_cnn.onnx", "htp", fp16, kFp16);
    plainRun(h, "float_attention.onnx", "htp", fp16, kFp16);
    plainRun(h, "qdq_u8_conv.onnx", "htp", {}, kU8Step);
    plainRun(h, "qdq_u16_conv.onnx", "htp", {}, kU16Step);
    // The HTP options the EP documents, each honoured or, for device-only knobs, accepted.
    plainRun(h, "qdq_u8_conv.onnx", "htp",
             {{"htp_performance_mode", "burst"}, {"rpc_control_latency", "100"}, {"vtcm_mb", "8"},
              {"htp_graph_finalization_optimization_mode", "3"}, {"qnn_context_priority", "high"},
              {"soc_model", "60"}, {"htp_arch", "73"}, {"device_id", "0"}},
             kU8Step, "device, performance and graph options");
    plainRun(h, "qdq_u8_conv.onnx", "htp", {{"offload_graph_io_quantization", "0"}}, kU8Step,
             "graph I/O quantized by the backend");
    for (int embed : {1, 0}) epContextRoundTrip(h, "qdq_u8_conv.onnx", "htp", {}, kU8Step, embed);
    epContextRoundTrip(h, "float_cnn.onnx", "htp", fp16, kFp16, 1);
    sharedContexts(h, "qdq_u8_conv.onnx", kU8Step, "qdq_u16_conv.onnx", kU16Step, {});
    for (const char* level : {"basic", "detailed"}) profilingToFile(h, "float_cnn.onnx", "htp", level);
    profilingToFile(h, "float_cnn.onnx", "cpu", "detailed");
    // Our tools sit together (qnn-trace-replay's folder holds qnn-profile-viewer).
    const std::string tools = argc == 5 ? std::string(argv[4]).substr(0, std::string(argv[4]).rfind('/') + 1) : "";
    opTraceProfile(h, "float_cnn.onnx", fp16, tools.empty() ? "" : tools + "qnn-profile-viewer");
    htpOptionSweep(h, "qdq_u8_conv.onnx");
    unknownDevice(h, "qdq_u8_conv.onnx");
    jsonGraphDump(h, "qdq_u8_conv.onnx");
    epContextRoundTrip(h, "qdq_u8_conv.onnx", "htp", {{"enable_htp_spill_fill_buffer", "1"}}, kU8Step, 0,
                       "enable_htp_spill_fill_buffer");
    if (const char* packages = std::getenv("OPENQNN_OP_PACKAGE_DIR")) opPackageNode(h, packages);
    if (argc == 5) saverRecordsAndReplays(h, "qdq_u8_conv.onnx", argv[4]);
    if (fileSize(h.model("base_one.bin")) > 0) loraAdapter(h);
    // Last: a session made after one with the shared allocator was released crashes inside ONNX Runtime
    // 1.30 (no frame of ours; the EP's device allocator outlives the EP that made it).
    sharedMemoryInput(h, "qdq_u8_conv.onnx");

    std::printf("%d passed, %d failed\n", h.passed, h.failed);
    return h.failed ? 1 : 0;
  } catch (const Ort::Exception& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
}
