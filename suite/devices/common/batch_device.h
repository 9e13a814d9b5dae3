/*
 * The batch loop of a process device (suite/ADAPTERS.md, "The process protocol") whose conversions each take one
 * value of up to 32 bits to one: the handshake (a CAP line per conversion, nosat), then BATCH lines answered with
 * OK and the outputs. The devices that convert with a library's own functions (mindspore, ge-hif8, cann-adump)
 * list their conversions and call serve().
 */
#ifndef CONVCERT_BATCH_DEVICE_H
#define CONVCERT_BATCH_DEVICE_H

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace convcert_device {

struct Op {
  const char *from, *to, *rounding;
  int in_bytes, out_bytes;
  uint32_t (*convert)(uint32_t);
};

template <size_t N>
const Op *find(const Op (&ops)[N], const char *from, const char *to, const char *rounding) {
  for (const Op &op : ops) {
    if (!std::strcmp(op.from, from) && !std::strcmp(op.to, to) && !std::strcmp(op.rounding, rounding)) return &op;
  }
  return nullptr;
}

/** Speaks the protocol on stdin and stdout until QUIT or the end of input; the process's exit status. */
template <size_t N>
int serve(const Op (&ops)[N]) {
  char line[256];
  if (!std::fgets(line, sizeof line, stdin) || std::strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  for (const Op &op : ops) std::printf("CAP %s %s %s nosat\n", op.from, op.to, op.rounding);
  std::printf("READY\n");
  std::fflush(stdout);
  static uint8_t in[4 * 65536], out[4 * 65536];
  while (std::fgets(line, sizeof line, stdin)) {
    if (!std::strncmp(line, "QUIT", 4)) return 0;
    char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
    unsigned long long count;
    if (std::sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7
        || count > 65536) {
      std::printf("ERR malformed batch\n");
      std::fflush(stdout);
      return 2;
    }
    const Op *op = find(ops, from, to, rounding);
    if (!op) {
      std::printf("ERR not claimed: %s %s %s\n", from, to, rounding);
      std::fflush(stdout);
      return 2;
    }
    if (count && std::fread(in, op->in_bytes, count, stdin) != count) return 3;
    for (unsigned long long i = 0; i < count; i++) {
      uint32_t x = 0;
      std::memcpy(&x, in + op->in_bytes * i, op->in_bytes);
      uint32_t r = op->convert(x);
      std::memcpy(out + op->out_bytes * i, &r, op->out_bytes);
    }
    std::printf("OK %llu\n", count);
    std::fwrite(out, op->out_bytes, count, stdout);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace convcert_device

#endif
