package dev.runnel.cli;

import dev.runnel.Drivers;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.web.RunnelWeb;
import dev.runnel.web.WebRole;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
        description = {"Run a client of the database and the dashboard (HTML and the JSON API under /api).",
            "Users come from --users-file, $" + ServeCommand.USERS_VARIABLE + " (the same lines) and --user: a file"
                + " or the environment keeps passwords off the command line, which every user of the machine sees"
                + " in ps. Without users the dashboard serves on a loopback address only, unless --allow-anonymous."})
final class ServeCommand implements Callable<Integer> {
    /** The environment variable that holds users, in the lines of a users file. */
    static final String USERS_VARIABLE = "RUNNEL_WEB_USERS";

    @Mixin
    DatabaseOption database;

    @Mixin
    AllowedHostOption allowedHosts;

    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", defaultValue = "8080",
            description = "The dashboard's port, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = RunnelWeb.DEFAULT_BIND,
            description = "The address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0 for every"
                + " interface, which needs users or --allow-anonymous).")
    String bind;

    @Option(names = "--users-file", paramLabel = "FILE",
            description = {"Require HTTP basic auth for the users in FILE, one a line: NAME:PASSWORD:ROLE, ROLE being"
                + " operator or read-only (the password may hold ':'); blank lines and lines starting with # are"
                + " skipped. Keep it readable by its owner only (chmod 600): serve warns otherwise."})
    Path usersFile;

    @Option(names = "--user", paramLabel = "NAME:PASSWORD",
            description = "Require HTTP basic auth; this user is an operator. Repeatable. The password shows in ps and"
                + " the shell's history: prefer --users-file or $" + USERS_VARIABLE + ".")
    List<String> operators = new ArrayList<>();

    @Option(names = "--read-only-user", paramLabel = "NAME:PASSWORD",
            description = "A basic-auth user who may look but not change anything. Repeatable. Shows in ps, as --user.")
    List<String> readers = new ArrayList<>();

    @Option(names = "--allow-anonymous",
            description = "Serve on a non-loopback --bind without users: everyone who reaches the port sees every job"
                + " and may retry, cancel or delete any. For a network trusted whole, or behind a proxy that"
                + " authenticates; a warning is logged.")
    boolean allowAnonymous;

    @Option(names = "--demo-workers", description = "Also work queue default with the demo's workers (runnel demo's job kinds).")
    boolean demoWorkers;

    @Override
    public Integer call() throws Exception {
        Flags.between("--port", port, 0, 65_535);
        PrintWriter out = spec.commandLine().getOut();
        // Every flag is checked before the database is opened.
        List<Account> accounts = accounts();
        allowedHosts.check();
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + bind + " is not an address of this machine");
        }
        if (!address.isLoopbackAddress() && accounts.isEmpty() && !allowAnonymous) {
            throw new IllegalArgumentException("--bind " + bind + " serves every job and every change to the network"
                    + " without a password: give users (--user, --users-file or $" + USERS_VARIABLE
                    + "), or --allow-anonymous to serve it open");
        }
        if (usersFile != null) {
            warnIfOthersRead(usersFile);
        }
        RunnelBuilder builder = Runnel.builder().driver(database.open()).autoMigrate(true).stopOnShutdown(true);
        if (demoWorkers) {
            DemoCommand.withWorkers(builder);
        }
        Runnel runnel = builder.build();
        RunnelWeb.Builder web = allowedHosts.apply(RunnelWeb.builder(runnel).port(port).bind(bind));
        accounts.forEach(a -> web.basicAuth(a.name(), a.password(), a.role()));
        if (allowAnonymous) {
            web.allowAnonymous();
        }
        RunnelWeb dashboard = web.build();
        // SIGINT/SIGTERM: the main thread stops the dashboard and closes the client before the JVM exits.
        ShutdownWait shutdown = new ShutdownWait();
        try {
            runnel.start();
            dashboard.start();
            out.println("serve: dashboard " + where(dashboard) + " for " + Drivers.redact(database.resolved())
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

    /** Where the dashboard listens, as bound: every interface is said so, not shown as 127.0.0.1. */
    static String where(RunnelWeb dashboard) {
        InetSocketAddress bound = dashboard.address();
        if (bound.getAddress().isAnyLocalAddress()) {
            String any = bound.getAddress().getHostAddress().contains(":") ? "[::]" : "0.0.0.0";
            return "on every interface (" + any + ":" + bound.getPort() + "; from this machine " + dashboard.url() + ")";
        }
        return "at " + dashboard.url();
    }

    /** The users of every source: the file, the environment, the flags; a name given twice is refused. */
    private List<Account> accounts() {
        List<Account> accounts = new ArrayList<>();
        if (usersFile != null) {
            String text;
            try {
                text = Files.readString(usersFile);
            } catch (IOException e) {
                throw new IllegalArgumentException("--users-file " + usersFile + " cannot be read: " + e);
            }
            List<Account> fromFile = Account.parseLines("--users-file " + usersFile, text);
            if (fromFile.isEmpty()) {
                throw new IllegalArgumentException("--users-file " + usersFile + " names no user");
            }
            accounts.addAll(fromFile);
        }
        String variable = System.getenv(USERS_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            List<Account> fromEnvironment = Account.parseLines("$" + USERS_VARIABLE, variable);
            if (fromEnvironment.isEmpty()) {
                throw new IllegalArgumentException("$" + USERS_VARIABLE + " names no user");
            }
            accounts.addAll(fromEnvironment);
        }
        for (String account : operators) {
            accounts.add(Account.parse("--user", account, WebRole.OPERATOR));
        }
        for (String account : readers) {
            accounts.add(Account.parse("--read-only-user", account, WebRole.READ_ONLY));
        }
        Set<String> names = new HashSet<>();
        for (Account a : accounts) {
            if (!names.add(a.name())) {
                throw new IllegalArgumentException("user " + a.name() + " is given twice");
            }
        }
        return accounts;
    }

    private void warnIfOthersRead(Path file) {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (permissions.contains(PosixFilePermission.OTHERS_READ)) {
                spec.commandLine().getErr().println("serve: warning: --users-file " + file + " is readable by every user"
                        + " of this machine: chmod 600 " + file);
            }
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system: nothing to say about it
        }
    }

    /** A basic-auth account from a flag or a line of a users file. */
    record Account(String name, String password, WebRole role) {
        /** {@code NAME:PASSWORD} of {@code flag}, in {@code role}. */
        static Account parse(String flag, String account, WebRole role) {
            int colon = account.indexOf(':');
            if (colon <= 0 || colon == account.length() - 1) {
                throw new IllegalArgumentException(flag + " must be NAME:PASSWORD, was " + account.replaceAll(":.*", ":..."));
            }
            return new Account(account.substring(0, colon), account.substring(colon + 1), role);
        }

        /** The {@code NAME:PASSWORD:ROLE} lines of {@code text}; an error names {@code source} and the line, never a password. */
        static List<Account> parseLines(String source, String text) {
            List<Account> accounts = new ArrayList<>();
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String where = source + " line " + (i + 1);
                int first = line.indexOf(':');
                int last = line.lastIndexOf(':');
                if (first <= 0 || last <= first + 1 || last == line.length() - 1) {
                    throw new IllegalArgumentException(where + " must be NAME:PASSWORD:ROLE (ROLE operator or read-only),"
                            + " was " + (first > 0 ? line.substring(0, first) + ":..." : "a line without a name"));
                }
                String role = line.substring(last + 1).strip();
                WebRole webRole = switch (role) {
                    case "operator" -> WebRole.OPERATOR;
                    case "read-only" -> WebRole.READ_ONLY;
                    default -> throw new IllegalArgumentException(where + ": the role must be operator or read-only, was '"
                            + role + "'");
                };
                accounts.add(new Account(line.substring(0, first), line.substring(first + 1, last), webRole));
            }
            return accounts;
        }
    }
}
