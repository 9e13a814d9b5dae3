// The example RTL's top: float -> bfloat16, fp8_e4m3fn or fp8_e5m2 (dst 0, 1, 2), with the rounding
// mode (bfloat16 only; FP8 is rn), the API form and the CTRL bits as ports. Saturation follows
// saturation.csv's group A, shared by the three pairs: an implicit conversion does not saturate;
// CTRL[60]=0 lets the _sat suffix decide; CTRL[60]=1 saturates when CTRL[48]=0.
module convert_unit (
  input  logic [31:0] in,
  input  logic [1:0]  dst,        // 0 bfloat16, 1 fp8_e4m3fn, 2 fp8_e5m2
  input  logic [2:0]  mode,       // 0 rn, 1 rz, 2 ru, 3 rd, 4 rna
  input  logic        sat_suffix, // the _sat form
  input  logic        implicit,   // the implicit conversion (Table 1)
  input  logic        ctrl60,
  input  logic        ctrl48,
  input  logic        ctrl50,
  output logic [15:0] out
);
  logic saturating;
  logic [15:0] bf16;
  logic [7:0] e4m3, e5m2;
  assign saturating = implicit ? 1'b0 : (ctrl60 ? !ctrl48 : sat_suffix);
  float_to_bf16 to_bf16 (.in, .mode, .saturating, .out(bf16));
  float_to_fp8 #(.E5M2(1'b0)) to_e4m3 (.in, .saturating, .ctrl50, .out(e4m3));
  float_to_fp8 #(.E5M2(1'b1)) to_e5m2 (.in, .saturating, .ctrl50, .out(e5m2));
  assign out = dst == 2'd0 ? bf16 : {8'b0, dst == 2'd1 ? e4m3 : e5m2};
endmodule
