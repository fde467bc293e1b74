package io.flowsql.console;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** Starts the console over a running job's topics; prints its address on the first line of standard output. */
@Command(name = "console", mixinStandardHelpOptions = true,
        description = "A web console over the job's questions and answers topics (docs/OPERATIONS.md#console).")
public final class ConsoleMain implements Callable<Integer> {

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}); "
            + "any other than loopback needs a token.")
    String bind;

    @Option(names = "--port", defaultValue = "8088", description = "Port (default ${DEFAULT-VALUE}; 0: any free one).")
    int port;

    @Option(names = "--token-file", description = "File holding the bearer token (else env FLOWSQL_CONSOLE_TOKEN); "
            + "required when bound beyond loopback.")
    Path tokenFile;

    @Option(names = "--tenant-tokens", description = "Properties file, one line per tenant: <tenant>=<token>. Required "
            + "when the job has access policies (tenants.*): a person's token says which tenant the console speaks for.")
    Path tenantTokensFile;

    @Option(names = {"-c", "--config"}, description = "The job's properties file (the console reads the broker, topics, "
            + "databases and SQL budgets from the job's options).")
    Path configFile;

    @Option(names = {"-D", "--set"}, description = "Override one job option, key=value; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command; a setting it refuses (a public address without a token, a bad token, an unknown host) ends it with
     * one line on standard error and exit code 2, not a stack trace.
     */
    static CommandLine commandLine() {
        CommandLine line = new CommandLine(new ConsoleMain());
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (!(e instanceof IllegalArgumentException)) {
                throw e;
            }
            cmd.getErr().println("console: " + e.getMessage());
            return 2;
        });
        return line;
    }

    @Override
    public Integer call() throws Exception {
        String token = tokenFile != null ? Files.readString(tokenFile, StandardCharsets.UTF_8).trim()
                : System.getenv("FLOWSQL_CONSOLE_TOKEN");
        ConsoleSettings settings = ConsoleSettings.of(bind, port, token, tenantTokens(tenantTokensFile),
                ConsoleSettings.load(configFile, overrides));
        CountDownLatch stopped = new CountDownLatch(1);
        try (ConsoleServer console = ConsoleServer.start(settings)) {
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown));
            System.out.println(console.url());
            System.out.flush();
            stopped.await();
        }
        return 0;
    }

    /** Token → tenant from a {@code <tenant>=<token>} properties file (none: empty); a token given twice is refused. */
    static Map<String, String> tenantTokens(Path file) throws java.io.IOException {
        Map<String, String> byToken = new LinkedHashMap<>();
        if (file == null) {
            return byToken;
        }
        java.util.Properties lines = new java.util.Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines.load(in);
        }
        for (String tenant : lines.stringPropertyNames()) {
            String token = lines.getProperty(tenant).trim();
            if (byToken.put(token, tenant) != null) {
                throw new IllegalArgumentException("two tenants share one token in " + file);
            }
        }
        return byToken;
    }
}
