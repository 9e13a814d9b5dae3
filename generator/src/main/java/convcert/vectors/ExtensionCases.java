package convcert.vectors;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Cases a profile adds to a vector set beside its conversions (the OpenCL memory functions, the
 * block-scaled formats): it writes their files under out and returns their manifest entries. The generator
 * knows no extension by name; the command line hands it the profile's.
 */
public interface ExtensionCases {

    List<Manifest.Entry> write(Path out, Level level, long seed, java.util.Set<VectorFormat> formats) throws IOException;
}
