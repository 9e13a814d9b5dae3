package convcert.suite;

import convcert.cli.ConvertCommand;
import convcert.cli.DigestCommand;
import convcert.cli.GenerateCommand;
import convcert.cli.ModelCommand;
import convcert.cli.ServeCommand;
import convcert.cli.TablesCommand;
import convcert.common.UsageException;
import convcert.spec.TableException;
import convcert.suite.model.ExitCode;
import convcert.suite.model.Provenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The convcert command line; its exit codes are ExitCode's. */
@Command(name = "convcert", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Conformance suite and golden-vector generator for numeric data-type conversion.",
        subcommands = {CertifyCommand.class, ConvertCommand.class, DigestCommand.class, GenerateCommand.class, ModelCommand.class,
                ProveCommand.class, ReportCommand.class, ScoreCommand.class, ServeCommand.class, TablesCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {

    /** --version: convcert's version and commit, the JDK and the OS (what a report's provenance records). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {Provenance.versionLine(),
                    "JDK " + System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"),
                    "OS " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                            + System.getProperty("os.arch")};
        }
    }

    /**
     * Runs the command, then says its exit code in the verdict file the launcher names
     * (-Dconvcert.verdict): written last and atomically, so a process that ends some other way (an
     * adapter calling System.exit or Runtime.halt, a crash) leaves none, and the launcher never turns
     * that into a pass.
     */
    public static void main(String[] args) {
        watchLauncher(System.getProperty("convcert.launcher"));
        int code = run(args);
        String verdict = System.getProperty("convcert.verdict");
        if (verdict != null && !verdict.isBlank()) {
            try {
                Path file = Path.of(verdict);
                Path temp = file.resolveSibling(file.getFileName() + ".partial");
                Files.writeString(temp, code + "\n");
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                System.err.println("convcert: cannot write the verdict file " + verdict + ": " + e.getMessage());
                code = code == 0 ? ExitCode.INTERNAL.code() : code;
            }
        }
        System.exit(code);
    }

    /**
     * Under the launcher (-Dconvcert.launcher=ITS PID, bin/convcert-java), the JVM is its child: once the
     * launcher is gone (killed, even by SIGKILL, which it cannot pass on), the JVM is another process's
     * child and ends as an interrupted run would (exit hooks: partial reports, devices stopped), instead
     * of running on unseen with its devices until a batch times out.
     */
    private static void watchLauncher(String launcher) {
        if (launcher == null || !launcher.matches("[0-9]{1,10}")) {
            return;
        }
        long pid = Long.parseLong(launcher);
        Thread watch = Thread.ofPlatform().daemon().name("convcert-launcher-watch").unstarted(() -> {
            while (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == pid) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.err.println("convcert: the launcher (process " + pid + ") is gone; ending the run");
            System.exit(143); // as a SIGTERM ends it: the same exit hooks run
        });
        watch.start();
    }

    public static int run(String... args) {
        CommandLine cli = commandLine();
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) { // an internal error, never an interrupt or a pass
            cli.getErr().println("convcert: internal error: out of memory (" + e.getMessage()
                    + "); give convcert more memory: JAVA_TOOL_OPTIONS=-Xmx...");
            cli.getErr().flush();
            return ExitCode.INTERNAL.code();
        }
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("convcert: " + ex.getMessage());
            if (a.length == 0) { // no command at all: show what there is
                ex.getCommandLine().usage(ex.getCommandLine().getErr());
            }
            return ExitCode.USAGE.code();
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof UsageException || ex instanceof TableException) {
                commandLine.getErr().println("convcert: " + ex.getMessage());
                return ExitCode.USAGE.code();
            }
            if (ex instanceof FileSystemException f) { // a path given is a file, unwritable, missing
                commandLine.getErr().println("convcert: " + f.getFile() + ": " + switch (f) {
                    case FileAlreadyExistsException x -> "exists and is not a folder";
                    case AccessDeniedException x -> "permission denied";
                    case NoSuchFileException x -> "no such file or folder";
                    case NotDirectoryException x -> "not a folder";
                    default -> f.getReason() == null ? f.getClass().getSimpleName() : f.getReason();
                } + (f.getOtherFile() == null ? "" : " (" + f.getOtherFile() + ")"));
                return ExitCode.USAGE.code();
            }
            if (ex instanceof IOException || ex instanceof UncheckedIOException) { // a full disk, a device error
                commandLine.getErr().println("convcert: " + ex.getMessage() + " (" + ex.getClass().getSimpleName() + ")");
                return ExitCode.INTERNAL.code();
            }
            commandLine.getErr().println("convcert: internal error: " + ex);
            ex.printStackTrace(commandLine.getErr());
            return ExitCode.INTERNAL.code();
        });
        return cli;
    }
}
