// The golden files as they are, in a self-checking bench (vectors/README.md): reads a case's .in.memh and
// .expected.memh, drives convert_unit with the case's destination, mode, form and CTRL bits, and compares
// the way `convcert certify` does: bit for bit, except that where the expected value is a NaN, any NaN of
// the destination matches (nan-comparison=any). The manifest entry's elements.out.nan gives the NaN rule:
// r is a NaN iff (r & mask) == equals and, where nonzero is not 0, (r & nonzero) != 0.
//   +in=FILE.in.memh +expected=FILE.expected.memh +n=COUNT +out_bits=8|16
//   +dst=0..2 +mode=0..4 +sat=0|1 +implicit=0|1 +ctrl60=0|1 +ctrl48=0|1 +ctrl50=0|1
//   +nan_mask=HEX +nan_equals=HEX +nan_nonzero=HEX +any_nan=0|1 (0: NaNs bit for bit, nan-comparison=exact)
// Prints "PASS N vectors, K NaNs matched as NaNs", or each of the first 10 mismatches and "FAIL M of N",
// and then stops with $fatal (a non-zero exit).
module golden_tb;
  logic [31:0] inputs [0:(1 << 20) - 1];
  logic [15:0] expected [0:(1 << 20) - 1];
  logic [31:0] in;
  logic [15:0] out, got, want, width, nan_mask, nan_equals, nan_nonzero;
  logic [1:0] dst;
  logic [2:0] mode;
  logic sat_suffix, implicit, ctrl60, ctrl48, ctrl50, any_nan;
  string in_file, expected_file;
  int n, value, out_bits, errors, nans;

  convert_unit dut (.in, .dst, .mode, .sat_suffix, .implicit, .ctrl60, .ctrl48, .ctrl50, .out);

  function automatic logic is_nan(logic [15:0] r);
    return (r & nan_mask) == nan_equals && (nan_nonzero == 0 || (r & nan_nonzero) != 0);
  endfunction

  initial begin
    if (!$value$plusargs("in=%s", in_file) || !$value$plusargs("expected=%s", expected_file)
        || !$value$plusargs("n=%d", n) || !$value$plusargs("out_bits=%d", out_bits)) begin
      $display("usage: +in=FILE +expected=FILE +n=COUNT +out_bits=BITS [+dst= +mode= ... +nan_mask= +any_nan=]");
      $fatal(1);
    end
    `include "case_plusargs.svh"
    any_nan = $value$plusargs("any_nan=%d", value) ? value[0] : 1'b1;
    nan_mask = $value$plusargs("nan_mask=%h", value) ? value[15:0] : 16'h0;
    nan_equals = $value$plusargs("nan_equals=%h", value) ? value[15:0] : 16'h1; // no rule: nothing is a NaN
    nan_nonzero = $value$plusargs("nan_nonzero=%h", value) ? value[15:0] : 16'h0;
    width = 16'((32'd1 << out_bits) - 1);
    $readmemh(in_file, inputs, 0, n - 1);
    $readmemh(expected_file, expected, 0, n - 1);
    for (int i = 0; i < n; i++) begin
      in = inputs[i];
      #1;
      got = out & width;
      want = expected[i];
      if (got == want) continue;
      if (any_nan && is_nan(want) && is_nan(got)) begin
        nans++;
        continue;
      end
      errors++;
      if (errors <= 10) $display("vector %0d: input %h expected %h got %h", i, in, want, got);
    end
    if (errors != 0) begin
      $display("FAIL %0d of %0d", errors, n);
      $fatal(1);
    end
    $display("PASS %0d vectors, %0d NaNs matched as NaNs", n, nans);
    $finish;
  end
endmodule
