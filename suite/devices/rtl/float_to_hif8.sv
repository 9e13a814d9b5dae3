// float -> HiFloat8 in TA (CAST_ROUND, "_rna"), written by hand from Ascend C's pseudo-code ("float转hifloat8_t
// 转换规则", research formats.md 1.4.1), not from convcert's tables: the input's binade sets how many mantissa
// bits are kept (3 for |E| <= 3, 2 for 4..7, 1 for 8..15, none for the denormals 2^-22..2^-16), the first bit
// dropped rounds the magnitude up (ties away), a carry moves the exponent up, and the result is encoded with
// HiFloat8's prefix-coded dot field. Saturating (the _sat suffix, or CTRL[60]=1 with CTRL[48]=0) gives +-32768
// for infinities and overflows and 0 for NaN; otherwise they give +-Inf (0x6F/0xEF) and 0x80. Combinational.
// `define PLANTED_SIGNED_ZERO plants a bug: a negative underflow keeps its sign, which gives 0x80, the NaN.
module float_to_hif8 (
  input  logic [31:0] in,
  input  logic        saturating,
  output logic [7:0]  out
);
  logic       sign, negative, up;
  logic [7:0] biased;
  logic [2:0] kept;
  integer     ev, e, magnitude, bits, m;

  always_comb begin
    sign = in[31];
    biased = in[30:23];
    ev = biased - 127;  // the input's exponent, which sets the rounding
    magnitude = ev < 0 ? -ev : ev;
    bits = magnitude <= 3 ? 3 : magnitude <= 7 ? 2 : 1;
    kept = 3'(in[22:20] >> (3 - bits));
    up = in[22 - bits];
    e = ev;
    m = kept + up;
    if (ev < -15) begin  // the denormals: a power of two, rounded up from 1.5 of it (in[22] is the half)
      e = ev + in[22];
      m = 0;
    end else if (m == (1 << bits)) begin  // the carry: the next binade's 1.0
      m = 0;
      e = ev + 1;
    end
    negative = e < 0;
    magnitude = negative ? -e : e;
    out = 8'h00;
    if (biased == 8'hFF && in[22:0] != 0) out = saturating ? 8'h00 : 8'h80;
    else if (biased == 8'hFF || e > 15 || (e == 15 && m == 1)) out = {sign, saturating ? 7'h6E : 7'h6F};  // 1.5 * 2^15 is Inf's code
`ifdef PLANTED_SIGNED_ZERO
    else if (ev < -23) out = {sign, 7'h00};  // the bug: -0's code, which in HiFloat8 is the NaN
`else
    else if (ev < -23) out = 8'h00;  // no -0: the sign is lost
`endif
    else if (ev == -23) out = {sign, 7'h01};  // [2^-23, 2^-22): up to the least denormal
    else if (e < -15) out = {sign, 4'b0000, 3'(e + 23)};
    else if (magnitude == 0) out = {sign, 4'b0001, 3'(m)};
    else if (magnitude == 1) out = {sign, 3'b001, negative, 3'(m)};
    else if (magnitude <= 3) out = {sign, 2'b01, negative, 1'(magnitude), 3'(m)};
    else if (magnitude <= 7) out = {sign, 2'b10, negative, 2'(magnitude), 2'(m)};
    else out = {sign, 2'b11, negative, 3'(magnitude), 1'(m)};
  end
endmodule
