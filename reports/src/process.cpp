// posix_spawnp with three pipes and one poll loop: the child's input is
// written while its output is read, so neither side can block the other
// however much each writes (git cat-file on a large tree, dot on a large
// graph). The child's ends of the pipes are closed in the parent at once,
// so end of file comes when the child exits.
#include "loophole/reports/process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace loophole::reports {
namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
};

}  // namespace

std::optional<ProcessResult> run_process(const std::vector<std::string>& argv,
                                         const std::string& input, std::string& error) {
  Pipe in, out, err;
  if (argv.empty() || !in.open() || !out.open() || !err.open()) {
    error = std::string("cannot start a process: ") + std::strerror(errno);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int e = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (e != 0) {
    error = "cannot run '" + argv[0] + "': " + std::strerror(e);
    return std::nullopt;
  }
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);
  if (input.empty()) in.close_end(1);

  // A reader gone early must not kill this process with SIGPIPE.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  ProcessResult result;
  std::size_t written = 0;
  char buf[65536];
  while (in.fd[1] >= 0 || out.fd[0] >= 0 || err.fd[0] >= 0) {
    pollfd fds[3] = {{in.fd[1], POLLOUT, 0}, {out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents != 0) {
      const ssize_t n = ::write(in.fd[1], input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EINTR && errno != EAGAIN) written = input.size();
      if (written == input.size()) in.close_end(1);
    }
    for (int i = 1; i <= 2; ++i) {
      if (fds[i].revents == 0) continue;
      Pipe& p = i == 1 ? out : err;
      const ssize_t n = ::read(p.fd[0], buf, sizeof buf);
      if (n > 0) {
        (i == 1 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        p.close_end(0);
      }
    }
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace loophole::reports
