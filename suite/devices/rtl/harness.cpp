// The direct flow: the Verilated float_to_bf16 model speaks convcert's process protocol
// (suite/ADAPTERS.md), so the suite drives the RTL itself, every form and CTRL variant included:
//   convcert certify --adapter "process:cmd=obj_dir/Vfloat_to_bf16 ..." (see README.md)
#include "Vfloat_to_bf16.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  Vfloat_to_bf16 model;
  char line[1024];
  if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  const char *modes[] = {"rn", "rz", "ru", "rd", "rna"};
  for (const char *m : modes) printf("CAP float bfloat16 %s *\n", m);
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
    in.resize(n);
    out.resize(n);
    if (fread(in.data(), 4, n, stdin) != n) return 2;
    int mode = 0;
    while (mode < 5 && strcmp(modes[mode], rounding)) mode++;
    model.mode = mode;
    model.sat_suffix = !strcmp(form, "sat");
    model.implicit = !strcmp(form, "implicit");
    model.ctrl60 = strstr(ctrl, "60=0") ? 0 : 1; // '-' or absent: power-on values (CTRL[60]=1, CTRL[48]=0)
    model.ctrl48 = strstr(ctrl, "48=1") ? 1 : 0;
    for (unsigned long long i = 0; i < n; i++) {
      model.in = in[i];
      model.eval();
      out[i] = model.out;
    }
    printf("OK %llu\n", n);
    fwrite(out.data(), 2, n, stdout);
    fflush(stdout);
  }
  return 0;
}
