// `loophole --version`: the release, the git revision the binary was built
// from and the Z3 it links, the three things a bug report needs. The
// revision comes from a header regenerated at every build (cli/CMakeLists.txt),
// so this file alone is recompiled when it changes.
#include <fmt/format.h>

#include "loophole/smt/engine.hpp"

#include "commands.hpp"
#include "git_revision.hpp"

namespace loophole::cli {

std::string version_text() {
  return fmt::format("loophole {} (git {}, Z3 {})", version(), LOOPHOLE_GIT_REVISION,
                     smt::z3_version());
}

}  // namespace loophole::cli
