package convcert.spec;

/**
 * One row of saturation.csv. A null CTRL bit or form means '*' (any). Rows are tried in file
 * order; the first that matches decides.
 */
public record SaturationRule(String group, Integer ctrl60, Integer ctrl48, Integer ctrl59, Form form,
                             Saturation effective, String source, Location location) {

    public boolean matches(String group, Form form, CtrlState ctrl) {
        return this.group.equals(group)
                && (this.form == null || this.form == form)
                && (ctrl60 == null || ctrl60 == ctrl.bit(60))
                && (ctrl48 == null || ctrl48 == ctrl.bit(48))
                && (ctrl59 == null || ctrl59 == ctrl.bit(59));
    }

    public String describe() {
        return "group " + group + ", CTRL[60]=" + star(ctrl60) + " CTRL[48]=" + star(ctrl48)
                + " CTRL[59]=" + star(ctrl59) + ", form " + (form == null ? "*" : form.tableName())
                + " -> " + effective.tableName() + " (" + source + ")";
    }

    private static String star(Integer bit) {
        return bit == null ? "*" : bit.toString();
    }
}
