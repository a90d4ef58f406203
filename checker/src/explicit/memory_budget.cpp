// The memory budget of one exploration; see memory_budget.hpp. The default
// limit reads /proc/meminfo and the cgroup v2/v1 limit files, and falls back to
// the physical memory size where those are missing.
#include "memory_budget.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include <unistd.h>

namespace loophole::checker {

namespace {

std::uint64_t read_number(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return 0;
  }
}

std::uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

}  // namespace

MemoryBudget::MemoryBudget(std::uint64_t limit) : limit_(limit != 0 ? limit : default_limit()) {}

bool MemoryBudget::acquire(std::uint64_t bytes) {
  std::uint64_t now = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || now > limit_ - bytes) return false;
  } while (!used_.compare_exchange_weak(now, now + bytes, std::memory_order_relaxed));
  std::uint64_t peak = peak_.load(std::memory_order_relaxed);
  while (now + bytes > peak &&
         !peak_.compare_exchange_weak(peak, now + bytes, std::memory_order_relaxed)) {
  }
  return true;
}

void MemoryBudget::force(std::uint64_t bytes) {
  const std::uint64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::uint64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void MemoryBudget::release(std::uint64_t bytes) {
  used_.fetch_sub(bytes, std::memory_order_relaxed);
}

std::uint64_t MemoryBudget::default_limit() {
  std::uint64_t available = mem_available();
  if (available == 0) {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) available = static_cast<std::uint64_t>(pages) * page;
  }
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    const std::uint64_t cap = read_number(path);
    if (cap != 0 && (available == 0 || cap < available)) available = cap;
  }
  if (available == 0) available = std::uint64_t{4} << 30;
  return available / 10 * 8;
}

}  // namespace loophole::checker
