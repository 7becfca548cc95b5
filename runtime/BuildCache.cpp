#include "runtime/BuildCache.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "runtime/BuildLog.h"
#include "runtime/ClError.h"
#include "runtime/Hash.h"

namespace tessera::runtime {

namespace fs = std::filesystem;

namespace {

// File layout: magic (8 bytes), key, payload size, payload FNV-1a hash (8 bytes each, little
// endian), then the payload: the program binary.
const char kMagic[8] = {'T', 'S', 'R', 'B', 'I', 'N', '0', '1'};
const std::size_t kHeaderSize = 32;

void put64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get64(const std::string& in, std::size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(static_cast<uint8_t>(in[at + static_cast<std::size_t>(i)]))
         << (8 * i);
  return v;
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

// Whether a driver's program binary can be handed back to it. PoCL (5.x) aborts the process in
// clCreateProgramWithBinary on a binary without its program's bitcode, and hands out such
// binaries when two processes build the same program at once (seen with tests running beside
// each other, 2026-11-25: a 14 KiB binary instead of 66 KiB); they are neither stored nor loaded.
bool loadable_binary(std::string_view binary) {
  constexpr std::string_view kPoclMagic("poclbin\0", 8);
  if (binary.substr(0, kPoclMagic.size()) != kPoclMagic)
    return true; // other drivers return an error code for a binary they cannot use
  return binary.find("/program.bc") != std::string_view::npos;
}

// The options of a build: the caller's, then TESSERA_BUILD_OPTIONS (e.g. -cl-opt-disable, which
// tells a device compiler's optimisation bug from a code generator's; docs/reliability.md). The
// cache key covers both.
std::string with_env_options(const std::string& options) {
  std::string extra = env("TESSERA_BUILD_OPTIONS");
  return extra.empty() ? options : options + " " + extra;
}

std::string program_kernel_names(const cl::Program& program) {
  std::string names;
  if (program.getInfo(CL_PROGRAM_KERNEL_NAMES, &names) != CL_SUCCESS)
    return "(unknown)";
  while (!names.empty() && names.back() == '\0')
    names.pop_back();
  if (names.empty())
    return "(none)";
  for (auto& c : names)
    if (c == ';')
      c = ',';
  return names;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

const char* to_string(BuildOrigin origin) {
  switch (origin) {
  case BuildOrigin::Compiled:
    return "compiled";
  case BuildOrigin::MemoryCache:
    return "memory cache";
  case BuildOrigin::DiskCache:
    return "disk cache";
  }
  return "?";
}

fs::path default_cache_dir() {
  std::string dir = env("TESSERA_CACHE_DIR");
  if (dir == "off" || dir == "none")
    return {};
  if (!dir.empty())
    return dir;
  std::string xdg = env("XDG_CACHE_HOME");
  if (!xdg.empty())
    return fs::path(xdg) / "tessera";
  std::string home = env("HOME");
  if (!home.empty())
    return fs::path(home) / ".cache" / "tessera";
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec)
    return {};
  return tmp / "tessera-cache";
}

BuildCache::BuildCache(Device device, cl::Context context, fs::path directory,
                       DiskBinaries binaries)
    : device_(std::move(device)), context_(std::move(context)), directory_(std::move(directory)) {
  if (directory_.empty()) {
    disk_disabled_reason_ = "no cache directory";
    return;
  }
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec || !fs::is_directory(directory_)) {
    disk_disabled_reason_ =
        cat("cannot create the cache directory ", directory_.string(), ": ", ec.message());
    directory_.clear();
    return;
  }
  // Temporary files of writers that were killed before their rename.
  remove_stale_temporaries(directory_);
  if (binaries == DiskBinaries::WhereUseful && device_.is_pocl()) {
    disk_disabled_reason_ = "PoCL keeps its own kernel cache";
    directory_.clear();
  }
}

uint64_t BuildCache::key(const std::string& source, const std::string& options) const {
  return Hasher()
      .add("tessera program cache v1")
      .add(device_.identity())
      .add(with_env_options(options))
      .add(source)
      .value();
}

fs::path BuildCache::entry_path(uint64_t key) const {
  if (directory_.empty())
    return {};
  return directory_ / (hex64(key) + ".clbin");
}

CacheStats BuildCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void BuildCache::clear_memory() {
  std::lock_guard lock(mutex_);
  memory_.clear();
}

Kernel BuildCache::build_kernel(const std::string& source, const std::string& kernel_name,
                                const std::string& options) {
  auto start = std::chrono::steady_clock::now();
  Kernel k;
  k.name = kernel_name;
  k.source_hash = fnv1a64(source);
  k.program_key = key(source, options);
  k.program = build_program(source, options, &k.origin, kernel_name);
  cl_int err = CL_SUCCESS;
  k.kernel =
      cl::Kernel(k.program, kernel_name_in_program(k.program_key, kernel_name).c_str(), &err);
  if (err == CL_INVALID_KERNEL_NAME)
    user_error(cat("the OpenCL program has no kernel named '", kernel_name,
                   "'; its kernels are: ", program_kernel_names(k.program)));
  check_cl(err, cat("creating kernel '", kernel_name, "' on ", device_.name));
  k.build_ms = ms_since(start);
  return k;
}

std::string BuildCache::kernel_name_in_program(uint64_t key, const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = memory_.find(key);
  if (it == memory_.end())
    return name;
  auto renamed = it->second.kernel_names.find(name);
  return renamed == it->second.kernel_names.end() ? name : renamed->second;
}

const BuildCache::Entry* BuildCache::in_memory(uint64_t key, const std::string& source,
                                               const std::string& options) const {
  auto it = memory_.find(key);
  return it != memory_.end() && it->second.source == source && it->second.options == options
             ? &it->second
             : nullptr;
}

bool BuildCache::in_memory(const std::string& source, const std::string& given_options) const {
  const uint64_t k = key(source, given_options);
  const std::string options = with_env_options(given_options);
  std::lock_guard lock(mutex_);
  return in_memory(k, source, options) != nullptr;
}

bool BuildCache::build_shared(const std::string& shared, const std::vector<SharedMember>& members,
                              const std::string& given_options) {
  const std::string options = with_env_options(given_options);
  cl::Program program;
  try {
    program = compile(shared, options, "(several programs built as one)");
  } catch (const Error&) {
    return false;
  }
  std::lock_guard lock(mutex_);
  ++stats_.compiled;
  for (const auto& m : members)
    memory_.try_emplace(key(m.source, given_options),
                        Entry{m.source, options, program, m.kernel_names});
  return true;
}

cl::Program BuildCache::build_program(const std::string& source, const std::string& given_options,
                                      BuildOrigin* origin, const std::string& kernel_name) {
  uint64_t k = key(source, given_options);
  std::string options = with_env_options(given_options);
  {
    std::lock_guard lock(mutex_);
    if (const Entry* entry = in_memory(k, source, options)) {
      ++stats_.memory_hits;
      if (origin)
        *origin = BuildOrigin::MemoryCache;
      return entry->program;
    }
  }
  cl::Program program;
  BuildOrigin how = BuildOrigin::DiskCache;
  if (!load_from_disk(k, options, &program)) {
    how = BuildOrigin::Compiled;
    program = compile(source, options, kernel_name.empty() ? "(any)" : kernel_name);
    store_on_disk(k, program);
  }
  std::lock_guard lock(mutex_);
  if (how == BuildOrigin::DiskCache)
    ++stats_.disk_hits;
  else
    ++stats_.compiled;
  memory_[k] = Entry{source, options, program};
  if (origin)
    *origin = how;
  return program;
}

namespace {

// PoCL 3.1 shares its kernel cache between processes and, when several build one program at the
// same time (MPI ranks on one node, parallel tests), one of them may read another's half-written
// entry: the build fails with no compiler message (about 1 build in 500 with 4 processes on 2
// cores; tests/reliability/build_race_probe.cpp probes it). Such a failure is built again.
constexpr int kBuildAttempts = 3;

bool transient_build_failure(cl_int err, const std::string& log) {
  if (err != CL_BUILD_PROGRAM_FAILURE)
    return false;
  std::string lower = log;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("error") == std::string::npos;
}

} // namespace

cl::Program BuildCache::compile(const std::string& source, const std::string& options,
                                const std::string& kernel_name) {
  cl_int err = CL_SUCCESS;
  cl::Program program;
  std::string log;
  for (int attempt = 0; attempt < kBuildAttempts; ++attempt) {
    if (attempt > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(20 * attempt));
    program = cl::Program(context_, source, false, &err);
    check_cl(err,
             cat("creating an OpenCL program for kernel '", kernel_name, "' on ", device_.name));
    err = program.build(std::vector<cl::Device>{device_.device}, options.c_str());
    if (err == CL_SUCCESS)
      return program;
    log.clear();
    program.getBuildInfo(device_.device, CL_PROGRAM_BUILD_LOG, &log);
    if (!transient_build_failure(err, log))
      break;
  }
  if (err == CL_INVALID_BUILD_OPTIONS)
    user_error(cat("OpenCL rejected the build options \"", options, "\" of kernel '", kernel_name,
                   "' on ", device_.name, ": CL_INVALID_BUILD_OPTIONS\n", log));
  user_error(build_failure_message(device_, kernel_name, options, err, log, source));
}

bool BuildCache::load_from_disk(uint64_t key, const std::string& options, cl::Program* program) {
  fs::path path = entry_path(key);
  if (path.empty())
    return false;
  std::error_code status_error;
  if (!fs::is_regular_file(path, status_error))
    return false; // not cached yet (or something else holds the name: the store will fail too)
  std::string data;
  try {
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return false; // unreadable: build as if it were not cached
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {
    return false; // a read error: build as if it were not cached
  }

  auto reject = [&]() {
    std::error_code ec;
    fs::remove(path, ec);
    std::lock_guard lock(mutex_);
    ++stats_.disk_rejected;
    return false;
  };
  if (data.size() < kHeaderSize || std::memcmp(data.data(), kMagic, 8) != 0)
    return reject();
  if (get64(data, 8) != key)
    return reject();
  uint64_t size = get64(data, 16);
  if (size != data.size() - kHeaderSize || size == 0)
    return reject();
  std::string_view payload(data.data() + kHeaderSize, size);
  if (fnv1a64(payload) != get64(data, 24) || !loadable_binary(payload))
    return reject();

  cl::Program::Binaries binaries{std::vector<unsigned char>(payload.begin(), payload.end())};
  std::vector<cl_int> status;
  cl_int err = CL_SUCCESS;
  cl::Program loaded(context_, std::vector<cl::Device>{device_.device}, binaries, &status, &err);
  if (err != CL_SUCCESS || status.empty() || status[0] != CL_SUCCESS)
    return reject();
  if (loaded.build(std::vector<cl::Device>{device_.device}, options.c_str()) != CL_SUCCESS)
    return reject();
  *program = loaded;
  return true;
}

void BuildCache::store_on_disk(uint64_t key, const cl::Program& program) {
  fs::path path = entry_path(key);
  if (path.empty())
    return;
  cl::Program::Binaries binaries;
  if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) != CL_SUCCESS || binaries.size() != 1 ||
      binaries[0].empty())
    return; // the driver gives no binary: the memory cache still works
  const auto& binary = binaries[0];
  std::string_view payload(reinterpret_cast<const char*>(binary.data()), binary.size());
  if (!loadable_binary(payload))
    return; // the memory cache still works
  std::string data(kMagic, 8);
  put64(data, key);
  put64(data, binary.size());
  put64(data, fnv1a64(payload));
  data.append(payload);

  static std::atomic<unsigned> counter{0};
  fs::path tmp = path;
  tmp += cat(".tmp.", ::getpid(), ".", counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return; // read-only or full disk: run without the disk cache
  bool ok = write_all(fd, data) && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  std::error_code ec;
  if (ok)
    fs::rename(tmp, path, ec);
  if (!ok || ec) {
    fs::remove(tmp, ec);
    return;
  }
  std::lock_guard lock(mutex_);
  ++stats_.disk_writes;
}

} // namespace tessera::runtime
