package convcert.suite.adapters;

import convcert.opencl.OpenClReference;
import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClVectors;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.Reference;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterProvider;
import convcert.spi.BlockOperations;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.FlagOperations;
import convcert.spi.MemoryCase;
import convcert.spi.MemoryOperations;
import convcert.spi.RandomOperations;
import convcert.spi.ScaleOperations;
import convcert.vectors.BlockVectorFiles;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reference itself as an implementation under test: a self-check of the whole pipeline. With the
 * opencl profile it also performs the memory functions and as_type, checking alignment (it refuses
 * misaligned addresses, disabled extensions and as_type across sizes) and defining as_type between
 * element counts as "bits unchanged".
 */
public final class ReferenceAdapter implements ConverterAdapter, MemoryOperations, BlockOperations, FlagOperations,
        RandomOperations, ScaleOperations {

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
            return new ReferenceAdapter(SuiteContext.referenceOf(context));
        }
    }

    private final Reference reference;
    private final Map<String, Converter> converters = new ConcurrentHashMap<>();
    private final OpenClReference memory;

    public ReferenceAdapter(Reference reference) {
        this.reference = reference;
        OpenClTables tables = OpenClTables.attachedTo(reference.tables());
        this.memory = tables == null ? null : new OpenClReference(tables, reference);
    }

    /** The reference it answers with. */
    public Reference reference() {
        return reference;
    }

    @Override
    public String identity() {
        return "convcert's reference, spec tables sha256 " + reference.tables().digest();
    }

    @Override
    public boolean checksAlignment() {
        return true;
    }

    @Override
    public List<String> memoryCapabilities() {
        return memory == null ? List.of()
                : OpenClVectors.cases(memory.tables()).stream().map(MemoryCase::name).toList();
    }

    @Override
    public void run(MemoryCase c, long[] pointers, long[] offsets, byte[][] memories, byte[][] data,
                    byte[][] results, int count) {
        for (int i = 0; i < count; i++) {
            var v = memory.evaluate(c, pointers[i], offsets[i], memories[i], data[i],
                    Set.of("cl_khr_fp16", "cl_khr_fp64"), "-");
            results[i] = switch (v.outcome()) {
                case OK -> v.expected();
                case IMPLEMENTATION_DEFINED -> data[i].clone();
                default -> null;
            };
        }
    }

    @Override
    public void convertBlocks(CaseKey c, long[] inputs, long[] outputs, int count) {
        BlockVectorFiles.converter(reference, c.from(), c.to(), c.rounding()).apply(inputs, 0, outputs, 0, count);
    }

    /** Told the effective state; the form and CTRL variants would only repeat the same answers. */
    @Override
    public boolean programsSaturation() {
        return false;
    }

    @Override
    public List<Capability> capabilities() {
        return List.of(new Capability("*", "*", "*", "*"));
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) {
        converter(c).applyParallel(inputs, 0, outputs, 0, count);
    }

    /** The reference's flags beside its results, for profiles with flags.csv. */
    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, byte[] flags, int count) {
        Converter converter = converter(c);
        converter.applyParallel(inputs, 0, outputs, 0, count);
        Flags lane = converter.flags();
        for (int i = 0; i < count; i++) {
            flags[i] = (byte) lane.of(inputs[i], outputs[i]);
        }
    }

    /** Stochastic rounding: each value with its random bits, as one operand of the reference's. */
    @Override
    public void convert(CaseKey c, long[] inputs, long[] random, long[] outputs, int count) {
        withLane(c, inputs, random, outputs, count);
    }

    /** A scaled conversion: each value with its scale, as one operand of the reference's. */
    @Override
    public void convertScaled(CaseKey c, long[] inputs, long[] scales, long[] outputs, int count) {
        withLane(c, inputs, scales, outputs, count);
    }

    private void withLane(CaseKey c, long[] inputs, long[] lane, long[] outputs, int count) {
        Converter converter = converter(c);
        for (int i = 0; i < count; i++) {
            outputs[i] = converter.apply(converter.operands().operand(inputs[i], lane[i]));
        }
    }

    private Converter converter(CaseKey c) {
        return converters.computeIfAbsent(c.name() + " " + c.ctrlText(), k -> reference.converter(reference.resolve(c)));
    }
}
