package dev.runnel.cli;

import dev.runnel.RunnelConnectException;
import dev.runnel.RunnelException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code runnel} command. Bad input, a database that cannot be reached among it, prints one
 * line and exits 2; a failure exits 1.
 */
@Command(name = "runnel", mixinStandardHelpOptions = true, version = "runnel 0.1.0",
        description = "Runnel: a durable background-job system for Java.",
        subcommands = {MigrateCommand.class, JobsCommand.class, QueuesCommand.class, PeriodicCommand.class,
                WorkflowsCommand.class, BatchesCommand.class,
                IndexesCommand.class, ServeCommand.class, DemoCommand.class, ScenarioCommand.class, BenchCommand.class,
                DrainCommand.class, ChurnCommand.class, QueryBenchCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {
    /**
     * Exit code for bad input: an unknown flag, a missing value, a malformed URL, or a database
     * that cannot be reached (refused, a missing database or role, failed authentication).
     */
    public static final int EXIT_USAGE = 2;
    /** Exit code for a failure while running. */
    public static final int EXIT_FAILURE = 1;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = run(args, out, err);
        // A command that prints without a line's end (migrate sql) is flushed only here.
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the command line with the given streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, a) -> {
            CommandLine command = e.getCommandLine();
            if (e.getMessage().startsWith("Missing required subcommand")) {
                // `runnel migrate` alone: show which commands it has.
                err.println("runnel: " + command.getCommandName() + " needs one of its commands:");
                command.usage(err);
                return EXIT_USAGE;
            }
            err.println("runnel: " + e.getMessage() + " (see --help)");
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // Before RunnelException, which it is: the URL most likely points at the wrong place.
            if (e instanceof IllegalArgumentException || e instanceof RunnelConnectException) {
                err.println("runnel: " + e.getMessage());
                return EXIT_USAGE;
            }
            if (e instanceof RunnelException) {
                err.println("runnel: " + e.getMessage());
                return EXIT_FAILURE;
            }
            throw e;
        });
        return cli.execute(args);
    }
}
