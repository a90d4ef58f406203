// Region of region.hpp: an anonymous private mapping without swap
// reservation (MAP_NORESERVE: address space only, until touched), aligned to
// 2 MiB so that its huge-page part starts on a huge-page boundary. And
// populate() of loophole/checker/memory.hpp: MADV_POPULATE_WRITE; and its
// return_freed_memory().
#include "region.hpp"

#include <algorithm>
#include <atomic>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace loophole::checker {

namespace {

constexpr std::uint64_t huge_page = std::uint64_t{2} << 20;

}  // namespace

void Region::reserve(std::uint64_t bytes, bool huge) {
  reset();
  // A reservation beyond what the system grants (an address-space limit,
  // strict overcommit) is halved until it fits; the arrays then stop at
  // what they got, as at a memory limit.
  std::uint64_t want = std::min<std::uint64_t>(bytes, std::uint64_t{1} << 46);
  want = (want + huge_page - 1) / huge_page * huge_page;
  if (want == 0) want = huge_page;
  for (; want >= huge_page; want /= 2) {
    const std::uint64_t length = want + huge_page;
    void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) continue;
    mapping_ = p;
    mapped_ = length;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    data_ = static_cast<std::uint8_t*>(p) + (huge_page - at % huge_page) % huge_page;
    size_ = want;
#ifdef MADV_HUGEPAGE
    // Small tables (a small game, a test) stay on 4 KiB pages.
    if (huge && size_ > huge_page) madvise(data_ + huge_page, size_ - huge_page, MADV_HUGEPAGE);
#endif
    return;
  }
}

namespace {

// Backs [p, p + n), whole pages.
bool back_pages(std::uint8_t* p, std::size_t n) {
#ifdef MADV_POPULATE_WRITE
  return madvise(p, n, MADV_POPULATE_WRITE) == 0;
#else
  (void)p;
  (void)n;
  return false;
#endif
}

}  // namespace

void return_freed_memory() {
#ifdef M_MMAP_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

bool populate(void* at, std::size_t bytes, const ParallelFor& parallel) {
  Backing range;
  range.add(at, bytes);
  return range.run(parallel);
}

void Backing::add(void* p, std::size_t bytes) {
  // The whole pages inside the range only: a partial page may belong to a
  // neighbour (an allocator's header), and madvise wants page boundaries.
  // (Trimmed here, so that the tasks split on page bounds.)
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  const auto begin = (addr + page - 1) / page * page;
  const auto end = (addr + bytes) / page * page;
  if (end > begin) ranges_.push_back({static_cast<std::uint8_t*>(p) + (begin - addr), end - begin});
}

std::size_t Backing::bytes() const {
  std::size_t n = 0;
  for (const Range& r : ranges_) n += r.bytes;
  return n;
}

bool Backing::run(const ParallelFor& parallel) {
  tasks_.clear();
  if (parallel) {
    for (const Range& r : ranges_) {
      for (std::size_t at = 0; at < r.bytes; at += populate_grain) {
        tasks_.push_back({r.at + at, std::min(populate_grain, r.bytes - at)});
      }
    }
  }
  bool ok = true;
  if (tasks_.size() < 2) {
    for (const Range& r : ranges_) ok = back_pages(r.at, r.bytes) && ok;
  } else {
    std::atomic<bool> all{true};
    parallel(tasks_.size(), [&](std::size_t t) {
      if (!back_pages(tasks_[t].at, tasks_[t].bytes)) all.store(false, std::memory_order_relaxed);
    });
    ok = all.load(std::memory_order_relaxed);
  }
  ranges_.clear();
  return ok;
}

void Region::reset() {
  if (mapping_ != nullptr) munmap(mapping_, mapped_);
  mapping_ = nullptr;
  mapped_ = 0;
  data_ = nullptr;
  size_ = 0;
}

}  // namespace loophole::checker
