// int64 -> half in rn, written by hand from IEEE 754's rules (the ieee754 and ascend-c profiles agree here):
// the magnitude's leading one sets the exponent, the 11 bits from it are kept, ties go to the even one, a
// carry moves the exponent up, and a result beyond 65504 is infinity. Combinational and synthesizable.
module int64_to_half (
  input  logic [63:0] in,
  output logic [15:0] out
);
  logic        sign, half, sticky, up;
  logic [63:0] magnitude;
  logic [10:0] kept;
  logic [16:0] code;
  integer      msb, shift;

  always_comb begin
    sign = in[63];
    magnitude = sign ? -in : in;  // 2^63, the most negative's magnitude, fits 64 bits unsigned
    msb = 0;
    for (integer k = 0; k < 64; k = k + 1) if (magnitude[k]) msb = k;
    shift = msb > 10 ? msb - 10 : 0;  // bits below half's 11-bit significand
    kept = 11'(magnitude >> shift) << (msb > 10 ? 0 : 10 - msb);
    half = shift > 0 ? magnitude[shift - 1] : 1'b0;
    sticky = shift > 1 ? (magnitude & ((64'd1 << (shift - 1)) - 64'd1)) != 0 : 1'b0;
    up = half && (sticky || kept[0]);
    code = (17'(msb + 14) << 10) + 17'(kept) + 17'(up);  // the leading one of kept adds the exponent's last 1
    if (magnitude == 0) out = 16'h0000;
    else if (code >= 17'h7C00) out = {sign, 15'h7C00};
    else out = {sign, code[14:0]};
  end
endmodule
