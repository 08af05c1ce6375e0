/* libcdsprpc.so: the rpcmem allocation API that QNN HTP clients dlopen to get shared
 * buffers (ONNX Runtime's HTP shared memory allocator, ExecuTorch's SharedBuffer, Genie),
 * off the device. On a phone the buffers come from the DMA heaps and the DSP maps them;
 * here each allocation is a memfd mapped MAP_SHARED, so a backend that maps the fd
 * (QnnMem_register, QNN_MEM_TYPE_ION or an HTP shared-buffer descriptor) sees the very
 * pages the client writes through its pointer: zero copy, as on the device.
 *
 * The API (names, signatures, heap ids, flag values) is that of the public rpcmem.h of
 * the Hexagon SDK / FastRPC; see docs/shared-memory.md for what each call does here.
 * Plain C, no dependency on the rest of OpenQNN. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RPCMEM_EXPORT __attribute__((visibility("default")))

/* One allocation: where the client's pointer is, how many bytes, and the memfd behind it. */
struct allocation {
  void* base;
  size_t size;
  int fd;
  struct allocation* next;
};

/* Allocations by base address, chained per bucket; one lock for the table. */
#define BUCKETS 1024u
static struct allocation* table[BUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned bucket_of(const void* p) {
  uintptr_t v = (uintptr_t)p >> 12; /* mmap returns page-aligned addresses */
  return (unsigned)((v ^ (v >> 10) ^ (v >> 20)) % BUCKETS);
}

static void complain(const char* call, const char* why, size_t size, int err) {
  if (err)
    fprintf(stderr, "libcdsprpc (OpenQNN): %s of %zu bytes failed: %s: %s\n", call, size, why, strerror(err));
  else
    fprintf(stderr, "libcdsprpc (OpenQNN): %s of %zu bytes failed: %s\n", call, size, why);
}

static void* allocate(const char* call, size_t size) {
  if (size == 0) {
    complain(call, "the size must be positive", size, 0);
    return NULL;
  }
  if (size > (size_t)PTRDIFF_MAX) {
    complain(call, "the size is too large", size, 0);
    return NULL;
  }
  struct allocation* a = malloc(sizeof *a);
  if (!a) {
    complain(call, "no memory for the allocation record", size, ENOMEM);
    return NULL;
  }
  int fd = memfd_create("rpcmem", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    complain(call, "memfd_create", size, errno);
    free(a);
    return NULL;
  }
  if (ftruncate(fd, (off_t)size) != 0) {
    complain(call, "ftruncate", size, errno);
    close(fd);
    free(a);
    return NULL;
  }
  /* The size is fixed from now on: a backend mapping the fd can never be cut short
   * (SIGBUS) by someone truncating it. */
  (void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
  void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    complain(call, "mmap", size, errno);
    close(fd);
    free(a);
    return NULL;
  }
  a->base = p;
  a->size = size;
  a->fd = fd;
  unsigned b = bucket_of(p);
  pthread_mutex_lock(&table_lock);
  a->next = table[b];
  table[b] = a;
  pthread_mutex_unlock(&table_lock);
  return p;
}

/* Nothing to set up or tear down: the table is static and allocations outlive deinit,
 * as they do with the FastRPC library (both calls are optional for its .so clients). */
RPCMEM_EXPORT void rpcmem_init(void) {}
RPCMEM_EXPORT void rpcmem_deinit(void) {}

/* heapid and flags choose the DSP-side heap and caching on the device; every heap is the
 * same memfd memory here, so any value is accepted. size <= 0 gives NULL. */
RPCMEM_EXPORT void* rpcmem_alloc(int heapid, uint32_t flags, int size) {
  (void)heapid;
  (void)flags;
  if (size <= 0) {
    fprintf(stderr, "libcdsprpc (OpenQNN): rpcmem_alloc of %d bytes failed: the size must be positive\n", size);
    return NULL;
  }
  return allocate("rpcmem_alloc", (size_t)size);
}

RPCMEM_EXPORT void* rpcmem_alloc2(int heapid, uint32_t flags, size_t size) {
  (void)heapid;
  (void)flags;
  return allocate("rpcmem_alloc2", size);
}

/* Frees what rpcmem_alloc returned; anything else (NULL, an unknown or interior pointer,
 * a second free) is ignored. */
RPCMEM_EXPORT void rpcmem_free(void* po) {
  if (!po) return;
  unsigned b = bucket_of(po);
  struct allocation* found = NULL;
  pthread_mutex_lock(&table_lock);
  for (struct allocation** link = &table[b]; *link; link = &(*link)->next) {
    if ((*link)->base == po) {
      found = *link;
      *link = found->next;
      break;
    }
  }
  pthread_mutex_unlock(&table_lock);
  if (!found) return;
  munmap(found->base, found->size);
  close(found->fd);
  free(found);
}

/* The fd of the allocation that starts at po; -1 for any other pointer (the FastRPC
 * library matches the allocation's start only, and its clients pass that). */
RPCMEM_EXPORT int rpcmem_to_fd(void* po) {
  if (!po) return -1;
  int fd = -1;
  unsigned b = bucket_of(po);
  pthread_mutex_lock(&table_lock);
  for (struct allocation* a = table[b]; a; a = a->next) {
    if (a->base == po) {
      fd = a->fd;
      break;
    }
  }
  pthread_mutex_unlock(&table_lock);
  return fd;
}
