// float -> OCP FP8 as the Ascend C profile defines it (conversions.csv rows float,fp8_e4m3fn and
// float,fp8_e5m2: rn, group A; formats.csv: E4M3FN has no infinity and one NaN per sign, E5M2 is
// IEEE-like; sat_nan=ctrl50: under saturation a NaN gives +0 unless CTRL[50]=1 keeps it), combinational.
// E5M2 = 1 selects E5M2, else E4M3FN. `define PLANTED_TIES_AWAY plants the same bug as float_to_bf16.
module float_to_fp8 #(parameter bit E5M2 = 1'b0) (
  input  logic [31:0] in,
  input  logic        saturating,
  input  logic        ctrl50,
  output logic [7:0]  out
);
  localparam integer M = E5M2 ? 2 : 3;                 // mantissa bits
  localparam integer B = E5M2 ? 15 : 7;                // bias
  localparam integer EMIN = 1 - B;                     // smallest normal exponent
  localparam integer EMAX = E5M2 ? 15 : 8;             // exponent of the largest finite value
  localparam logic [6:0] MAX = E5M2 ? 7'h7B : 7'h7E;

  logic        sign, nan, inf, half, sticky, up;
  logic [25:0] significand;  // two spare bits: a shift capped at 25 still finds the half bit 0
  integer      e, shift;
  logic [25:0] kept, rest;
  logic [7:0]  code;

  always_comb begin
    sign = in[31];
    nan = in[30:23] == 8'hFF && in[22:0] != 0;
    inf = in[30:23] == 8'hFF && in[22:0] == 0;
    significand = {2'b0, in[30:23] != 0, in[22:0]};
    e = (in[30:23] == 0 ? 1 : {24'b0, in[30:23]}) - 127;
    // bits below the destination's last kept bit: 23 - M in the normal range, more below it
    shift = 23 - M + (e < EMIN ? EMIN - e : 0);
    if (shift > 25) shift = 25;
    kept = significand >> shift;
    rest = significand & ((26'd1 << shift) - 26'd1);
    half = rest[shift - 1];
    sticky = (rest & ((26'd1 << (shift - 1)) - 26'd1)) != 0;
`ifdef PLANTED_TIES_AWAY
    up = half;
`else
    up = half && (sticky || kept[0]);
`endif
    // normal: the biased exponent's field, then kept with its leading one (a carry adds up right);
    // below the smallest normal: kept itself
    code = e >= EMIN ? 8'((e + B - 1) << M) + 8'(kept) + 8'(up) : 8'(kept) + 8'(up);
    if (nan)
      out = saturating && !ctrl50 ? 8'h00 : (E5M2 ? {sign, 5'h1F, 1'b1, in[21]} : {sign, 7'h7F});
    else if (inf || e > EMAX || code[6:0] > MAX || code[7])
      out = saturating ? {sign, MAX} : (E5M2 ? {sign, 7'h7C} : {sign, 7'h7F});
    else
      out = {sign, code[6:0]};
  end
endmodule
