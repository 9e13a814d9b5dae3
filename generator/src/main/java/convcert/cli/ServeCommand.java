package convcert.cli;

import convcert.serve.OracleServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** convcert serve: the reference as an oracle another process feeds through a shared file. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        header = "Serve the reference to another process (the Python package convcert).",
        description = "Reads requests from stdin, one a line, and answers each on stdout: 'case KEY=VALUE ...' resolves a "
                + "case, 'convert KEY=VALUE ...' converts the arrays of a file both processes map. The protocol is "
                + "suite/python/ORACLE.md's. Ends at the end of stdin.")
public final class ServeCommand implements Callable<Integer> {

    @Override
    public Integer call() throws IOException {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        new OracleServer().serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
        return 0;
    }
}
