package convcert.cli;

import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClVectors;
import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.Conversion;
import convcert.spec.Example;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** convcert tables check: load and validate a profile's tables, print a summary. */
@Command(name = "tables", mixinStandardHelpOptions = true, description = "Work with the spec tables.",
        subcommands = TablesCommand.Check.class)
public final class TablesCommand {

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Validate the spec tables (every error names file:line:column) and print a summary.")
    static final class Check implements Callable<Integer> {

        @Mixin
        ProfileOptions profile;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Reference reference = profile.reference(); // loads, validates, checks decisions against the reference
            SpecTables t = reference.tables();
            t.formats().forEach(reference::codec); // builds every format's grid: tapered rows must decode
            PrintWriter out = spec.commandLine().getOut();
            int cases = 0;
            for (Conversion c : t.conversions()) {
                cases += c.modes().stream().mapToInt(m -> c.forms(m).size()).sum();
            }
            long modes = t.conversions().stream().mapToLong(c -> c.modes().size()).sum();
            long errata = t.examples().stream().filter(e -> e.erratum()).count();
            out.printf("profile %s: %s%n", t.profile(), t.directory());
            out.printf("  formats      %d%n", t.formats().size());
            out.printf("  conversions  %d pairs, %d (pair, mode) and %d (pair, mode, form) combinations%n",
                    t.conversions().size(), modes, cases);
            out.printf("  rounding     %d modes (%s)%n", t.roundingModes().size(), String.join(" ",
                    t.roundingModes().stream().map(Rounding::suffix).toList()));
            out.printf("  saturation   %d groups, %d rules, %s%n", t.groups().size(), t.saturationRules().size(),
                    t.ctrlBits().isEmpty() ? "no CTRL bits" : "CTRL bits " + t.ctrlBits().keySet() + " (power-on "
                    + t.powerOnCtrl() + ")");
            out.printf("  examples     %d (%d marked erratum)%n", t.examples().size(), errata);
            out.printf("  decisions    %d (selectable: %s)%n", t.decisions().size(), reference.semantics());
            OpenClTables memory = OpenClTables.attachedTo(t);
            if (memory != null) { // the OpenCL extension: loading validates its tables; types must name formats
                memory.types().check(t);
                out.printf("  memory       %d OpenCL memory and as_type cases over %d types%n",
                        OpenClVectors.cases(memory).size(), memory.types().all().size());
            }
            if (!t.blocks().isEmpty()) {
                List<String> blocks = t.blocks().values().stream().filter(b -> !b.isTensor()).map(b -> b.name()).toList();
                List<String> tensors = t.blocks().values().stream().filter(BlockFormat::isTensor).map(b -> b.name()).toList();
                out.printf("  blocks       %d block formats (%s), each to and from %s%n", blocks.size(), String.join(" ", blocks),
                        t.blocks().values().iterator().next().value().name());
                if (!tensors.isEmpty()) {
                    out.printf("  tensors      %d whole tensors of them (%s)%n", tensors.size(), String.join(" ", tensors));
                }
            }
            t.documents().forEach(d -> out.printf("  document     %s%n", d));
            out.printf("  digest       sha256:%s%n", t.digest());
            List<String> wrong = wrongExamples(reference);
            if (!wrong.isEmpty()) {
                PrintWriter err = spec.commandLine().getErr();
                wrong.forEach(line -> err.println("convcert: " + line));
                return 2;
            }
            out.println("OK");
            return 0;
        }

        /**
         * Every worked example through the reference: an example row the reference disagrees with is a
         * table error (a mistyped expected value, or a rule row that no longer says what the document says).
         */
        static List<String> wrongExamples(Reference reference) {
            List<String> wrong = new ArrayList<>();
            for (Example e : reference.tables().examples()) {
                long actual = reference.converter(reference.resolve(e.conversion(), e.rounding(), e.form(),
                        reference.ctrl(e.ctrl()))).apply(e.input());
                if (actual != e.expected()) {
                    var to = e.conversion().to();
                    wrong.add(e.location() + ": example " + e.id() + ": expected " + to.hex(e.expected())
                            + ", the tables give " + to.hex(actual) + " for " + e.conversion().from().hex(e.input()));
                }
            }
            return wrong;
        }
    }
}
