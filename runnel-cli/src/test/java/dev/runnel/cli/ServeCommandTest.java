package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Drivers;
import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.testkit.LocalRedis;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runnel serve}: bad flags (one line, exit 2, no database touched), its users from a file and the environment, and a Redis URL. */
class ServeCommandTest {
    @TempDir
    Path dir;

    private int run(StringWriter err, String... args) {
        return Main.run(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    }

    private void assertOneLineExitTwo(String[] args, String... mentions) {
        StringWriter err = new StringWriter();
        assertThat(run(err, args)).as(String.join(" ", args)).isEqualTo(2);
        List<String> lines = err.toString().lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as(err.toString()).hasSize(1);
        for (String m : mentions) {
            assertThat(lines.getFirst()).contains(m);
        }
        assertThat(lines.getFirst()).doesNotContain("hunter2");
    }

    @Test
    void badFlagsExitTwoWithOneLineBeforeOpeningTheDatabase() throws Exception {
        String url = "sqlite://" + dir.resolve("d.db");
        Path noRole = Files.writeString(dir.resolve("no-role"), "ops:hunter2\n");
        Path badRole = Files.writeString(dir.resolve("bad-role"), "# users\n\nops:hunter2:admin\n");
        Path empty = Files.writeString(dir.resolve("empty"), "# nobody yet\n");
        Path twice = Files.writeString(dir.resolve("twice"), "ops:hunter2:operator\n");
        for (String[] args : new String[][] {
                {"serve", "--database-url", url, "--port", "70000"},
                {"serve", "--database-url", url, "--user", "nopassword"},
                {"serve", "--database-url", url, "--read-only-user", "viewer:"},
                {"serve", "--database-url", url, "--bind", "no.such.host.invalid"},
                {"serve", "--database-url", url, "--allowed-host", "http://runnel.example.com"},
                {"serve", "--database-url", url, "--users-file", dir.resolve("missing").toString()},
                {"serve", "--database-url", url, "--users-file", noRole.toString()},
                {"serve", "--database-url", url, "--users-file", badRole.toString()},
                {"serve", "--database-url", url, "--users-file", empty.toString()},
                {"serve", "--database-url", url, "--users-file", twice.toString(), "--user", "ops:other"},
                {"demo", "--database-url", url, "--allowed-host", "runnel.example.com:8080"}}) {
            assertOneLineExitTwo(args);
        }
        assertOneLineExitTwo(new String[] {"serve", "--database-url", url, "--users-file", badRole.toString()},
                "line 3", "operator or read-only", "admin");
        assertThat(Files.exists(dir.resolve("d.db"))).isFalse();
    }

    @Test
    void anOpenDashboardOnANetworkAddressExitsTwoWithOneLineNamingTheFlagsThatServeIt() {
        String url = "sqlite://" + dir.resolve("o.db");
        for (String bind : List.of("0.0.0.0", "::")) {
            assertOneLineExitTwo(new String[] {"serve", "--database-url", url, "--bind", bind}, "--user", "--allow-anonymous",
                    "--bind " + bind);
        }
        assertThat(Files.exists(dir.resolve("o.db"))).isFalse();
    }

    @Test
    void usersComeFromTheFileAndTheEnvironmentAndTheBannerSaysEveryInterface() throws Exception {
        Path users = dir.resolve("users");
        Files.writeString(users, "# name:password:role\nops:pa:ss:operator\n\n");
        Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rw-r--r--"));
        Served serve = Served.start(dir, sqlite(), Map.of(ServeCommand.USERS_VARIABLE, "viewer:look:read-only\n"),
                "--users-file", users.toString(), "--bind", "0.0.0.0");
        try {
            assertThat(serve.banner).startsWith("serve: dashboard on every interface (0.0.0.0:" + serve.port
                    + "; from this machine http://127.0.0.1:" + serve.port + "/)");
            assertThat(serve.status("/api/session", null)).isEqualTo(401);
            assertThat(serve.status("/api/session", "ops:wrong")).isEqualTo(401);
            assertThat(serve.body("/api/session", "ops:pa:ss")).contains("\"role\":\"operator\"");
            assertThat(serve.body("/api/session", "viewer:look")).contains("\"role\":\"read_only\"");
        } finally {
            serve.stop();
        }
        assertThat(serve.err()).contains("serve: warning: --users-file " + users + " is readable by every user")
                .doesNotContain("pa:ss").doesNotContain("look");
    }

    @Test
    void allowAnonymousServesANetworkAddressOpenWithAWarning() throws Exception {
        Served serve = Served.start(dir, sqlite(), Map.of(), "--bind", "0.0.0.0", "--allow-anonymous", "--allowed-host",
                "runnel.example.com");
        try {
            assertThat(serve.banner).contains("on every interface (0.0.0.0:" + serve.port);
            assertThat(serve.status("/api/session", null)).isEqualTo(200);
        } finally {
            serve.stop();
        }
        assertThat(serve.err()).contains("WARN").contains("has no users").contains("0.0.0.0:" + serve.port);
    }

    @Test
    void serveOnARedisUrlShowsTheNamespacesJobsAndQueues() throws Exception {
        String url = LocalRedis.shared().freshUrl();
        long id;
        try (Runnel runnel = Runnel.builder().driver(Drivers.open(url)).autoMigrate(true).queue("mail", 1)
                .worker(Note.class, job -> {}).build()) {
            runnel.start(); // registers queue mail
            id = runnel.insert(new Note("on redis"), InsertOptions.builder().queue("mail").build()).id();
        }
        Served serve = Served.start(dir, url, Map.of());
        try {
            assertThat(serve.banner).contains("http://127.0.0.1:" + serve.port + "/");
            assertThat(serve.body("/api/jobs", null)).contains("\"id\":" + id).contains("on redis");
            assertThat(serve.body("/api/queues", null)).contains("mail");
            assertThat(serve.status("/jobs/" + id, null)).isEqualTo(200);
        } finally {
            serve.stop();
        }
    }

    record Note(String text) implements JobArgs {
        @Override
        public String kind() {
            return "note";
        }
    }

    private String sqlite() {
        return "sqlite://" + dir.resolve("serve.db");
    }

    /** {@code runnel serve} in a process of its own, as an operator starts it, on a free port. */
    private static final class Served {
        final Process process;
        final String banner;
        final int port;
        private final Path errFile;

        private Served(Process process, String banner, int port, Path errFile) {
            this.process = process;
            this.banner = banner;
            this.port = port;
            this.errFile = errFile;
        }

        static Served start(Path dir, String url, Map<String, String> env, String... flags) throws Exception {
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "serve", "--database-url", url, "--port", "0"));
            command.addAll(List.of(flags));
            Path errFile = Files.createTempFile(dir, "serve", ".err");
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(errFile.toFile());
            builder.environment().remove(ServeCommand.USERS_VARIABLE);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("serve: dashboard")) {
                // what it prints before the banner
            }
            if (line == null) {
                process.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("serve printed no banner; stderr: " + Files.readString(errFile));
            }
            Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(line);
            if (!m.find()) {
                process.destroy();
                throw new AssertionError("no URL in the banner: " + line);
            }
            return new Served(process, line, Integer.parseInt(m.group(1)), errFile);
        }

        private HttpResponse<String> get(String path, String credentials) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
            if (credentials != null) {
                b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
            }
            try (HttpClient http = HttpClient.newHttpClient()) {
                return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            }
        }

        int status(String path, String credentials) throws Exception {
            return get(path, credentials).statusCode();
        }

        String body(String path, String credentials) throws Exception {
            HttpResponse<String> r = get(path, credentials);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return r.body();
        }

        void stop() throws Exception {
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        String err() throws Exception {
            return Files.readString(errFile);
        }
    }
}
