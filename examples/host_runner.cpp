// A plain OpenCL host program that knows nothing of tessera: it loads a kernel file and its
// launch description written by `tessera emit -o K.cl --json K.json` (or write_kernel_files),
// uploads the input files, launches the kernel as described and writes or checks the result.
//
//   example_host_runner K.cl K.json INPUT.bin... [--expect EXPECTED.bin] [--output OUT.bin]
//
// Inputs and results are raw little-endian f32 arrays in row-major order, one file per input
// argument in the order of the description. With --expect, the program fails (exit 1) when
// any value differs from the expected one by more than 1e-5 relative to max(1, |expected|).
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
  std::string source = read_text(argv[1]);
  auto launch = nlohmann::json::parse(read_text(argv[2]));
  if (launch.value("format", "") != "tessera-launch")
    throw std::runtime_error(std::string(argv[2]) + " is not a tessera launch description");

  cl_device_id device = pick_device();
  cl_int status;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");
  const char* text = source.c_str();
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
  check(status, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    char log[16384] = {};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
    throw std::runtime_error(std::string("the kernel does not build:\n") + log);
  }
  std::string name = launch.at("kernel");
  cl_kernel kernel = clCreateKernel(program, name.c_str(), &status);
  check(status, "clCreateKernel");

  // Arguments in the description's order: input buffers from the files, then the output.
  std::vector<cl_mem> buffers;
  std::size_t next_input = 0, output_count = 0;
  cl_mem output_buffer = nullptr;
  for (const auto& arg : launch.at("arguments")) {
    std::string role = arg.at("role"), arg_name = arg.at("name");
    if (role == "size" || arg.at("element") != "f32")
      throw std::runtime_error("argument " + arg_name + ": this runner takes f32 buffers only");
    std::size_t count = number(arg.at("count"), "the length of " + arg_name);
    cl_mem buffer;
    if (role == "input") {
      if (next_input >= inputs.size())
        throw std::runtime_error("no input file for argument " + arg_name);
      auto values = read_floats(inputs[next_input++], count);
      buffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              count * sizeof(float), values.data(), &status);
    } else {
      buffer = clCreateBuffer(context, CL_MEM_WRITE_ONLY, count * sizeof(float), nullptr, &status);
      output_buffer = buffer;
      output_count = count;
    }
    check(status, "clCreateBuffer");
    check(clSetKernelArg(kernel, static_cast<cl_uint>(buffers.size()), sizeof(cl_mem), &buffer),
          "clSetKernelArg");
    buffers.push_back(buffer);
  }
  if (next_input != inputs.size() || !output_buffer)
    throw std::runtime_error("the description has " + std::to_string(next_input) + " inputs, " +
                             std::to_string(inputs.size()) + " files were given");

  cl_uint dims = launch.at("dims");
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  for (cl_uint d = 0; d < dims; ++d) {
    global[d] = number(launch.at("global")[d], "the global size");
    if (!launch.at("local").is_null())
      local[d] = number(launch.at("local")[d], "the local size");
  }
  check(clEnqueueNDRangeKernel(queue, kernel, dims, nullptr, global,
                               launch.at("local").is_null() ? nullptr : local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  std::vector<float> result(output_count);
  check(clEnqueueReadBuffer(queue, output_buffer, CL_TRUE, 0, output_count * sizeof(float),
                            result.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  std::cout << "ran " << name << " on " << dims << "-D global";
  for (cl_uint d = 0; d < dims; ++d)
    std::cout << (d ? " x " : " ") << global[d];
  std::cout << ": " << output_count << " values\n";

  for (auto b : buffers)
    clReleaseMemObject(b);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);

  if (!output.empty()) {
    std::ofstream out(output, std::ios::binary);
    out.write(reinterpret_cast<const char*>(result.data()),
              static_cast<std::streamsize>(result.size() * sizeof(float)));
  }
  if (!expect.empty()) {
    auto expected = read_floats(expect, output_count);
    double worst = 0;
    for (std::size_t i = 0; i < output_count; ++i)
      worst = std::max(worst, std::fabs(double(result[i]) - expected[i]) /
                                  std::max(1.0, std::fabs(double(expected[i]))));
    std::cout << "max relative difference to " << expect << ": " << worst << "\n";
    if (worst > 1e-5) {
      std::cout << "MISMATCH\n";
      return 1;
    }
    std::cout << "OK\n";
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
