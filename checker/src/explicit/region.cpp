// Region of region.hpp: an anonymous private mapping without swap
// reservation (MAP_NORESERVE: address space only, until touched), aligned to
// 2 MiB so that its huge-page part starts on a huge-page boundary.
#include "region.hpp"

#include <algorithm>

#include <sys/mman.h>

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
    data_ = reinterpret_cast<std::uint8_t*>((at + huge_page - 1) / huge_page * huge_page);
    size_ = want;
#ifdef MADV_HUGEPAGE
    // Small tables (a small game, a test) stay on 4 KiB pages.
    if (huge && size_ > huge_page) madvise(data_ + huge_page, size_ - huge_page, MADV_HUGEPAGE);
#endif
    return;
  }
}

void Region::reset() {
  if (mapping_ != nullptr) munmap(mapping_, mapped_);
  mapping_ = nullptr;
  mapped_ = 0;
  data_ = nullptr;
  size_ = 0;
}

}  // namespace loophole::checker
