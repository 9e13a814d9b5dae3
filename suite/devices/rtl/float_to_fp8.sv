// float -> OCP FP8 as the Ascend C profile defines it (conversions.csv rows float,fp8_e4m3fn and
// float,fp8_e5m2: rn, group A; formats.csv: E4M3FN has no infinity and one NaN per sign, E5M2 is
// IEEE-like; sat_nan=ctrl50: under saturation a NaN gives +0 unless CTRL[50]=1 keeps it), combinational.
// E5M2 = 1 selects E5M2, else E4M3FN. SE and SM are the source's exponent and mantissa bits: 8 and 23 for
// float, 11 and 52 for double (double_to_fp8.sv). `define PLANTED_TIES_AWAY plants the same bug as float_to_bf16.
module float_to_fp8 #(parameter bit E5M2 = 1'b0, parameter integer SE = 8, parameter integer SM = 23) (
  input  logic [SE + SM:0] in,
  input  logic        saturating,
  input  logic        ctrl50,
  output logic [7:0]  out
);
  localparam integer M = E5M2 ? 2 : 3;                 // mantissa bits
  localparam integer B = E5M2 ? 15 : 7;                // bias
  localparam integer EMIN = 1 - B;                     // smallest normal exponent
  localparam integer EMAX = E5M2 ? 15 : 8;             // exponent of the largest finite value
  localparam logic [6:0] MAX = E5M2 ? 7'h7B : 7'h7E;
  localparam integer SB = (1 << (SE - 1)) - 1;     // the source's bias
  localparam logic [SE - 1:0] ONES = {SE{1'b1}};

  logic        sign, nan, inf, half, sticky, up;
  logic [SM + 2:0] significand;  // two spare bits: a shift capped at SM + 2 still finds the half bit 0
  integer      e, shift;
  logic [SM + 2:0] kept, rest;
  logic [7:0]  code;

  always_comb begin
    sign = in[SE + SM];
    nan = in[SE + SM - 1:SM] == ONES && in[SM - 1:0] != 0;
    inf = in[SE + SM - 1:SM] == ONES && in[SM - 1:0] == 0;
    significand = {2'b0, in[SE + SM - 1:SM] != 0, in[SM - 1:0]};
    e = (in[SE + SM - 1:SM] == 0 ? 1 : 32'(in[SE + SM - 1:SM])) - SB;
    // bits below the destination's last kept bit: SM - M in the normal range, more below it
    shift = SM - M + (e < EMIN ? EMIN - e : 0);
    if (shift > SM + 2) shift = SM + 2;
    kept = significand >> shift;
    rest = significand & (((SM + 3)'(1)) << shift) - 1;
    half = rest[shift - 1];
    sticky = (rest & ((((SM + 3)'(1)) << (shift - 1)) - 1)) != 0;
`ifdef PLANTED_TIES_AWAY
    up = half;
`else
    up = half && (sticky || kept[0]);
`endif
    // normal: the biased exponent's field, then kept with its leading one (a carry adds up right);
    // below the smallest normal: kept itself
    code = e >= EMIN ? 8'((e + B - 1) << M) + 8'(kept) + 8'(up) : 8'(kept) + 8'(up);
    if (nan)
      out = saturating && !ctrl50 ? 8'h00 : (E5M2 ? {sign, 5'h1F, 1'b1, in[SM - 2]} : {sign, 7'h7F});
    else if (inf || e > EMAX || code[6:0] > MAX || code[7])
      out = saturating ? {sign, MAX} : (E5M2 ? {sign, 7'h7C} : {sign, 7'h7F});
    else
      out = {sign, code[6:0]};
  end
endmodule
