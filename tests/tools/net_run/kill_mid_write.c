/* LD_PRELOAD shim for the "nothing lost" test: kills the process (SIGKILL, as a crash or the OOM
 * killer would) in the middle of writing an output file. QNN_TEST_KILL_ON=write:N: the first fwrite
 * to a file named *.tmp.* writes N bytes and dies; QNN_TEST_KILL_ON=fsync: the first fsync dies. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int toTemporary(int fd) {
  char link[64], target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return 0;
  target[n] = 0;
  return strstr(target, ".tmp.") != NULL;
}

/* stdio's own writes are not interposable; the tools write through fwrite, which is. */
__attribute__((visibility("default"))) size_t fwrite(const void* buf, size_t size, size_t n, FILE* f) {
  static size_t (*real)(const void*, size_t, size_t, FILE*);
  if (!real) real = (size_t (*)(const void*, size_t, size_t, FILE*))dlsym(RTLD_NEXT, "fwrite");
  const char* on = getenv("QNN_TEST_KILL_ON");
  if (on && strncmp(on, "write:", 6) == 0 && toTemporary(fileno(f))) {
    const size_t bytes = size * n, first = (size_t)atoll(on + 6) < bytes ? (size_t)atoll(on + 6) : bytes / 2;
    real(buf, 1, first, f); /* part of the data reaches the file, then the process dies */
    fflush(f);
    raise(SIGKILL);
  }
  return real(buf, size, n, f);
}

__attribute__((visibility("default"))) int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  const char* on = getenv("QNN_TEST_KILL_ON");
  if (on && strcmp(on, "fsync") == 0) raise(SIGKILL);
  return real(fd);
}
