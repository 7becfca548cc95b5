// The program build cache. Programs are keyed by a stable hash of (source, device identity
// including the driver version, build options) and kept
//   - in memory, for the lifetime of the cache object, and
//   - on disk, as program binaries (CL_PROGRAM_BINARIES) in one file per key under
//     default_cache_dir(), so that later runs skip the compiler; not on PoCL by default (see
//     DiskBinaries).
// Disk writes are atomic (temporary file in the same directory, then rename). An entry that is
// corrupt or that the driver rejects is ignored, removed and rebuilt from source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/OpenCL.h"

namespace tessera::runtime {

struct CacheStats {
  std::size_t memory_hits = 0;   // programs found in memory
  std::size_t disk_hits = 0;     // programs loaded from a disk binary
  std::size_t compiled = 0;      // programs built from source
  std::size_t disk_writes = 0;   // binaries written to disk
  std::size_t disk_rejected = 0; // disk entries found corrupt or unloadable (then rebuilt)
};

// $TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else $HOME/.cache/tessera, else
// <temp dir>/tessera-cache. TESSERA_CACHE_DIR=off (or "none") disables the disk cache: the
// result is then empty.
std::filesystem::path default_cache_dir();

// Which devices' programs go to disk. PoCL keeps a kernel cache of its own (keyed by source and
// options, shared by every process), and asking it for a program's binary makes it compile every
// kernel a second time, for any work-group size, a version no launch uses: a cold run's builds
// took half as long again (issue 35). So by default PoCL's programs are not stored (its own
// cache serves later runs); Always stores them on every device (the tests of this cache).
enum class DiskBinaries { WhereUseful, Always };

class BuildCache {
public:
  // An empty directory keeps the cache in memory only.
  BuildCache(Device device, cl::Context context,
             std::filesystem::path directory = default_cache_dir(),
             DiskBinaries binaries = DiskBinaries::WhereUseful);

  // The kernel kernel_name of the program built from source with options. Throws
  // tessera::Error with the build log and the offending source lines when the build fails, or
  // listing the program's kernels when it has none called kernel_name.
  Kernel build_kernel(const std::string& source, const std::string& kernel_name,
                      const std::string& options = "");

  // The program alone (built, or from the cache); origin tells which. A program built as part
  // of a shared program (build_shared) is that program, its kernels renamed.
  cl::Program build_program(const std::string& source, const std::string& options,
                            BuildOrigin* origin = nullptr,
                            const std::string& kernel_name_for_errors = "");

  // One source of several (a member of a shared program) and the names its kernels have there.
  struct SharedMember {
    std::string source;
    std::map<std::string, std::string> kernel_names; // as the source names it -> in the program
  };
  // Builds `shared`, the members' sources written as one program, once, and keeps it in memory
  // for each member: a later build_kernel of a member's source (with these options) takes its
  // kernel from it. A device compiler's cost per program (PoCL: about 0.1 s, its header parsed
  // and its library linked) is then paid once for all of them. Members already in memory are
  // left as they are. Nothing is written to disk (a member's binary would be the whole program).
  // False when the shared program does not build: each member then builds on its own when asked
  // for, with its own error.
  bool build_shared(const std::string& shared, const std::vector<SharedMember>& members,
                    const std::string& options = "");

  // The cache key of (source, this device, options and TESSERA_BUILD_OPTIONS).
  uint64_t key(const std::string& source, const std::string& options) const;
  // Whether the program of source with options is in memory (a build would take it from there).
  bool in_memory(const std::string& source, const std::string& options = "") const;
  // Where the binary of key lives on disk (empty when the disk cache is off).
  std::filesystem::path entry_path(uint64_t key) const;
  const std::filesystem::path& directory() const { return directory_; }
  // Why the disk cache is off, when it is (e.g. the directory could not be created).
  const std::string& disk_disabled_reason() const { return disk_disabled_reason_; }

  CacheStats stats() const;
  // Forgets the in-memory programs (the disk cache stays).
  void clear_memory();

private:
  struct Entry {
    std::string source;
    std::string options;
    cl::Program program;
    std::map<std::string, std::string> kernel_names; // of a shared program's member
  };
  // The entry of key in memory when it holds source built with options (the caller holds
  // mutex_); null otherwise.
  const Entry* in_memory(uint64_t key, const std::string& source, const std::string& options) const;
  // The name of the source's kernel `name` in the program the cache holds for it.
  std::string kernel_name_in_program(uint64_t key, const std::string& name) const;

  bool load_from_disk(uint64_t key, const std::string& options, cl::Program* program);
  void store_on_disk(uint64_t key, const cl::Program& program);
  cl::Program compile(const std::string& source, const std::string& options,
                      const std::string& kernel_name);

  Device device_;
  cl::Context context_;
  std::filesystem::path directory_;
  std::string disk_disabled_reason_;
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Entry> memory_;
  CacheStats stats_;
};

} // namespace tessera::runtime
