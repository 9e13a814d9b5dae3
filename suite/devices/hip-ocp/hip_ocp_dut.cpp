/*
 * AMD's own host model of gfx950's scaled OCP conversions (HIP's amd_hip_ocp_host.hpp: the code the
 * __amd_cvt_*_scale APIs run when compiled for the host) as a process device speaking convcert's
 * protocol with the SCALE handshake line (suite/ADAPTERS.md). Nothing of convcert's reference is in
 * it: each element goes to fcbx::from_float / fcbx::to_float with the encoding HIP's scaled APIs
 * use (E4M3Mx, E5M2Mx, E2M3, E3M2, E2M1; sat = true) and the scale as the int8_t __amd_scale_t the
 * header declares (the low byte of the u32 lane word, two's complement: -128 is the NaN scale).
 *
 * --fault e8m0-scale  reads each scale byte as HIP's documentation describes __amd_scale_t, an
 *                     OCP E8M0 byte (2^(byte - 127), 0xFF NaN), and hands the header that exponent
 * --record VECTORS OUT  converts every gfx950 case of a vector set (VECTORS/gfx950/FROM-TO/R-S.in.bin
 *                     with its .scale.bin) into a replay recording under OUT, inputs and scales beside
 *
 * Build (the header is not ours to copy; fetch ROCm's clr, or rocm-systems' projects/clr):
 *   clang++ -std=c++17 -O2 -I <clr>/hipamd/include/hip/amd_detail -o hip_ocp_dut hip_ocp_dut.cpp
 * with clang 15 or later, or g++ 13 or later (the header declares _Float16 and __bf16 storage types).
 */
#define __host__
#define __device__
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "amd_hip_ocp_host.hpp"

using fcbx::Encoding;

namespace {

bool e8m0_fault = false;

// The scale exponent HIP's host code receives for a lane word.
int8_t scale_exponent(uint32_t word) {
    uint8_t byte = word & 0xFF;
    if (!e8m0_fault) return (int8_t)byte;
    return byte == 0xFF ? fcbx::OCP_SCALE_EXP_NAN : (int8_t)(byte - 127);
}

template <Encoding E> uint32_t narrow(uint32_t bits, int8_t k) {
    float x;
    std::memcpy(&x, &bits, 4);
    return fcbx::from_float<float, E, true>(x, k);
}

template <Encoding E> uint32_t widen(uint32_t code, int8_t k) {
    float x = fcbx::to_float<float, E, true>(code, k);
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    return bits;
}

struct Pair { const char *from, *to; uint32_t (*convert)(uint32_t, int8_t); };

const Pair PAIRS[] = {
    {"float", "fp8_e4m3fn", narrow<Encoding::E4M3Mx>}, {"float", "fp8_e5m2", narrow<Encoding::E5M2Mx>},
    {"float", "fp6_e2m3", narrow<Encoding::E2M3>},     {"float", "fp6_e3m2", narrow<Encoding::E3M2>},
    {"float", "fp4_e2m1", narrow<Encoding::E2M1>},     {"fp8_e4m3fn", "float", widen<Encoding::E4M3Mx>},
    {"fp8_e5m2", "float", widen<Encoding::E5M2Mx>},    {"fp6_e2m3", "float", widen<Encoding::E2M3>},
    {"fp6_e3m2", "float", widen<Encoding::E3M2>},      {"fp4_e2m1", "float", widen<Encoding::E2M1>},
};

const Pair *find(const char *from, const char *to) {
    for (const Pair &p : PAIRS)
        if (!std::strcmp(p.from, from) && !std::strcmp(p.to, to)) return &p;
    return nullptr;
}

int width(const char *format) { return std::strcmp(format, "float") ? 1 : 4; }

void convert(const Pair &p, const uint8_t *in, const uint32_t *scale, uint8_t *out, size_t count) {
    int sw = width(p.from), dw = width(p.to);
    for (size_t i = 0; i < count; i++) {
        uint32_t x = 0, y;
        std::memcpy(&x, in + sw * i, sw);
        y = p.convert(x, scale_exponent(scale[i]));
        std::memcpy(out + dw * i, &y, dw);
    }
}

std::vector<uint8_t> slurp(const std::filesystem::path &file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The replay layout (suite/ADAPTERS.md): FROM-TO/ROUNDING-STATE.out.bin beside its .in.bin and .scale.bin.
int record(const std::filesystem::path &vectors, const std::filesystem::path &out) {
    namespace fs = std::filesystem;
    try {
        for (const Pair &p : PAIRS) {
            std::string name = std::string(p.from) + "-" + p.to;
            fs::path from = vectors / "gfx950" / name, to = out / "gfx950" / name;
            if (!fs::is_directory(from)) continue;
            for (const auto &entry : fs::directory_iterator(from)) {
                std::string file = entry.path().filename().string();
                if (file.size() < 7 || file.compare(file.size() - 7, 7, ".in.bin")) continue;
                std::string stem = file.substr(0, file.size() - 7);
                std::vector<uint8_t> in = slurp(entry.path()), scale = slurp(from / (stem + ".scale.bin"));
                size_t count = in.size() / width(p.from);
                size_t sb = count ? scale.size() / count : 1;   // a vector set stores each scale in 1 or 2 bytes
                if ((sb != 1 && sb != 2) || scale.size() != sb * count)
                    throw std::runtime_error("scales do not match " + entry.path().string());
                std::vector<uint32_t> words(count);
                for (size_t i = 0; i < count; i++) words[i] = sb == 1 ? scale[i] : scale[2 * i] | scale[2 * i + 1] << 8;
                std::vector<uint8_t> result(count * width(p.to));
                convert(p, in.data(), words.data(), result.data(), count);
                fs::create_directories(to);
                fs::copy_file(entry.path(), to / file, fs::copy_options::overwrite_existing);
                fs::copy_file(from / (stem + ".scale.bin"), to / (stem + ".scale.bin"), fs::copy_options::overwrite_existing);
                std::ofstream o(to / (stem + ".out.bin"), std::ios::binary);
                o.write(reinterpret_cast<const char *>(result.data()), result.size());
                if (!o.flush()) throw std::runtime_error("cannot write " + (to / (stem + ".out.bin")).string());
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "hip_ocp_dut: %s\n", e.what());
        return 2;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i++)
        if (!std::strcmp(argv[i], "--fault")) e8m0_fault = !std::strcmp(argv[i + 1], "e8m0-scale");
    for (int i = 1; i + 2 < argc; i++)
        if (!std::strcmp(argv[i], "--record")) return record(argv[i + 1], argv[i + 2]);
    char line[1024];
    if (!std::fgets(line, sizeof line, stdin) || std::strncmp(line, "CONVCERT 1", 10)) return 2;
    for (const Pair &p : PAIRS) std::printf("CAP %s %s rn *\n", p.from, p.to);
    std::printf("SCALE\nREADY\n");
    std::fflush(stdout);
    static uint8_t in[4 * 65536], out[4 * 65536];
    static uint32_t scale[65536];
    while (std::fgets(line, sizeof line, stdin)) {
        if (!std::strncmp(line, "QUIT", 4)) return 0;
        char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
        unsigned long long count;
        if (std::sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl,
                        &count) != 7 || count > 65536) {
            std::printf("ERR malformed batch\n");
            std::fflush(stdout);
            return 2;
        }
        const Pair *p = find(from, to);
        if (!p) { std::printf("ERR not implemented: %s->%s\n", from, to); std::fflush(stdout); return 2; }
        if (count && (std::fread(in, width(from), count, stdin) != count || std::fread(scale, 4, count, stdin) != count))
            return 3;
        convert(*p, in, scale, out, count);
        std::printf("OK %llu\n", count);
        std::fwrite(out, width(to), count, stdout);
        std::fflush(stdout);
    }
    return 0;
}
