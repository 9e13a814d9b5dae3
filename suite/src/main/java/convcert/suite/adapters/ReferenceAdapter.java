package convcert.suite.adapters;

import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.Form;
import convcert.spec.Rounding;
import convcert.suite.spi.AdapterContext;
import convcert.suite.spi.AdapterProvider;
import convcert.suite.spi.Capability;
import convcert.suite.spi.CaseKey;
import convcert.suite.spi.ConverterAdapter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The reference itself as an implementation under test: a self-check of the whole pipeline. */
public final class ReferenceAdapter implements ConverterAdapter {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "reference";
        }

        @Override
        public String description() {
            return "convcert's own reference (self-check of vectors, runner and reports)";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) {
            return new ReferenceAdapter(context.reference());
        }
    }

    private final Reference reference;
    private final Map<String, Converter> converters = new ConcurrentHashMap<>();

    public ReferenceAdapter(Reference reference) {
        this.reference = reference;
    }

    @Override
    public List<Capability> capabilities() {
        return List.of(new Capability("*", "*", "*", "*"));
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) {
        converters.computeIfAbsent(c.name() + " " + c.ctrlText(), k -> {
            var ctrl = reference.tables().powerOnCtrl();
            for (var bit : c.ctrl().entrySet()) {
                ctrl = ctrl.with(bit.getKey(), bit.getValue());
            }
            return reference.converter(reference.resolve(reference.conversion(c.from(), c.to()), Rounding.parse(c.rounding()),
                    Form.parse(c.form()), ctrl));
        }).apply(inputs, 0, outputs, 0, count);
    }
}
