#include "compile/DeviceValues.h"

#include <algorithm>

#include "core/Error.h"

namespace tessera::explore {

std::size_t element_bytes(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F32:
  case ScalarKind::I32:
    return 4;
  case ScalarKind::F64:
    return 8;
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return 1;
  }
  internal_error("unknown scalar kind");
}

namespace {

// Calls f with a value of the C++ type of kind's elements (for its type only).
template <class F> void with_element_type(ScalarKind kind, F&& f) {
  switch (kind) {
  case ScalarKind::F32:
    return f(float{});
  case ScalarKind::F64:
    return f(double{});
  case ScalarKind::I32:
    return f(int32_t{});
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return f(uint8_t{});
  }
  internal_error("unknown scalar kind");
}

} // namespace

std::vector<unsigned char> pack(ScalarKind kind, const std::vector<double>& values) {
  std::vector<unsigned char> bytes(values.size() * element_bytes(kind));
  with_element_type(kind, [&]<class T>(T) {
    T* out = reinterpret_cast<T*>(bytes.data());
    for (std::size_t i = 0; i < values.size(); ++i)
      out[i] = static_cast<T>(values[i]);
  });
  return bytes;
}

std::vector<double> unpack(ScalarKind kind, const std::vector<unsigned char>& bytes) {
  std::vector<double> values(bytes.size() / element_bytes(kind));
  with_element_type(kind, [&]<class T>(T) {
    const T* in = reinterpret_cast<const T*>(bytes.data());
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<double>(in[i]);
  });
  return values;
}

runtime::RawBuffer upload(runtime::Session& session, ScalarKind kind,
                          const std::vector<double>& values) {
  auto bytes = pack(kind, values);
  return runtime::RawBuffer(session, std::max<std::size_t>(1, bytes.size()),
                            bytes.empty() ? nullptr : bytes.data(), CL_MEM_READ_ONLY);
}

std::vector<double> download(const runtime::RawBuffer& buffer, ScalarKind kind, std::size_t count) {
  std::vector<unsigned char> bytes(count * element_bytes(kind));
  if (!bytes.empty())
    buffer.read(bytes.data(), bytes.size());
  return unpack(kind, bytes);
}

} // namespace tessera::explore
