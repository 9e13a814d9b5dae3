/*
 * convcert-host: loads a device under test's shared library (the ABI of convcert_dut.h) in a process of
 * its own, so that nothing the library does (crash, exit, hang, stray writes) can touch convcert.
 *
 *   convcert-host LIBRARY SHARED-MEMORY-FILE
 *
 * It speaks a variant of the batch protocol of suite/ADAPTERS.md on stdin/stdout: "CONVCERT 1" in,
 * a CAP line per capability, RANDOM, SCALE and FLAGS where the library has the optional symbols, and
 * READY out; then per batch one header line
 *   CALL FROM TO ROUNDING STATE FORM CTRL COUNT IN-BYTES OUT-BYTES LANE
 * (LANE "-", "random" or "scale"; SLOT 0 or 1) answered "OK COUNT" or "ERR message", in the order they
 * came. The elements themselves never cross the pipe: the shared memory file holds two slots of CAPACITY
 * elements, each its inputs then its outputs (8 x CAPACITY bytes each), packed little-endian in the
 * elements' own widths as the library reads and writes them, then GUARD bytes; after the slots a
 * uint32 lane value per element and a flags byte per element, for slot 0's batches (SharedMemory.java,
 * suite/ADAPTERS.md "Shared memory"). CAPACITY follows from the file's size. convcert poisons the
 * outputs, a guard after them and the flags before each call; a library that leaves outputs unwritten
 * or writes past them is caught there. The library's own writes to stdout go to stderr, so they cannot
 * forge an answer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef const char *(*capabilities_fn)(void);
typedef int (*convert_fn)(const char *, const char *, const char *, const char *, const char *, const char *,
                          const void *, void *, uint64_t);
typedef const char *(*last_error_fn)(void);
typedef const char *(*lanes_fn)(void);
typedef int (*programs_saturation_fn)(void);
typedef int (*convert_lane_fn)(const char *, const char *, const char *, const char *, const char *, const char *,
                               const char *, const uint32_t *, const void *, void *, uint64_t);
typedef int (*convert_flags_fn)(const char *, const char *, const char *, const char *, const char *, const char *,
                                const void *, void *, uint8_t *, uint64_t);

/* The shared memory file (SharedMemory.java): two slots of 16 x CAPACITY + GUARD bytes (inputs, outputs,
   guard), then CAPACITY uint32 lane values, then CAPACITY flags bytes: 37 x CAPACITY + 2 x GUARD bytes. */
#define GUARD 64
#define SLOTS 2

static FILE *protocol; /* the real stdout: only this program writes the protocol */

/* Writes s without its line breaks or control characters, so a reason stays one protocol line. */
static void put_text(const char *s) {
    for (size_t i = 0; s && s[i] && i < 400; i++) {
        unsigned char c = (unsigned char)s[i];
        fputc(c < 0x20 || c == 0x7F ? ' ' : c, protocol);
    }
}

static void fail(const char *what, const char *why) {
    fputs("ERR ", protocol);
    put_text(what);
    if (why) {
        fputs(": ", protocol);
        put_text(why);
    }
    fputc('\n', protocol);
    fflush(protocol);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: convcert-host LIBRARY SHARED-MEMORY-FILE\n");
        return 2;
    }
    int fd = dup(1); /* the protocol keeps the pipe; fd 1 becomes stderr for the library */
    protocol = fd < 0 ? NULL : fdopen(fd, "w");
    if (!protocol || dup2(2, 1) < 0) {
        fprintf(stderr, "convcert-host: cannot set up its output: %s\n", strerror(errno));
        return 2;
    }
    char line[1024];
    if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10)) {
        fprintf(stderr, "convcert-host: bad hello\n");
        return 2;
    }
    int shm = open(argv[2], O_RDWR);
    struct stat st;
    if (shm < 0 || fstat(shm, &st) < 0 || st.st_size <= SLOTS * GUARD || (st.st_size - SLOTS * GUARD) % 37 != 0) {
        fail("cannot open the shared memory file, or its size is not 37 x CAPACITY + 128", strerror(errno));
        return 2;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, shm, 0);
    if (memory == MAP_FAILED) {
        fail("cannot map the shared memory file", strerror(errno));
        return 2;
    }
    close(shm);
    size_t capacity = (size - SLOTS * GUARD) / 37, half = 8 * capacity, slot_bytes = 2 * half + GUARD;
    uint32_t *lanes = (uint32_t *)(memory + SLOTS * slot_bytes);
    uint8_t *flags = memory + SLOTS * slot_bytes + 4 * capacity;
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        char what[600];
        snprintf(what, sizeof what, "cannot load %s", argv[1]);
        fail(what, dlerror());
        return 2;
    }
    capabilities_fn capabilities = (capabilities_fn)dlsym(library, "convcert_capabilities");
    convert_fn convert = (convert_fn)dlsym(library, "convcert_convert");
    last_error_fn last_error = (last_error_fn)dlsym(library, "convcert_last_error");
    if (!capabilities || !convert || !last_error) {
        fputs("ERR the library has no symbol ", protocol);
        fputs(!capabilities ? "convcert_capabilities" : !convert ? "convcert_convert" : "convcert_last_error", protocol);
        fputc('\n', protocol);
        fflush(protocol);
        return 2;
    }
    const char *listed = capabilities();
    if (!listed) {
        fputs("ERR convcert_capabilities() of ", protocol);
        put_text(argv[1]);
        fputs(" returned NULL; it must return \"FROM TO ROUNDING STATE\\n\" lines\n", protocol);
        fflush(protocol);
        return 2;
    }
    for (const char *p = listed; *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        int blank = 1;
        for (size_t i = 0; i < n; i++) blank &= p[i] == ' ' || p[i] == '\t' || p[i] == '\r';
        if (!blank) {
            fputs("CAP ", protocol);
            fwrite(p, 1, n, protocol);
            fputc('\n', protocol);
        }
        p += n + (end ? 1 : 0);
    }
    lanes_fn lanes_of = (lanes_fn)dlsym(library, "convcert_lanes");
    convert_lane_fn convert_lane = (convert_lane_fn)dlsym(library, "convcert_convert_lane");
    convert_flags_fn convert_flags = (convert_flags_fn)dlsym(library, "convcert_convert_flags");
    const char *taken = lanes_of && convert_lane ? lanes_of() : NULL;
    if (taken && strstr(taken, "random")) fputs("RANDOM\n", protocol);
    if (taken && strstr(taken, "scale")) fputs("SCALE\n", protocol);
    if (convert_flags) fputs("FLAGS\n", protocol);
    programs_saturation_fn programs = (programs_saturation_fn)dlsym(library, "convcert_programs_saturation");
    if (programs && programs() == 0) fputs("SATURATION told\n", protocol);
    fputs("READY\n", protocol);
    fflush(protocol);
    while (fgets(line, sizeof line, stdin)) {
        char from[64], to[64], rounding[16], state[32], form[16], ctrl[128], lane[16];
        unsigned long long count, in_bytes, out_bytes, slot;
        if (!strncmp(line, "QUIT", 4)) return 0;
        if (sscanf(line, "CALL %63s %63s %15s %31s %15s %127s %llu %llu %llu %15s %llu", from, to, rounding, state, form,
                   ctrl, &count, &in_bytes, &out_bytes, lane, &slot) != 11) {
            fail("bad header", line);
            continue;
        }
        if (in_bytes > 8 || out_bytes > 8 || count > capacity || slot >= SLOTS) {
            fail("batch larger than the shared memory, or no such slot", NULL);
            continue;
        }
        int with_lane = strcmp(lane, "-") != 0;
        if (with_lane && !taken) {
            fail("the library takes no lane", lane);
            continue;
        }
        uint8_t *in = memory + slot * slot_bytes, *out = in + half;
        int status = with_lane ? convert_lane(from, to, rounding, state, form, ctrl, lane, lanes, in, out, (uint64_t)count)
                     : convert_flags && slot == 0 ? convert_flags(from, to, rounding, state, form, ctrl, in, out, flags,
                                                                  (uint64_t)count)
                     : convert(from, to, rounding, state, form, ctrl, in, out, (uint64_t)count);
        if (status != 0) {
            char status_text[32];
            snprintf(status_text, sizeof status_text, "%d", status);
            const char *why = last_error();
            fputs("ERR convcert_convert returned ", protocol);
            fputs(status_text, protocol);
            fputs(": ", protocol);
            put_text(why ? why : "(convcert_last_error() returned NULL)");
            fputc('\n', protocol);
            fflush(protocol);
            continue;
        }
        fprintf(protocol, "OK %llu\n", count);
        fflush(protocol);
    }
    return 0;
}
