package convcert.spec;

/** Storage of one element: 1, 2, 4 or 8 bytes, little-endian; elements narrower than a byte take a byte. */
public final class VectorBytes {

    private VectorBytes() {
    }

    public static int of(int widthBits) {
        return widthBits <= 8 ? 1 : widthBits <= 16 ? 2 : widthBits <= 32 ? 4 : 8;
    }
}
