#include "runtime/Timing.h"

#include <algorithm>

#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"

namespace tessera::runtime {

double median(std::vector<double> values) {
  if (values.empty())
    return 0.0;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

Timing time_repetitions(const std::function<double()>& repetition, TimingOptions options,
                        const std::string& what) {
  if (options.repeats < 1)
    user_error(cat("timing ", what, " needs at least 1 repeat, got ", options.repeats));
  for (int i = 0; i < options.warmup; ++i)
    repetition();
  Timing t;
  for (int i = 0; i < options.repeats; ++i) {
    if (options.before_each)
      options.before_each();
    t.samples_ms.push_back(repetition());
  }
  t.median_ms = median(t.samples_ms);
  t.min_ms = *std::min_element(t.samples_ms.begin(), t.samples_ms.end());
  t.max_ms = *std::max_element(t.samples_ms.begin(), t.samples_ms.end());
  return t;
}

Timing time_kernel(Session& session, Kernel& kernel, const std::vector<KernelArg>& args,
                   const Range& global, const Range& local, TimingOptions options) {
  bool set = false; // the arguments are set once, before the first launch
  auto launch = [&]() {
    if (!set)
      set_args(kernel, args);
    set = true;
    cl::Event event = enqueue(session, kernel, global, local);
    check_cl(event.wait(), cat("running kernel '", kernel.name, "' on ", session.device().name));
    return event_ms(event);
  };
  return time_repetitions(launch, options, cat("kernel '", kernel.name, "'"));
}

} // namespace tessera::runtime
