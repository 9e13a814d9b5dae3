package convcert.suite.opencl;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What an OpenCL compiler writes straight to file descriptor 2 while it builds a program. PoCL's clang
 * prints "1 error generated." there for a kernel that does not build, beside the build log the adapter
 * already reports; this catches it for the duration of the build, so it lands in the report and not in
 * the console or a CI log. POSIX only; elsewhere (or if the descriptors cannot be moved) the build runs
 * with stderr as it is.
 */
final class CompilerStderr {

    /** What descriptor 2 received during the build, and the build's failure, if it failed. */
    record Caught(String stderr, RuntimeException failure) {
    }

    private static final MethodHandle DUP;
    private static final MethodHandle DUP2;
    private static final MethodHandle OPEN;
    private static final MethodHandle CLOSE;

    static {
        MethodHandle dup = null, dup2 = null, open = null, close = null;
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            FunctionDescriptor intInt = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
            dup = linker.downcallHandle(libc.find("dup").orElseThrow(), intInt);
            dup2 = linker.downcallHandle(libc.find("dup2").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            open = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                    Linker.Option.firstVariadicArg(2));
            close = linker.downcallHandle(libc.find("close").orElseThrow(), intInt);
        } catch (RuntimeException | LinkageError e) {
            dup = null;
        }
        DUP = dup;
        DUP2 = dup2;
        OPEN = open;
        CLOSE = close;
    }

    private CompilerStderr() {
    }

    /** Runs the build with descriptor 2 sent to a temporary file; one build at a time, as descriptors are per process. */
    static synchronized Caught during(Runnable build) {
        Path file;
        try {
            file = Files.createTempFile("convcert-cl-", ".stderr");
        } catch (IOException e) {
            file = null;
        }
        int saved = file == null ? -1 : redirect(file);
        RuntimeException failure = null;
        String caught;
        try {
            build.run();
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            caught = restore(saved, file);
            delete(file);
        }
        return new Caught(caught, failure);
    }

    private static int redirect(Path file) {
        if (DUP == null) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            int saved = (int) DUP.invokeExact(2);
            if (saved < 0) {
                return -1;
            }
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(file.toString()), 1 /* O_WRONLY */);
            if (fd < 0 || (int) DUP2.invokeExact(fd, 2) < 0) {
                int ignored = (int) CLOSE.invokeExact(saved);
                return -1;
            }
            int ignored = (int) CLOSE.invokeExact(fd);
            return saved;
        } catch (Throwable t) {
            return -1;
        }
    }

    /** Puts descriptor 2 back and returns what the file caught. */
    private static String restore(int saved, Path file) {
        if (saved < 0) {
            return "";
        }
        try {
            int ignored = (int) DUP2.invokeExact(saved, 2);
            ignored = (int) CLOSE.invokeExact(saved);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot restore stderr", t);
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "(the compiler's stderr could not be read back: " + e.getMessage() + ")";
        }
    }

    private static void delete(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a temporary file left behind is harmless
        }
    }
}
