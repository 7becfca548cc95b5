// Runs peers/HalidePeer in its own process (the halide_peer program beside cpu_peers):
// libHalide 14 brings LLVM 14, PoCL brings LLVM 15, and the two cannot share a process (PoCL's
// compiler crashes in LLVM 14's symbols). The stencil, the input and the output travel through
// files in a temporary directory (in0.bin, in1.bin, ... and out.bin).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "peers/HalidePeer.h"
#include "peers/Taps.h"

namespace tessera::peers {

// `helper` is the halide_peer executable.
HalideRun run_halide_process(const std::filesystem::path& helper, const LinearStencil& stencil,
                             const std::vector<std::vector<float>>& x, const std::string& schedule,
                             int repeats, int threads, uint64_t cache_bytes);

// The stencil as JSON and back (the helper's input).
std::string stencil_to_json(const LinearStencil& stencil);
LinearStencil stencil_from_json(const std::string& text);

// Raw floats to and from a file; Error when the file cannot be written or read whole.
void write_floats(const std::filesystem::path& path, const std::vector<float>& values);
std::vector<float> read_floats(const std::filesystem::path& path, std::size_t count);

} // namespace tessera::peers
