/*
 * An example device under test in C: a handful of conversions written the way firmware would write
 * them. Built two ways:
 *   gcc -O2 -o dut dut.c                    a process speaking the batch protocol (suite/ADAPTERS.md)
 *   gcc -O2 -shared -fPIC -DCONVCERT_LIBRARY -I../../native -o libdut.so dut.c
 *                                           a shared library with the ABI of suite/native/convcert_dut.h
 * The process takes --fault crash|hang|garbage|short|short-hang|long|error: it then also claims float->bfloat16
 * rz nosat and misbehaves on it, which the suite's robustness tests use; with any other fault name
 * (--fault truncate) it answers that case by plain truncation, wrong for NaN. With --shared it says
 * SHARED and takes its value batches in shared memory (suite/ADAPTERS.md, "Shared memory"): convcert
 * sends SHARED PATH CAPACITY, the device maps the file, and each CALL line names a slot whose inputs it
 * converts into the slot's outputs; the faults act the same way there. With --shared, --cheat plays a
 * device that tries to pass without converting, on every CALL: complement (writes the complement of what
 * the outputs held, reading no input), alternate (converts every other call and copies its last answer
 * into the next), other-slot (converts into the other slot's outputs), stray-guard (converts, then writes
 * a byte 8 bytes past the 64 after its outputs), stray-after (converts, then writes a byte after both
 * slots), rewrite-input (one output wrong, then its slot's inputs overwritten with 0xAB bytes), vanish (exits
 * when offered the memory, without answering), mute (never answers the offer);
 * alternate also over the pipes, answering every other batch with the last answer. The process also
 * implements the OpenCL memory functions vloadn/vstoren of the integer and float gentypes and as_type between
 * same-sized types, checking alignment (it refuses misaligned addresses).
 */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* IEEE float -> half, round to nearest even, non-saturating, NaN quieted with its top payload bits. */
static uint16_t float_to_half_rn(uint32_t x) {
    uint32_t sign = (x >> 16) & 0x8000, absx = x & 0x7FFFFFFF;
    if (absx > 0x7F800000) return (uint16_t)(sign | 0x7E00 | ((absx >> 13) & 0x3FF));
    if (absx >= 0x477FF000) return (uint16_t)(sign | 0x7C00);          /* >= 65520 rounds to inf */
    if (absx < 0x38800000) {                                           /* half subnormal or zero */
        if (absx < 0x33000000) return (uint16_t)sign;                  /* below 2^-25 */
        uint32_t shift = 126 - (absx >> 23), mant = (absx & 0x7FFFFF) | 0x800000;  /* quantum 2^-24 */
        uint32_t kept = mant >> shift, rest = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (kept & 1))) kept++;
        return (uint16_t)(sign | kept);
    }
    uint32_t kept = (absx - 0x38000000) >> 13, rest = absx & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (kept & 1))) kept++;
    return (uint16_t)(sign | kept);
}

static uint32_t half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return sign | 0x7F800000 | (m << 13) | (m ? 0x400000 : 0);
    if (e == 0) {
        if (m == 0) return sign;
        e = 113;
        while (!(m & 0x400)) { m <<= 1; e--; }
        return sign | (e << 23) | ((m & 0x3FF) << 13);
    }
    return sign | ((e + 112) << 23) | (m << 13);
}

/* float -> int32 toward zero, saturating, NaN -> 0 (a C cast is undefined out of range). */
static uint32_t float_to_int32_rz(uint32_t x) {
    float f = u2f(x);
    if (isnan(f)) return 0;
    if (f >= 2147483648.0f) return 0x7FFFFFFF;
    if (f <= -2147483648.0f) return 0x80000000u;
    return (uint32_t)(int32_t)f;
}

static uint32_t int32_to_float_rn(uint32_t i) { return f2u((float)(int32_t)i); }

/* float -> bfloat16, nearest even (the widely used formula), NaN quieted keeping sign and top bits. */
static uint16_t float_to_bf16_rn(uint32_t x) {
    if ((x & 0x7FFFFFFF) > 0x7F800000) return (uint16_t)((x >> 16) | 0x40);
    return (uint16_t)((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}

static uint16_t f2b_truncate(uint32_t x) { return (uint16_t)(x >> 16); } /* a wrong rz for NaN: used by faults */

/* A batch loop per conversion: packed little-endian elements in, packed elements out (memcpy keeps the
   loads and stores free of alignment assumptions; the compiler turns them into plain moves). */
#define BATCH_LOOP(name, IN, OUT, fn)                                                          \
    static void name(const uint8_t *in, uint8_t *out, uint64_t count) {                         \
        for (uint64_t i = 0; i < count; i++) {                                                  \
            IN x;                                                                               \
            memcpy(&x, in + i * sizeof(IN), sizeof x);                                          \
            OUT y = fn(x);                                                                      \
            memcpy(out + i * sizeof(OUT), &y, sizeof y);                                        \
        }                                                                                       \
    }
BATCH_LOOP(batch_f2h, uint32_t, uint16_t, float_to_half_rn)
BATCH_LOOP(batch_h2f, uint16_t, uint32_t, half_to_float)
BATCH_LOOP(batch_f2i, uint32_t, uint32_t, float_to_int32_rz)
BATCH_LOOP(batch_i2f, uint32_t, uint32_t, int32_to_float_rn)
BATCH_LOOP(batch_f2b, uint32_t, uint16_t, float_to_bf16_rn)
BATCH_LOOP(batch_f2b_truncate, uint32_t, uint16_t, f2b_truncate)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the batch loops read and write little-endian elements with memcpy: a big-endian host needs byte swaps"
#endif

typedef void (*batch_fn)(const uint8_t *, uint8_t *, uint64_t);
struct op { const char *from, *to, *rounding, *state; int in_bytes, out_bytes; batch_fn fn; };
static const struct op OPS[] = {
    {"float", "half", "rn", "nosat", 4, 2, batch_f2h},
    {"half", "float", "rn", "nosat", 2, 4, batch_h2f},
    {"float", "int32", "rz", "sat", 4, 4, batch_f2i},
    {"int32", "float", "rn", "nosat", 4, 4, batch_i2f},
    {"float", "bfloat16", "rn", "nosat", 4, 2, batch_f2b},
};
static const struct op FAULTY = {"float", "bfloat16", "rz", "nosat", 4, 2, batch_f2b_truncate};
#define NOPS (sizeof OPS / sizeof OPS[0])

static const struct op *find(const char *from, const char *to, const char *rounding, const char *state, int faulty) {
    for (size_t i = 0; i < NOPS; i++)
        if (!strcmp(OPS[i].from, from) && !strcmp(OPS[i].to, to) && !strcmp(OPS[i].rounding, rounding)
            && !strcmp(OPS[i].state, state)) return &OPS[i];
    if (faulty && !strcmp(from, FAULTY.from) && !strcmp(to, FAULTY.to) && !strcmp(rounding, FAULTY.rounding)
        && !strcmp(state, FAULTY.state)) return &FAULTY;
    return NULL;
}

static void run(const struct op *op, const uint8_t *in, uint8_t *out, uint64_t count) {
    op->fn(in, out, count);
}

#ifdef CONVCERT_LIBRARY
#include "convcert_dut.h"

static char last_error[256];

const char *convcert_capabilities(void) {
    static char text[1024];
    text[0] = 0;
    for (size_t i = 0; i < NOPS; i++) {
        char line[128];
        snprintf(line, sizeof line, "%s %s %s %s\n", OPS[i].from, OPS[i].to, OPS[i].rounding, OPS[i].state);
        strcat(text, line);
    }
    return text;
}

int convcert_convert(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                     const char *ctrl, const void *in, void *out, uint64_t count) {
    (void)form; (void)ctrl;
    const struct op *op = find(from, to, rounding, state, 0);
    if (!op) {
        snprintf(last_error, sizeof last_error, "not implemented: %s->%s %s %s", from, to, rounding, state);
        return 1;
    }
    run(op, in, out, count);
    last_error[0] = 0;
    return 0;
}

const char *convcert_last_error(void) { return last_error; }

#else

/* OpenCL memory functions: vloadn/vstoren on a byte image, as_type as a byte copy. */
static const char *MEM_TYPES[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float"};
static const int MEM_SIZES[] = {1, 1, 2, 2, 4, 4, 8, 8, 4};
static const int WIDTHS[] = {2, 3, 4, 8, 16};

static int type_size(const char *t) {
    for (int i = 0; i < 9; i++) if (!strcmp(MEM_TYPES[i], t)) return MEM_SIZES[i];
    return 0;
}

static uint32_t read_u32(void) { uint8_t b[4]; if (fread(b, 1, 4, stdin) != 4) exit(4); return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t read_u64(void) { uint64_t lo = read_u32(); return lo | (uint64_t)read_u32() << 32; }
static void write_i32(int32_t v) { uint32_t u = (uint32_t)v; uint8_t b[4] = {u, u >> 8, u >> 16, u >> 24}; fwrite(b, 1, 4, stdout); }

static void memory_batch(const char *function, const char *type, int n, const char *to_type, int to_n, unsigned long long count) {
    uint32_t images = read_u32();
    uint8_t **image = calloc(images + 1, sizeof *image);
    uint32_t *image_size = calloc(images + 1, sizeof *image_size);
    for (uint32_t k = 0; k < images; k++) {
        image_size[k] = read_u32();
        image[k] = malloc(image_size[k] + 1);
        if (fread(image[k], 1, image_size[k], stdin) != image_size[k]) exit(4);
    }
    int size = type_size(type), storage = n == 3 ? 4 : n;
    printf("OK %llu\n", count);
    for (unsigned long long i = 0; i < count; i++) {
        uint64_t pointer = read_u64(), offset = read_u64();
        int32_t index = (int32_t)read_u32();
        uint32_t data_len = read_u32();
        uint8_t *data = malloc(data_len + 1);
        if (data_len && fread(data, 1, data_len, stdin) != data_len) exit(4);
        if (!strcmp(function, "as_type")) {
            int to_size = type_size(to_type), to_storage = to_n == 3 ? 4 : to_n;
            if (to_size * to_storage != size * storage) write_i32(-1);          /* a compile error in OpenCL C */
            else { write_i32((int32_t)data_len); fwrite(data, 1, data_len, stdout); }
        } else {
            uint64_t address = pointer + offset * (uint64_t)n * size;
            uint8_t *mem = image[index];
            if (address % size != 0 || address + (uint64_t)n * size > image_size[index]) write_i32(-1);
            else if (!strcmp(function, "vload")) { write_i32(n * size); fwrite(mem + address, 1, n * size, stdout); }
            else {
                uint8_t *copy = malloc(image_size[index]);
                memcpy(copy, mem, image_size[index]);
                memcpy(copy + address, data, n * size);
                write_i32((int32_t)image_size[index]); fwrite(copy, 1, image_size[index], stdout);
                free(copy);
            }
        }
        free(data);
    }
    fflush(stdout);
    for (uint32_t k = 0; k < images; k++) free(image[k]);
    free(image); free(image_size);
}

/* The shared memory (suite/ADAPTERS.md): two slots of inputs and outputs, 8 x capacity bytes each, plus a guard. */
static uint8_t *shared_memory;
static unsigned long long shared_capacity;

static int map_shared(const char *path, unsigned long long capacity) {
    int fd = open(path, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || (unsigned long long)st.st_size < 2 * (16 * capacity + 64)) return 0;
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return 0;
    shared_memory = m;
    shared_capacity = capacity;
    return 1;
}

int main(int argc, char **argv) {
    const char *fault = NULL, *cheat = "";
    int offer_shared = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shared")) offer_shared = 1;
        if (!strcmp(argv[i], "--fault") && i + 1 < argc) fault = argv[i + 1];
        if (!strcmp(argv[i], "--cheat") && i + 1 < argc) cheat = argv[i + 1];
    }
    uint8_t *last_out = NULL;
    unsigned long long calls = 0;
    char line[512];
    if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10)) { fprintf(stderr, "bad hello\n"); return 2; }
    for (size_t i = 0; i < NOPS; i++) printf("CAP %s %s %s %s\n", OPS[i].from, OPS[i].to, OPS[i].rounding, OPS[i].state);
    if (fault) printf("CAP %s %s %s %s\n", FAULTY.from, FAULTY.to, FAULTY.rounding, FAULTY.state);
    for (int t = 0; t < 9; t++)
        for (int w = 0; w < 5; w++) {
            printf("MEM vload%d %s%d\nMEM vstore%d %s%d\n", WIDTHS[w], MEM_TYPES[t], WIDTHS[w], WIDTHS[w], MEM_TYPES[t], WIDTHS[w]);
            for (int u = 0; u < 9; u++)
                if (u != t && MEM_SIZES[u] == MEM_SIZES[t]) printf("MEM as_%s%d %s%d\n", MEM_TYPES[u], WIDTHS[w], MEM_TYPES[t], WIDTHS[w]);
        }
    printf("ALIGNMENT checked\n%sREADY\n", offer_shared ? "SHARED\n" : "");
    fflush(stdout);
    static uint8_t in[1 << 22], out[1 << 22];
    uint8_t stray_fill = 0;
    unsigned long long count;
    while (fgets(line, sizeof line, stdin)) {
        char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
        if (!strncmp(line, "QUIT", 4)) return 0;
        if (!strncmp(line, "MEMORY ", 7)) {
            char function[32], type[16], rnd[8], to_type[16];
            int n, to_n;
            if (sscanf(line, "MEMORY %31s %15s %d %7s %15s %d %llu", function, type, &n, rnd, to_type, &to_n, &count) != 7) {
                printf("ERR bad memory header\n"); fflush(stdout); return 2;
            }
            memory_batch(function, type, n, to_type, to_n, count);
            continue;
        }
        if (!strncmp(line, "SHARED ", 7)) {
            char path[400];
            unsigned long long capacity;
            if (!strcmp(cheat, "vanish")) return 3;
            if (!strcmp(cheat, "mute")) for (;;) pause();
            int ok = sscanf(line, "SHARED %399s %llu", path, &capacity) == 2 && map_shared(path, capacity);
            if (ok) stray_fill = shared_memory[2 * (16 * shared_capacity + 64) + 100]; /* what stray-after overwrites */
            printf(ok ? "OK\n" : "ERR cannot map the shared memory\n"); fflush(stdout); continue;
        }
        uint8_t *batch_in = in, *batch_out = out;
        int call = !strncmp(line, "CALL ", 5);
        if (call) { /* CALL FROM TO ROUNDING STATE FORM CTRL COUNT IN-BYTES OUT-BYTES LANE SLOT */
            char lane[16];
            unsigned long long in_size, out_size, slot;
            if (!shared_memory || sscanf(line, "CALL %31s %31s %7s %15s %15s %63s %llu %llu %llu %15s %llu", from, to,
                                         rounding, state, form, ctrl, &count, &in_size, &out_size, lane, &slot) != 11
                || slot > 1 || count > shared_capacity || strcmp(lane, "-")) {
                printf("ERR bad call\n"); fflush(stdout); continue;
            }
            batch_in = shared_memory + slot * (16 * shared_capacity + 64);
            batch_out = batch_in + 8 * shared_capacity;
        } else if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7) {
            printf("ERR bad header\n"); fflush(stdout); return 2;
        }
        const struct op *op = find(from, to, rounding, state, fault != NULL);
        size_t in_bytes = op ? (size_t)op->in_bytes * count : 0;
        if (!op || (!call && (in_bytes > sizeof in || fread(in, 1, in_bytes, stdin) != in_bytes))) {
            printf("ERR not implemented: %s->%s %s %s\n", from, to, rounding, state); fflush(stdout); continue;
        }
        if (op == &FAULTY && count > 0) { /* the batch of 0 around a case stays a plain answer */
            if (!strcmp(fault, "crash")) { fprintf(stderr, "dut: simulated crash\n"); abort(); }
            if (!strcmp(fault, "hang")) { for (;;) pause(); }
            if (!strcmp(fault, "garbage")) { printf("\x01\x02garbage\n"); fflush(stdout); continue; }
            if (!strcmp(fault, "error")) { printf("ERR simulated device error\n"); fflush(stdout); continue; }
            if (call && !strcmp(fault, "short")) { printf("OK %llu\n", count); fflush(stdout); return 3; } /* outputs left unwritten */
            if (call && !strcmp(fault, "long")) { run(op, batch_in, batch_out, count + 1); printf("OK %llu\n", count); fflush(stdout); continue; }
            if (!strcmp(fault, "short")) { printf("OK %llu\n", count); fwrite(out, 1, count, stdout); fflush(stdout); return 3; }
            if (!strcmp(fault, "short-hang")) { /* three bytes short of its answer, then silent and alive */
                run(op, in, out, count); printf("OK %llu\n", count); fwrite(out, 1, 2 * count - 3, stdout); fflush(stdout);
                for (;;) pause();
            }
            if (!strcmp(fault, "long")) { printf("OK %llu\n", count + 1); run(op, in, out, count); fwrite(out, 1, 2 * count + 2, stdout); fflush(stdout); continue; }
        }
        size_t bytes = (size_t)op->out_bytes * count, slot_bytes = 16 * shared_capacity + 64;
        if (count > 0 && !strcmp(cheat, "complement") && call) for (size_t i = 0; i < bytes; i++) batch_out[i] = (uint8_t)~batch_out[i];
        else if (count > 0 && !strcmp(cheat, "alternate") && calls++ % 2 && last_out) memmove(batch_out, last_out, bytes);
        else if (count > 0 && !strcmp(cheat, "other-slot") && call) {
            uint8_t *other = batch_in == shared_memory ? shared_memory + slot_bytes : shared_memory;
            run(op, batch_in, other + 8 * shared_capacity, count);
        } else {
            run(op, batch_in, batch_out, count);
            last_out = batch_out;
            if (count > 0 && call && !strcmp(cheat, "stray-guard")) batch_out[bytes + 64 + 8] ^= 1;
            /* the same wrong byte every call: a toggle would undo itself on every second call, unseen */
            if (count > 0 && call && !strcmp(cheat, "stray-after")) shared_memory[2 * slot_bytes + 100] = (uint8_t)~stray_fill;
            if (count > 0 && call && !strcmp(cheat, "rewrite-input")) { /* one wrong answer, then its inputs overwritten */
                batch_out[0] ^= 1;
                memset(batch_in, 0xAB, (size_t)op->in_bytes * count);
            }
        }
        printf("OK %llu\n", count);
        if (!call) fwrite(out, 1, (size_t)op->out_bytes * count, stdout);
        fflush(stdout);
    }
    return 0;
}
#endif
