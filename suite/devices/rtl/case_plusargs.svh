// A case's ports from plusargs, CTRL bits at power-on where not given: +dst=0..2 (bfloat16, fp8_e4m3fn,
// fp8_e5m2) +mode=0..4 (rn rz ru rd rna) +sat=0|1 +implicit=0|1 +ctrl60=0|1 +ctrl48=0|1 +ctrl50=0|1.
// Included inside the initial block of tb.sv and golden_tb.sv, which declare the signals and `value`.
dst = $value$plusargs("dst=%d", value) ? value[1:0] : 2'd0;
mode = $value$plusargs("mode=%d", value) ? value[2:0] : 3'd0;
sat_suffix = $value$plusargs("sat=%d", value) ? value[0] : 1'b0;
implicit = $value$plusargs("implicit=%d", value) ? value[0] : 1'b0;
ctrl60 = $value$plusargs("ctrl60=%d", value) ? value[0] : 1'b1;
ctrl48 = $value$plusargs("ctrl48=%d", value) ? value[0] : 1'b0;
ctrl50 = $value$plusargs("ctrl50=%d", value) ? value[0] : 1'b0;
