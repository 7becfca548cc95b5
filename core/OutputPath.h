// Where an output file may go, decided before anything is written (docs/cli.md, "Outputs"):
//  - nothing there yet, or a regular file: written atomically (core/AtomicFile.h), an existing
//    file keeping its permission bits; a file with no write permission bit at all (mode 444) is
//    refused, even for root: read-only marks a file its owner wants kept;
//  - a symbolic link: the rules apply to the file it points to, which is replaced; the link stays;
//  - a character device (/dev/null, a terminal): written through, never replaced, because
//    writing to such a node is how one discards or shows output;
//  - anything else (a directory, a FIFO, a socket, a block device): refused with an Error.
#pragma once

#include <string>

namespace tessera {

enum class OutputKind { Replace, WriteThrough };

struct OutputTarget {
  std::string path; // the file to replace (a symbolic link resolved) or the device to write to
  OutputKind kind = OutputKind::Replace;
  bool exists = false;
  unsigned mode = 0; // permission bits of the existing file (Replace, exists)
};

// Error (naming `what`, e.g. "--json") for an output that may not be written: a missing
// directory, a directory or other non-regular node, a read-only file.
OutputTarget resolve_output(const std::string& path, const std::string& what = "output");

// Whether two paths name the same file: by device and inode when both exist, else by their
// absolute, normalised paths with symbolic links resolved.
bool same_file(const std::string& a, const std::string& b);

} // namespace tessera
