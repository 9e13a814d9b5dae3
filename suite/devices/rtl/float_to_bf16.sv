// float -> bfloat16 as the Ascend C profile defines it (spec-tables/ascend-c: conversions.csv row
// float,bfloat16 in group A; saturation.csv; formats.csv sat_nan=zero; decisions nan-encoding=preserve
// and directed-overflow=largest-finite), combinational and synthesizable.
//
// saturating comes from convert_unit (group A of saturation.csv).
// `define PLANTED_TIES_AWAY plants a bug: rn breaks ties away from zero instead of to even.
// `define PLANTED_CANONICAL_NAN gives every NaN as 0x7FC0: another NaN, which nan-comparison=any accepts.
// The diagnosis benchmark (docs/diagnosis.md) plants more: PLANTED_STICKY_IGNORED (no sticky bit),
// PLANTED_STICKY_LOW8 (the sticky bit misses the 8 lowest bits), PLANTED_TRUNCATE (rn truncates),
// PLANTED_NAN_UNQUIETED (a NaN keeps its top payload bits without the quiet bit: some become infinity),
// PLANTED_RD_AS_RU (rd rounds as ru).
module float_to_bf16 (
  input  logic [31:0] in,
  input  logic [2:0]  mode,       // 0 rn, 1 rz, 2 ru, 3 rd, 4 rna
  input  logic        saturating,
  output logic [15:0] out
);
  localparam logic [2:0] RN = 3'd0, RZ = 3'd1, RU = 3'd2, RD = 3'd3, RNA = 3'd4;

  logic        sign, nan, inf, half, sticky, up;
  logic [7:0]  exponent;
  logic [22:0] mantissa;
  logic [14:0] kept;      // exponent and the 7 mantissa bits bfloat16 keeps
  logic [15:0] rounded;   // kept + up, with its carry

  always_comb begin
    sign = in[31];
    exponent = in[30:23];
    mantissa = in[22:0];
    nan = exponent == 8'hFF && mantissa != 0;
    inf = exponent == 8'hFF && mantissa == 0;
    kept = {exponent, mantissa[22:16]};
    half = mantissa[15];
`ifdef PLANTED_STICKY_IGNORED
    sticky = 1'b0;
`elsif PLANTED_STICKY_LOW8
    sticky = |mantissa[14:8];
`else
    sticky = |mantissa[14:0];
`endif
    case (mode)
`ifdef PLANTED_TIES_AWAY
      RN:      up = half;
`elsif PLANTED_TRUNCATE
      RN:      up = 1'b0;
`else
      RN:      up = half && (sticky || kept[0]);
`endif
      RNA:     up = half;
      RU:      up = !sign && (half || sticky);
`ifdef PLANTED_RD_AS_RU
      RD:      up = !sign && (half || sticky);
`else
      RD:      up = sign && (half || sticky);
`endif
      default: up = 1'b0; // RZ
    endcase
    rounded = {1'b0, kept} + {15'b0, up};
    if (nan)
`ifdef PLANTED_CANONICAL_NAN
      out = saturating ? 16'h0000 : 16'h7FC0; // a conforming choice certify accepts; a bit-for-bit bench would not
`elsif PLANTED_NAN_UNQUIETED
      out = saturating ? 16'h0000 : {sign, 8'hFF, mantissa[22:16]};
`else
      out = saturating ? 16'h0000 : {sign, 8'hFF, 1'b1, mantissa[21:16]}; // quiet, top payload bits kept
`endif
    else if (inf || rounded[14:7] == 8'hFF) // infinity, or a finite value that rounded up past the largest
      out = {sign, saturating ? 15'h7F7F : 15'h7F80};
    else
      out = {sign, rounded[14:0]};
  end
endmodule
