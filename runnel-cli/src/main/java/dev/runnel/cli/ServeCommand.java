package dev.runnel.cli;

import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.web.RunnelWeb;
import dev.runnel.web.WebRole;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runnel serve}: a client of the database (a member of its cluster, taking its turn as
 * leader to run maintenance) and the dashboard, until SIGINT or SIGTERM. It claims no jobs unless
 * asked to run the demo's workers: the command line knows no application's workers, and a client
 * that claimed jobs of kinds it has no worker for would fail them.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run a client of the database and the dashboard (HTML and the JSON API under /api).")
final class ServeCommand implements Callable<Integer> {
    @Mixin
    DatabaseOption database;

    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", defaultValue = "8080",
            description = "The dashboard's port, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = RunnelWeb.DEFAULT_BIND,
            description = "The address to listen on (default: ${DEFAULT-VALUE}, this machine only).")
    String bind;

    @Option(names = "--user", paramLabel = "NAME:PASSWORD",
            description = "Require HTTP basic auth; this user is an operator. Repeatable.")
    java.util.List<String> operators = new java.util.ArrayList<>();

    @Option(names = "--read-only-user", paramLabel = "NAME:PASSWORD",
            description = "A basic-auth user who may look but not change anything. Repeatable.")
    java.util.List<String> readers = new java.util.ArrayList<>();

    @Option(names = "--demo-workers", description = "Also work queue default with the demo's workers (runnel demo's job kinds).")
    boolean demoWorkers;

    @Override
    public Integer call() throws Exception {
        Flags.between("--port", port, 0, 65_535);
        // Every flag is checked before the database is opened.
        java.util.List<Account> accounts = new java.util.ArrayList<>();
        for (String account : operators) {
            accounts.add(Account.parse("--user", account, WebRole.OPERATOR));
        }
        for (String account : readers) {
            accounts.add(Account.parse("--read-only-user", account, WebRole.READ_ONLY));
        }
        try {
            java.net.InetAddress.getByName(bind);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + bind + " is not an address of this machine");
        }
        PrintWriter out = spec.commandLine().getOut();
        RunnelBuilder builder = Runnel.builder().driver(database.open()).autoMigrate(true).stopOnShutdown(true);
        if (demoWorkers) {
            DemoCommand.withWorkers(builder);
        }
        Runnel runnel = builder.build();
        RunnelWeb.Builder web = RunnelWeb.builder(runnel).port(port).bind(bind);
        accounts.forEach(a -> web.basicAuth(a.name(), a.password(), a.role()));
        RunnelWeb dashboard = web.build();
        // SIGINT/SIGTERM: the main thread stops the dashboard and closes the client before the JVM exits.
        ShutdownWait shutdown = new ShutdownWait();
        try {
            runnel.start();
            dashboard.start();
            out.println("serve: dashboard at " + dashboard.url() + " for " + dev.runnel.Drivers.redact(database.resolved())
                    + (demoWorkers ? ", working queue default with the demo's workers" : "") + " (Ctrl-C to stop)");
            out.flush();
            shutdown.requested().await();
        } finally {
            dashboard.close();
            runnel.close();
            shutdown.close();
        }
        return 0;
    }

    /** A basic-auth account from its flag. */
    private record Account(String name, String password, WebRole role) {
        static Account parse(String flag, String account, WebRole role) {
            int colon = account.indexOf(':');
            if (colon <= 0 || colon == account.length() - 1) {
                throw new IllegalArgumentException(flag + " must be NAME:PASSWORD, was " + account.replaceAll(":.*", ":..."));
            }
            return new Account(account.substring(0, colon), account.substring(colon + 1), role);
        }
    }
}
