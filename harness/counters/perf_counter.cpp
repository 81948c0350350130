#include "harness/counters/perf_counter.h"

// libpfm4 ships its own copy of the perf_event ABI (struct perf_event_attr, ioctl numbers); use
// only that one, never <linux/perf_event.h>, whose definitions would clash.
#include <perfmon/pfmlib_perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

#include "harness/counters/counter_registry.h"

namespace moq::counters {
namespace {

std::string errno_text(int err) {
  const char* name = strerrorname_np(err);
  return std::string(strerror(err)) + " (" + (name != nullptr ? name : "errno") + " " +
         std::to_string(err) + ")";
}

std::string read_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string value;
  if (!(in >> value)) return "unknown (cannot read /proc/sys/kernel/perf_event_paranoid)";
  return value;
}

Status init_pfm() {
  static const int rc = pfm_initialize();
  if (rc != PFM_SUCCESS) {
    return Error{0,
                 std::string("perf backend: libpfm4 initialisation failed: ") + pfm_strerror(rc)};
  }
  return {};
}

constexpr const char* kUseCallgrind =
    "Use the callgrind backend (--counter callgrind), which counts instructions exactly without "
    "a PMU.";

std::string open_failure_message(const std::string& event, const std::string& encoded,
                                 const perf_event_attr& attr, int err) {
  std::string msg = "perf backend: perf_event_open for event '" + event + "' (libpfm4: " + encoded +
                    ", type " + std::to_string(attr.type) + " config 0x";
  char hex[24];
  snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(attr.config));
  msg += hex;
  msg += ") failed: " + errno_text(err) + ". ";
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      msg +=
          "This machine exposes no hardware PMU for the event (usual in VMs and containers; "
          "`perf stat -e " +
          event + " true` reports it as not supported). ";
      break;
    case EACCES:
    case EPERM:
      msg += "Not permitted: /proc/sys/kernel/perf_event_paranoid is " + read_paranoid() +
             " (counting this process in user space needs <= 2, or CAP_PERFMON). ";
      break;
    case EINVAL:
      msg +=
          "The kernel rejected the event's attributes (an event or modifier this CPU or "
          "kernel does not support). ";
      break;
    default:
      break;
  }
  return msg + kUseCallgrind;
}

}  // namespace

InstrReading perf_region_reading(const PerfRawCount& begin, const PerfRawCount& end) {
  const uint64_t enabled = end.time_enabled - begin.time_enabled;
  const uint64_t running = end.time_running - begin.time_running;
  return InstrReading{end.value - begin.value, running < enabled, CounterBackend::kPerf};
}

Result<std::unique_ptr<PerfCounter>> PerfCounter::open(const PerfOptions& options) {
  if (Status s = init_pfm(); !s) return s.error();
  if (options.pin_cpu) {
    if (Status s = pin_current_thread_to_cpu(*options.pin_cpu); !s)
      return Error{s.error().code, "perf backend: " + s.error().message};
  }

  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  char* fstr = nullptr;
  pfm_perf_encode_arg_t arg;
  memset(&arg, 0, sizeof arg);
  arg.attr = &attr;
  arg.size = sizeof arg;
  arg.fstr = &fstr;
  // PFM_PLM3: user level only unless the event string names a level itself.
  const int rc =
      pfm_get_os_event_encoding(options.event.c_str(), PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
  if (rc != PFM_SUCCESS) {
    return Error{0, "perf backend: libpfm4 cannot encode event '" + options.event +
                        "': " + pfm_strerror(rc) +
                        " (expected a name such as instructions:u, or a PMU-specific one "
                        "listed by `perf list`)"};
  }
  std::string encoded = fstr != nullptr ? fstr : options.event;
  free(fstr);  // allocated by libpfm4

  if (attr.exclude_user) {
    return Error{0, "perf backend: event '" + options.event + "' (" + encoded +
                        ") counts kernel space only; this backend counts user space only "
                        "(use a :u event)"};
  }
  attr.size = sizeof attr;
  attr.disabled = 1;  // enabled around each region only
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.inherit = 0;  // this thread only
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

  const int fd = static_cast<int>(
      syscall(__NR_perf_event_open, &attr, 0 /*this thread*/, -1 /*any cpu*/, -1 /*no group*/,
              static_cast<unsigned long>(arg.flags) | PERF_FLAG_FD_CLOEXEC));
  if (fd < 0) {
    const int err = errno;
    return Error{static_cast<uint64_t>(err),
                 open_failure_message(options.event, encoded, attr, err)};
  }
  return std::unique_ptr<PerfCounter>(new PerfCounter(fd, options.event, std::move(encoded)));
}

PerfCounter::~PerfCounter() {
  close(fd_);
}

Result<PerfRawCount> PerfCounter::read_raw() const {
  uint64_t buf[3];
  const ssize_t n = read(fd_, buf, sizeof buf);
  if (n != static_cast<ssize_t>(sizeof buf)) {
    const int err = errno;
    return Error{0, "perf backend: read of event '" + event_ + "' returned " + std::to_string(n) +
                        " bytes, expected " + std::to_string(sizeof buf) +
                        (n < 0 ? ": " + errno_text(err) : std::string())};
  }
  return PerfRawCount{buf[0], buf[1], buf[2]};
}

Status PerfCounter::start() {
  if (running_) return Error{0, "perf backend: start() while a region is already open"};
  Result<PerfRawCount> begin = read_raw();
  if (!begin) return begin.error();
  begin_ = *begin;
  if (ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    return Error{0, "perf backend: enabling event '" + event_ + "' failed: " + errno_text(errno)};
  }
  running_ = true;
  return {};
}

Result<InstrReading> PerfCounter::stop() {
  if (!running_) return Error{0, "perf backend: stop() without start()"};
  // Disable first, so the bookkeeping below is not counted.
  const int rc = ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
  const int err = errno;
  running_ = false;
  if (rc != 0) {
    return Error{0, "perf backend: disabling event '" + event_ + "' failed: " + errno_text(err)};
  }
  Result<PerfRawCount> end = read_raw();
  if (!end) return end.error();
  return perf_region_reading(begin_, *end);
}

namespace {

// The registry's face of this backend: auto takes it first, where the PMU opens the event.
Result<CounterOpening> open_perf(const CounterOptions& options) {
  PerfOptions perf;
  if (!options.event.empty()) perf.event = options.event;
  Result<std::unique_ptr<PerfCounter>> c = PerfCounter::open(perf);
  if (!c) return c.error();
  CounterOpening opening;
  opening.detail = ": event " + (*c)->event();
  opening.because = "the PMU counts " + (*c)->event();
  opening.counter = std::move(*c);
  return opening;
}

CounterBackendDef perf_backend() {
  CounterBackendDef def;
  def.backend = CounterBackend::kPerf;
  def.auto_rank = 1;
  def.auto_condition = "where the PMU works";
  def.auto_missing = "without a working PMU";
  def.takes_event = true;
  def.open = open_perf;
  return def;
}

}  // namespace

MOQ_REGISTER_COUNTER_BACKEND(perf_backend);

}  // namespace moq::counters
