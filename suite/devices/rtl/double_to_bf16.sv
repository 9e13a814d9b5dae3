// double -> bfloat16 in rn, written by hand from IEEE 754's rules (the ieee754 profile's convertFormat): the
// significand's bits below bfloat16's quantum (2^-7 of the binade, 2^-133 below 2^-126) are dropped, the
// first of them and the rest decide the rounding, ties go to the even one, a carry moves the exponent up,
// and a result beyond the largest finite is infinity. A NaN stays a NaN, quiet, its leading payload bits
// kept. Combinational and synthesizable.
module double_to_bf16 (
  input  logic [63:0] in,
  output logic [15:0] out
);
  logic        sign, half, sticky, up;
  logic [10:0] biased;
  logic [63:0] sig;     // the hidden one and the 52 mantissa bits, room above for nothing
  logic [7:0]  kept;
  integer      e, shift, code;

  always_comb begin
    sign = in[63];
    biased = in[62:52];
    sig = {11'b0, biased != 0, in[51:0]};
    e = biased - 1023;                                    // a subnormal double is far below 2^-133: any e does
    shift = e < -126 ? 45 + (-126 - e) : 45;              // bits below the quantum
    if (shift > 60) shift = 60;                           // all of them sticky
    kept = 8'(sig >> shift);
    half = sig[shift - 1];
    sticky = (sig & ((64'd1 << (shift - 1)) - 64'd1)) != 0;
    up = half && (sticky || kept[0]);
    code = (e < -126 ? 0 : (e + 126) << 7) + kept + up;  // a normal's hidden one adds the exponent's last 1
    if (biased == 11'h7FF && in[51:0] != 0) out = {sign, 8'hFF, 1'b1, in[50:45]};
    else if (biased == 11'h7FF || e > 127 || code >= 32'h7F80) out = {sign, 15'h7F80};
    else out = {sign, code[14:0]};
  end
endmodule
