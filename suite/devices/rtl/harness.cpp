// The direct flow: the Verilated convert_unit model speaks convcert's process protocol
// (suite/ADAPTERS.md), so the suite drives the RTL itself, every form and CTRL variant included:
//   convcert certify --adapter "process:cmd=obj_dir/Vfloat_to_bf16 ..." (see README.md)
#include "Vconvert_unit.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  Vconvert_unit model;
  char line[1024];
  if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  const char *modes[] = {"rn", "rz", "ru", "rd", "rna"};
  for (const char *m : modes) printf("CAP float bfloat16 %s *\n", m);
  printf("CAP float fp8_e4m3fn rn *\nCAP float fp8_e5m2 rn *\n");
  printf("READY\n");
  fflush(stdout);
  std::vector<uint32_t> in;
  std::vector<uint16_t> out;
  while (fgets(line, sizeof line, stdin)) {
    if (!strncmp(line, "QUIT", 4)) break;
    char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
    unsigned long long n;
    if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &n) != 7) {
      printf("ERR expected a BATCH line\n");
      fflush(stdout);
      continue;
    }
    int dst = !strcmp(to, "bfloat16") ? 0 : !strcmp(to, "fp8_e4m3fn") ? 1 : !strcmp(to, "fp8_e5m2") ? 2 : -1;
    if (strcmp(from, "float") || dst < 0) {
      printf("ERR not implemented: %s -> %s\n", from, to);
      fflush(stdout);
      return 2; // the batch's payload is unread: stop, the suite restarts the device
    }
    int width = dst == 0 ? 2 : 1;
    in.resize(n);
    out.resize(n);
    if (fread(in.data(), 4, n, stdin) != n) return 2;
    int mode = 0;
    while (mode < 5 && strcmp(modes[mode], rounding)) mode++;
    model.dst = dst;
    model.mode = mode;
    model.sat_suffix = !strcmp(form, "sat");
    model.implicit = !strcmp(form, "implicit");
    model.ctrl60 = strstr(ctrl, "60=0") ? 0 : 1; // '-' or absent: power-on values (CTRL[60]=1, CTRL[48]=0)
    model.ctrl48 = strstr(ctrl, "48=1") ? 1 : 0;
    model.ctrl50 = strstr(ctrl, "50=1") ? 1 : 0;
    for (unsigned long long i = 0; i < n; i++) {
      model.in = in[i];
      model.eval();
      out[i] = model.out;
    }
    printf("OK %llu\n", n);
    for (unsigned long long i = 0; i < n; i++) fwrite(&out[i], width, 1, stdout); // little-endian host

    fflush(stdout);
  }
  return 0;
}
