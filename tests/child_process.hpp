// GPU tests whose failing case traps (which ends the CUDA context) run that case in a child
// process: the test program again, with other arguments.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

// Runs `cmd` with its stderr joined to its stdout, which goes to `out`; returns its exit code
// (-1 when it did not run or did not exit).
inline int child_exit_code(const std::string& cmd, std::string& out) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  char buf[512];
  while (p && std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = p ? pclose(p) : -1;
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
