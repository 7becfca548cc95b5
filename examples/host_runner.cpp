// A plain OpenCL host program that knows nothing of tessera: it loads a kernel file and its
// launch description written by `tessera emit -o K.cl --json K.json` (or write_kernel_files),
// uploads the input files, launches the kernel as described and writes or checks the result.
// A program of kernels (an iterated stencil: one launch per step with intermediate buffers
// between them, time-tiled launches with a scratch buffer and per-launch arguments) is one
// source with every kernel and a description with "kernels", "buffers" and "launches": the
// launches run in order, each on the buffers it names.
//
//   example_host_runner K.cl K.json INPUT.bin... [--expect EXPECTED.bin] [--output OUT.bin]
//
// Inputs and results are raw little-endian f32 arrays in row-major order, one file per program
// input in the order of the description. With --expect, the program fails (exit 1) when any
// value differs from the expected one by more than 1e-5 relative to max(1, |expected|).
// The device: the first platform whose name contains $HOST_RUNNER_PLATFORM (default
// "Portable Computing Language", PoCL), else the first platform.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed with OpenCL error " +
                             std::to_string(status));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<float> read_floats(const std::string& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  auto bytes = static_cast<std::size_t>(in.tellg());
  if (bytes != count * sizeof(float))
    throw std::runtime_error(path + " has " + std::to_string(bytes) + " bytes, expected " +
                             std::to_string(count) + " f32 values");
  std::vector<float> values(count);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(bytes));
  return values;
}

cl_device_id pick_device() {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  if (count == 0)
    throw std::runtime_error("no OpenCL platform");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  const char* wanted = std::getenv("HOST_RUNNER_PLATFORM");
  std::string want = wanted ? wanted : "Portable Computing Language";
  cl_platform_id chosen = platforms[0];
  for (auto p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (std::string(name).find(want) != std::string::npos) {
      chosen = p;
      break;
    }
  }
  cl_device_id device;
  check(clGetDeviceIDs(chosen, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  return device;
}

// A count or extent of the description; the runner takes programs of constant sizes only.
std::size_t number(const nlohmann::json& j, const std::string& what) {
  if (!j.is_number_unsigned())
    throw std::runtime_error(what + " is " + j.dump() +
                             ": this runner needs constant sizes (emit the kernel at a size)");
  return j.get<std::size_t>();
}

// The description as a program of kernels: a single kernel's is one launch reading the program
// inputs in order and writing the output.
nlohmann::json as_program(const nlohmann::json& launch) {
  if (launch.contains("launches"))
    return launch;
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& arg : launch.at("arguments"))
    if (arg.at("role") == "input")
      inputs.push_back({{"input", inputs.size()}});
  return {{"kernels", {launch}},
          {"buffers", nlohmann::json::array()},
          {"launches", {{{"kernel", 0}, {"inputs", inputs}, {"output", "output"}}}}};
}

// The OpenCL objects of one run, released when it ends.
struct Device {
  cl_device_id device = pick_device();
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::vector<cl_kernel> kernels;
  std::vector<cl_mem> inputs, buffers;
  cl_mem output = nullptr;
  std::size_t output_count = 0;

  explicit Device(const std::string& source) {
    cl_int status;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
    check(status, "clCreateCommandQueueWithProperties");
    const char* text = source.c_str();
    program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
      char log[16384] = {};
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
      throw std::runtime_error(std::string("the kernel does not build:\n") + log);
    }
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device() {
    for (auto* list : {&inputs, &buffers})
      for (cl_mem b : *list)
        clReleaseMemObject(b);
    if (output)
      clReleaseMemObject(output);
    for (cl_kernel k : kernels)
      clReleaseKernel(k);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }

  cl_mem buffer(std::size_t count, cl_mem_flags flags, const float* values = nullptr) {
    cl_int status;
    cl_mem b = clCreateBuffer(context, flags | (values ? CL_MEM_COPY_HOST_PTR : 0),
                              count * sizeof(float), const_cast<float*>(values), &status);
    check(status, "clCreateBuffer");
    return b;
  }

  // The buffer a launch names: {"input": i}, {"buffer": i} or "output".
  cl_mem named(const nlohmann::json& ref) const {
    if (ref.is_string() && ref == "output")
      return output;
    if (ref.contains("input") && ref.at("input").get<std::size_t>() < inputs.size())
      return inputs[ref.at("input").get<std::size_t>()];
    if (ref.contains("buffer") && ref.at("buffer").get<std::size_t>() < buffers.size())
      return buffers[ref.at("buffer").get<std::size_t>()];
    throw std::runtime_error("a launch names " + ref.dump() + ", which the description lacks");
  }
};

// The program's inputs (from the files: the count of the first kernel argument that reads
// each), its intermediate buffers and its output.
void allocate(Device& d, const nlohmann::json& program, const std::vector<std::string>& files) {
  std::vector<std::size_t> input_counts;
  for (const auto& launch : program.at("launches")) {
    const auto& kernel = program.at("kernels").at(launch.at("kernel").get<std::size_t>());
    std::size_t next = 0;
    for (const auto& arg : kernel.at("arguments")) {
      std::string role = arg.at("role"), name = arg.at("name");
      if (role == "size")
        continue;
      if (arg.at("element") != "f32")
        throw std::runtime_error("argument " + name + ": this runner takes f32 buffers only");
      std::size_t count = number(arg.at("count"), "the length of " + name);
      const auto& ref = role == "output" ? launch.at("output") : launch.at("inputs").at(next++);
      if (ref.is_object() && ref.contains("input")) {
        auto i = ref.at("input").get<std::size_t>();
        if (i >= input_counts.size())
          input_counts.resize(i + 1, 0);
        input_counts[i] = input_counts[i] ? input_counts[i] : count;
      } else if (ref == "output") {
        d.output_count = count;
      }
    }
  }
  if (files.size() != input_counts.size() || d.output_count == 0)
    throw std::runtime_error("the description has " + std::to_string(input_counts.size()) +
                             " inputs, " + std::to_string(files.size()) + " files were given");
  for (std::size_t i = 0; i < files.size(); ++i)
    d.inputs.push_back(
        d.buffer(input_counts[i], CL_MEM_READ_ONLY, read_floats(files[i], input_counts[i]).data()));
  for (const auto& b : program.at("buffers")) {
    if (b.at("element") != "f32")
      throw std::runtime_error("an intermediate buffer of " + b.at("element").dump() +
                               ": this runner takes f32 buffers only");
    d.buffers.push_back(
        d.buffer(number(b.at("count"), "an intermediate buffer's length"), CL_MEM_READ_WRITE));
  }
  d.output = d.buffer(d.output_count, CL_MEM_READ_WRITE);
}

// One launch: its kernel's arguments in order (buffers as the launch names them, a size
// argument from the launch's own values), then the NDRange of the kernel's description.
void launch(Device& d, const nlohmann::json& program, const nlohmann::json& launch) {
  std::size_t index = launch.at("kernel");
  const auto& kernel = program.at("kernels").at(index);
  cl_kernel k = d.kernels.at(index);
  std::size_t next = 0;
  cl_uint position = 0;
  for (const auto& arg : kernel.at("arguments")) {
    std::string role = arg.at("role"), name = arg.at("name");
    if (role == "size") {
      if (!launch.contains("arguments") || !launch.at("arguments").contains(name))
        throw std::runtime_error("size argument " + name +
                                 ": this runner needs constant sizes (emit the kernel at a size)");
      cl_int value = launch.at("arguments").at(name);
      check(clSetKernelArg(k, position++, sizeof value, &value), "clSetKernelArg");
      continue;
    }
    cl_mem b = d.named(role == "output" ? launch.at("output") : launch.at("inputs").at(next++));
    check(clSetKernelArg(k, position++, sizeof b, &b), "clSetKernelArg");
  }
  cl_uint dims = kernel.at("dims");
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  const bool open = kernel.at("local").is_null();
  for (cl_uint i = 0; i < dims; ++i) {
    global[i] = number(kernel.at("global")[i], "the global size");
    if (!open)
      local[i] = number(kernel.at("local")[i], "the local size");
  }
  check(clEnqueueNDRangeKernel(d.queue, k, dims, nullptr, global, open ? nullptr : local, 0,
                               nullptr, nullptr),
        "clEnqueueNDRangeKernel");
}

// Runs every launch in order and returns the program's output.
std::vector<float> run(Device& d, const nlohmann::json& program,
                       const std::vector<std::string>& files) {
  for (const auto& kernel : program.at("kernels")) {
    cl_int status;
    std::string name = kernel.at("kernel");
    d.kernels.push_back(clCreateKernel(d.program, name.c_str(), &status));
    check(status, ("clCreateKernel " + name).c_str());
  }
  allocate(d, program, files);
  for (const auto& l : program.at("launches"))
    launch(d, program, l);
  std::vector<float> result(d.output_count);
  check(clEnqueueReadBuffer(d.queue, d.output, CL_TRUE, 0, result.size() * sizeof(float),
                            result.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  return result;
}

// 0 when every value is within 1e-5 of the expected one (relative to max(1, |expected|)).
int compare(const std::vector<float>& result, const std::string& expect) {
  auto expected = read_floats(expect, result.size());
  double worst = 0;
  for (std::size_t i = 0; i < result.size(); ++i)
    worst = std::max(worst, std::fabs(double(result[i]) - expected[i]) /
                                std::max(1.0, std::fabs(double(expected[i]))));
  std::cout << "max relative difference to " << expect << ": " << worst << "\n";
  if (worst > 1e-5) {
    std::cout << "MISMATCH\n";
    return 1;
  }
  std::cout << "OK\n";
  return 0;
}

} // namespace

int main(int argc, char** argv) try {
  std::vector<std::string> inputs;
  std::string expect, output;
  for (int i = 3; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--expect") && i + 1 < argc)
      expect = argv[++i];
    else if (!std::strcmp(argv[i], "--output") && i + 1 < argc)
      output = argv[++i];
    else
      inputs.push_back(argv[i]);
  }
  if (argc < 3) {
    std::cerr << "usage: " << argv[0] << " K.cl K.json INPUT.bin... [--expect F] [--output F]\n";
    return 2;
  }
  auto description = nlohmann::json::parse(read_text(argv[2]));
  if (description.value("format", "") != "tessera-launch")
    throw std::runtime_error(std::string(argv[2]) + " is not a tessera launch description");
  nlohmann::json program = as_program(description);
  std::vector<float> result;
  {
    Device device(read_text(argv[1]));
    result = run(device, program, inputs);
  }
  const auto& launches = program.at("launches");
  std::cout << "ran " << launches.size() << " launch" << (launches.size() == 1 ? "" : "es")
            << " of " << program.at("kernels").size() << " kernel"
            << (program.at("kernels").size() == 1 ? "" : "s") << " (";
  for (std::size_t l = 0; l < launches.size(); ++l) {
    const auto& kernel = program.at("kernels").at(launches[l].at("kernel").get<std::size_t>());
    std::cout << (l ? ", " : "") << kernel.at("kernel").get<std::string>() << " global";
    for (std::size_t d = 0; d < kernel.at("global").size(); ++d)
      std::cout << (d ? " x " : " ") << kernel.at("global")[d].dump();
  }
  std::cout << "): " << result.size() << " values\n";
  if (!output.empty()) {
    std::ofstream out(output, std::ios::binary);
    out.write(reinterpret_cast<const char*>(result.data()),
              static_cast<std::streamsize>(result.size() * sizeof(float)));
  }
  return expect.empty() ? 0 : compare(result, expect);
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
