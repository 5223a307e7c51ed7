/*
 * LD_PRELOAD library that makes a NetHack 3.6 game reproducible: NetHack seeds its random number generators
 * from /dev/urandom (opened with fopen) and reads the clock with time() (the moon phase, night, Friday 13th).
 * With PROLONG_NETHACK_SEED set, fopen("/dev/urandom") returns an in-memory stream of bytes derived from that
 * seed; with PROLONG_NETHACK_TIME set, time() returns that value. Unset, both behave as usual.
 * Built by scripts/build-native.ts with the system C compiler and embedded in the single binary.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned char seed_bytes[256];

/* splitmix64: spreads one 64-bit seed over the bytes a reader may ask for. */
static void fill_seed(uint64_t state) {
  for (size_t i = 0; i < sizeof seed_bytes; i += 8) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    memcpy(seed_bytes + i, &z, 8);
  }
}

static FILE *seeded_stream(const char *path) {
  const char *seed = getenv("PROLONG_NETHACK_SEED");
  if (seed == NULL || path == NULL || strcmp(path, "/dev/urandom") != 0) return NULL;
  fill_seed(strtoull(seed, NULL, 10));
  return fmemopen(seed_bytes, sizeof seed_bytes, "r");
}

FILE *fopen(const char *path, const char *mode) {
  FILE *seeded = seeded_stream(path);
  if (seeded != NULL) return seeded;
  FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
  return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode) {
  FILE *seeded = seeded_stream(path);
  if (seeded != NULL) return seeded;
  FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen64");
  return real(path, mode);
}

time_t time(time_t *out) {
  const char *fixed = getenv("PROLONG_NETHACK_TIME");
  time_t now;
  if (fixed != NULL) {
    now = (time_t)strtoll(fixed, NULL, 10);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    now = ts.tv_sec;
  }
  if (out != NULL) *out = now;
  return now;
}
