/*
 * A device alone: a library with convcert's native ABI (suite/native/convcert_dut.h) converting all 2^32
 * inputs of a 32-bit source through its own convcert_convert, in batches of 2^18 on THREADS threads (each
 * its share of the range, as certify --jobs splits it), with no convcert around it: the time a repeated
 * certification is measured against (docs/exhaustive-ratio.sh, issue 43). Prints the wall seconds.
 * Build: cc -O2 -pthread -Isuite/native -o device-alone docs/device-alone.c -ldl
 * Run:   ./device-alone LIB FROM TO ROUNDING STATE THREADS OUT_BYTES
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "convcert_dut.h"

#define BATCH (1u << 18)

typedef int (*convert_fn)(const char *, const char *, const char *, const char *, const char *, const char *,
                          const void *, void *, uint64_t);

static convert_fn convert;
static char **args;
static unsigned threads, out_bytes;

static void *part(void *arg) {
  uintptr_t j = (uintptr_t)arg;
  uint64_t first = (1ull << 32) * j / threads, end = (1ull << 32) * (j + 1) / threads;
  uint32_t *in = malloc(BATCH * 4);
  void *out = malloc((size_t)BATCH * out_bytes);
  volatile uint64_t sink = 0;
  for (uint64_t base = first; base < end; base += BATCH) {
    uint64_t n = end - base < BATCH ? end - base : BATCH;
    for (uint64_t k = 0; k < n; k++) in[k] = (uint32_t)(base + k);
    if (convert(args[2], args[3], args[4], args[5], "nosat", "-", in, out, n)) {
      fprintf(stderr, "device-alone: convcert_convert failed at 0x%llx\n", (unsigned long long)base);
      exit(1);
    }
    sink += ((unsigned char *)out)[n - 1];
  }
  free(in);
  free(out);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: device-alone LIB FROM TO ROUNDING STATE THREADS OUT_BYTES\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib || !(convert = (convert_fn)dlsym(lib, "convcert_convert"))) {
    fprintf(stderr, "device-alone: %s\n", dlerror());
    return 2;
  }
  args = argv;
  threads = (unsigned)atoi(argv[6]);
  out_bytes = (unsigned)atoi(argv[7]);
  pthread_t t[64];
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (uintptr_t j = 0; j < threads; j++) pthread_create(&t[j], NULL, part, (void *)j);
  for (unsigned j = 0; j < threads; j++) pthread_join(t[j], NULL);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%.2f\n", (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
  return 0;
}
