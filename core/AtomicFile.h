// Files that are never seen half-written: the text goes to a temporary file in the same
// directory (".NAME.tmp-PID-N"), which is flushed to disk (fsync) and renamed over the target.
// A reader sees the old file or the new one, whatever happens to the writer (a crash, SIGKILL,
// a full disk). On failure the temporary file is removed, the old file is left as it was, and
// an Error says why. Temporary files that killed writers left behind (their process is gone)
// are removed by the next write to the same directory. What may be written at all (regular
// files, links, character devices, read-only files) is core/OutputPath.h's decision: an
// existing file keeps its permission bits, a character device is written through.
#pragma once

#include <filesystem>
#include <string>

namespace tessera {

void write_file_atomically(const std::string& path, const std::string& text);

// Removes the temporary files "<prefix>*.tmp-PID-*" (or "*.tmp.PID.*") in `dir` whose process
// PID no longer exists; returns how many were removed. Used by write_file_atomically and by the
// build cache.
std::size_t remove_stale_temporaries(const std::filesystem::path& dir,
                                     const std::string& prefix = "");

} // namespace tessera
