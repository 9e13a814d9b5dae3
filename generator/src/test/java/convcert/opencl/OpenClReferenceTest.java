package convcert.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.reference.Reference;
import convcert.spi.MemoryCase;
import convcert.vectors.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The OpenCL memory reference against the source documents' examples and rules, and its half
 * conversions against the JDK (Float.float16ToFloat, Float.floatToFloat16), independent of it.
 */
class OpenClReferenceTest {

    static final Reference NUMERIC = TestProfile.reference("opencl");
    static final OpenClTables TABLES = OpenClTables.load(TestProfile.home().resolve("spec-tables/opencl"));
    static final OpenClReference REF = new OpenClReference(TABLES, NUMERIC);
    static final Set<String> ALL = Set.of("cl_khr_fp16", "cl_khr_fp64");

    static byte[] image(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @TestFactory
    Stream<DynamicTest> theDocumentsAsTypeExamples() {
        return TABLES.examples().stream().map(e -> DynamicTest.dynamicTest(e.id() + ": " + e.documentSays(), () -> {
            String[] from = OpenClReference.parseVectorType(e.from());
            String[] to = OpenClReference.parseVectorType(e.to());
            MemoryCase c = MemoryCase.asType(from[0], Integer.parseInt(from[1]), to[0], Integer.parseInt(to[1]));
            int bytes = TABLES.types().ofOpenCl(from[0]).bytes() * TABLES.storage(Integer.parseInt(from[1]));
            MemoryVector v = REF.evaluate(c, 0, 0, null, OpenClVectors.operand(e.operand(), bytes), ALL, "example");
            assertEquals(e.outcome(), switch (v.outcome()) {
                case OK -> v.comparedBytes() < v.expected().length ? "bits-unchanged-first-3" : "bits-unchanged";
                case SIZE_MISMATCH -> "error";
                default -> v.outcome().label();
            });
            if (!e.result().isEmpty()) {
                byte[] want = OpenClVectors.operand(e.result(), TABLES.types().ofOpenCl(to[0]).bytes() * e.result().split(" ").length);
                assertArrayEquals(want, java.util.Arrays.copyOf(v.expected(), v.comparedBytes()));
            }
        }));
    }

    @Test
    void vstoreWritesAtPPlusOffsetTimesNAndChecksElementAlignment() {
        byte[] memory = image(256);
        byte[] data = {9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7};
        // vstore3 int: address p + offset * 3 elements = 8 + 2 * 12 = 32.
        MemoryVector v = REF.evaluate(MemoryCase.of("vstore", "int", 3, ""), 8, 2, memory, data, ALL, "t");
        assertEquals(MemoryVector.Outcome.OK, v.outcome());
        assertArrayEquals(data, java.util.Arrays.copyOfRange(v.expected(), 32, 44));
        assertEquals(memory[31], v.expected()[31], "bytes before are untouched");
        assertEquals(memory[44], v.expected()[44], "and bytes after: a 3-vector store writes 3 elements");
        // 32-bit alignment for int (opencl-vstore-alignment): p = 2 is misaligned, p = 1 for char is fine.
        assertEquals(MemoryVector.Outcome.MISALIGNED, REF.evaluate(MemoryCase.of("vstore", "int", 3, ""), 2, 0, memory, data, ALL, "t").outcome());
        assertEquals(MemoryVector.Outcome.OK, REF.evaluate(MemoryCase.of("vstore", "char", 2, ""), 1, 0, memory, new byte[] {1, 2},
                ALL, "t").outcome());
        assertEquals(MemoryVector.Outcome.MISALIGNED, REF.evaluate(MemoryCase.of("vload", "long", 2, ""), 4, 0, memory, null, ALL, "t")
                .outcome());
    }

    @Test
    void alignedHalfFunctionsUseAStrideOfFourForThreeElements() {
        byte[] memory = image(256);
        // vload_half3: p + offset * 3 halves; vloada_half3: p + offset * 4 halves and 8-byte alignment.
        MemoryVector packed = REF.evaluate(MemoryCase.of("vload_half", "float", 3, ""), 0, 1, memory, null, ALL, "t");
        MemoryVector aligned = REF.evaluate(MemoryCase.of("vloada_half", "float", 3, ""), 0, 1, memory, null, ALL, "t");
        assertEquals(halfToFloat(memory, 6), ByteBuffer.wrap(packed.expected()).order(ByteOrder.LITTLE_ENDIAN).getInt());
        assertEquals(halfToFloat(memory, 8), ByteBuffer.wrap(aligned.expected()).order(ByteOrder.LITTLE_ENDIAN).getInt());
        assertEquals(MemoryVector.Outcome.MISALIGNED, REF.evaluate(MemoryCase.of("vloada_half", "float", 3, ""), 2, 0, memory, null,
                ALL, "t").outcome());
        assertEquals(MemoryVector.Outcome.OK, REF.evaluate(MemoryCase.of("vload_half", "float", 3, ""), 2, 0, memory, null, ALL, "t")
                .outcome());
    }

    /**
     * vstorea_half3 stores three halves into 8 aligned bytes: the 4th half is padding, any value under
     * aligned-half3-padding=any (the current text: implementation-defined), as it was under untouched (the
     * 1.2 pages). A device writing 0x0000 there, as PoCL does, passes the one and fails the other.
     */
    @Test
    void theAlignedThreeHalfStoreLeavesItsPaddingToTheDecision() {
        byte[] memory = image(64);
        byte[] data = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putFloat(1f).putFloat(-2f).putFloat(0.5f).array();
        MemoryCase store = MemoryCase.of("vstorea_half", "float", 3, "rte");
        MemoryVector any = REF.evaluate(store, 8, 1, memory, data, ALL, "t");
        assertEquals(new MemoryVector.Unjudged(8 + 8 + 6, 8 + 8 + 8), any.unjudged());
        byte[] pocl = any.expected().clone();
        pocl[22] = 0;
        pocl[23] = 0;
        assertArrayEquals(pocl, any.expectedFor(pocl), "the padding is any value");
        assertTrue(any.expectedHex(any.expected().length).startsWith(MemoryVector.hex(java.util.Arrays.copyOf(any.expected(), 22))
                + "????"), any.expectedHex(any.expected().length));
        Reference untouched = new Reference(NUMERIC.tables(), convcert.reference.Semantics.of(NUMERIC.tables(),
                java.util.Map.of("aligned-half3-padding", "untouched")));
        MemoryVector strict = new OpenClReference(TABLES, untouched).evaluate(store, 8, 1, memory, data, ALL, "t");
        assertNull(strict.unjudged());
        assertEquals(memory[22], strict.expected()[22], "the slot as it was");
        assertTrue(!java.util.Arrays.equals(pocl, strict.expectedFor(pocl)), "a written padding fails under untouched");
        assertNull(REF.evaluate(MemoryCase.of("vstorea_half", "float", 4, "rte"), 8, 1, memory,
                ByteBuffer.allocate(16).array(), ALL, "t").unjudged(), "four halves have no padding");
    }

    private static int halfToFloat(byte[] memory, int address) {
        short h = (short) ((memory[address] & 0xFF) | (memory[address + 1] & 0xFF) << 8);
        return Float.floatToRawIntBits(Float.float16ToFloat(h));
    }

    @Test
    void vloadHalfOfEveryHalfAgreesWithTheJdk() {
        OpenClVectors vectors = new OpenClVectors(REF, NUMERIC, Level.CI, 1);
        List<MemoryVector> list = vectors.vectors(MemoryCase.of("vload_half", "float", 1, ""));
        int checked = 0;
        for (MemoryVector v : list) {
            if (v.outcome() != MemoryVector.Outcome.OK) {
                continue;
            }
            short h = (short) ((v.memory()[(int) v.offset() * 2] & 0xFF) | (v.memory()[(int) v.offset() * 2 + 1] & 0xFF) << 8);
            float want = Float.float16ToFloat(h);
            float got = Float.intBitsToFloat(ByteBuffer.wrap(v.expected()).order(ByteOrder.LITTLE_ENDIAN).getInt());
            assertTrue(Float.isNaN(want) ? Float.isNaN(got) : Float.floatToRawIntBits(want) == Float.floatToRawIntBits(got),
                    "half 0x" + Integer.toHexString(h & 0xFFFF));
            checked++;
        }
        assertEquals(65536, checked, "every half value");
    }

    @Test
    void vstoreHalfRteAgreesWithTheJdkAndDirectedModesBracketIt() {
        SplittableRandom random = new SplittableRandom(5);
        byte[] memory = new byte[64];
        for (int i = 0; i < 200_000; i++) {
            int f = random.nextInt();
            byte[] data = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(f).array();
            short rte = half(REF.evaluate(MemoryCase.of("vstore_half", "float", 1, "rte"), 0, 0, memory, data, ALL, "t"));
            short deflt = half(REF.evaluate(MemoryCase.of("vstore_half", "float", 1, ""), 0, 0, memory, data, ALL, "t"));
            short jdk = Float.floatToFloat16(Float.intBitsToFloat(f));
            if (!Float.isNaN(Float.intBitsToFloat(f))) {
                assertEquals(jdk, rte, "float 0x" + Integer.toHexString(f));
            }
            assertEquals(rte, deflt, "the default is rte (decision vstore-half-default-rounding)");
            float down = Float.float16ToFloat(half(REF.evaluate(MemoryCase.of("vstore_half", "float", 1, "rtn"), 0, 0, memory, data, ALL, "t")));
            float up = Float.float16ToFloat(half(REF.evaluate(MemoryCase.of("vstore_half", "float", 1, "rtp"), 0, 0, memory, data, ALL, "t")));
            float x = Float.intBitsToFloat(f);
            assertTrue(Float.isNaN(x) || (down <= x && x <= up), "rtn <= x <= rtp for 0x" + Integer.toHexString(f));
        }
    }

    private static short half(MemoryVector v) {
        return (short) ((v.expected()[0] & 0xFF) | (v.expected()[1] & 0xFF) << 8);
    }

    @Test
    void extensionsGateHalfAndDoubleValues() {
        byte[] memory = new byte[64];
        assertEquals(MemoryVector.Outcome.EXTENSION_DISABLED,
                REF.evaluate(MemoryCase.of("vload", "half", 4, ""), 0, 0, memory, null, Set.of(), "t").outcome());
        assertEquals(MemoryVector.Outcome.EXTENSION_DISABLED,
                REF.evaluate(MemoryCase.of("vstore_half", "double", 1, ""), 0, 0, memory, new byte[8], Set.of(), "t").outcome());
        assertEquals(MemoryVector.Outcome.OK,
                REF.evaluate(MemoryCase.of("vstore_half", "float", 1, ""), 0, 0, memory, new byte[4], Set.of(), "t").outcome(),
                "vstore_half from float needs no extension");
        assertNull(REF.evaluate(MemoryCase.asType("float", 4, "double", 4), 0, 0, null, new byte[16], ALL, "t").expected());
    }
}
