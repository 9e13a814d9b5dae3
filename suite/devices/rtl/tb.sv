// The classic flow: reads a case's inputs with $readmemh, drives convert_unit with the case's
// destination, mode, form and CTRL bits, writes the outputs with $writememh in the replay layout.
//   +in=FILE.in.memh +out=FILE.out.memh +n=COUNT +dst=0..2 +mode=0..4 +sat=0|1 +implicit=0|1
//   +ctrl60=0|1 +ctrl48=0|1 +ctrl50=0|1
module tb;
  logic [31:0] inputs [0:(1 << 20) - 1];
  logic [15:0] outputs [0:(1 << 20) - 1];  // FP8 results in the low byte
  logic [31:0] in;
  logic [15:0] out;
  logic [1:0] dst;
  logic [2:0] mode;
  logic sat_suffix, implicit, ctrl60, ctrl48, ctrl50;
  string in_file, out_file;
  int n, value;

  convert_unit dut (.in, .dst, .mode, .sat_suffix, .implicit, .ctrl60, .ctrl48, .ctrl50, .out);

  initial begin
    if (!$value$plusargs("in=%s", in_file) || !$value$plusargs("out=%s", out_file) || !$value$plusargs("n=%d", n)) begin
      $display("usage: +in=FILE +out=FILE +n=COUNT [+dst= +mode= +sat= +implicit= +ctrl60= +ctrl48= +ctrl50=]");
      $finish;
    end
    `include "case_plusargs.svh"
    $readmemh(in_file, inputs, 0, n - 1);
    for (int i = 0; i < n; i++) begin
      in = inputs[i];
      #1;
      outputs[i] = out;
    end
    $writememh(out_file, outputs, 0, n - 1);
    $finish;
  end
endmodule
