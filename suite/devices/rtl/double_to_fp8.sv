// double -> OCP FP8 as the Ascend C profile defines it (conversions.csv rows double,fp8_e4m3fn and
// double,fp8_e5m2: rn, group A): float_to_fp8's datapath with a binary64 source. The saturation comes as a
// port (group A's rule, from the form and CTRL bits, is convert_unit's).
module double_to_fp8 #(parameter bit E5M2 = 1'b0) (
  input  logic [63:0] in,
  input  logic        saturating,
  input  logic        ctrl50,
  output logic [7:0]  out
);
  float_to_fp8 #(.E5M2(E5M2), .SE(11), .SM(52)) convert (.in, .saturating, .ctrl50, .out);
endmodule
