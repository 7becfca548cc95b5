// Host values (doubles, whatever the element kind) in the device representation of a scalar
// kind: packed into bytes, uploaded into a buffer, read back. The one conversion every runner
// of generated kernels uses (compile/KernelRunner.h).
#pragma once

#include <cstddef>
#include <vector>

#include "core/Type.h"
#include "runtime/Buffer.h"
#include "runtime/Session.h"

namespace tessera::explore {

// Bytes of one element of the kind on the device (bool is a byte, as OpenCL C's uchar).
std::size_t element_bytes(ScalarKind kind);
// Values converted to the device representation of kind, and back.
std::vector<unsigned char> pack(ScalarKind kind, const std::vector<double>& values);
std::vector<double> unpack(ScalarKind kind, const std::vector<unsigned char>& bytes);
// A read-only device buffer holding the values as elements of kind.
runtime::RawBuffer upload(runtime::Session& session, ScalarKind kind,
                          const std::vector<double>& values);
// The first `count` elements of kind in the buffer, as doubles.
std::vector<double> download(const runtime::RawBuffer& buffer, ScalarKind kind, std::size_t count);

} // namespace tessera::explore
