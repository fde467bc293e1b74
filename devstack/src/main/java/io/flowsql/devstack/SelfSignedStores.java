package io.flowsql.devstack;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A broker keystore (self-signed, for 127.0.0.1 and localhost) and a truststore holding its certificate, made with the
 * JDK's own keytool, for tests of a SASL_SSL broker ({@link LocalKafkaBroker#startSaslSsl}).
 */
public final class SelfSignedStores {
    private SelfSignedStores() {}

    /** Writes {@code keystore} and {@code truststore} (PKCS12) into place; {@code dir} receives the exported certificate. */
    public static void make(Path dir, Path keystore, String keystorePassword, Path truststore, String truststorePassword)
            throws Exception {
        Path cert = dir.resolve("broker.crt");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", keystorePassword, "-keypass", keystorePassword);
        keytool("-exportcert", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", keystorePassword,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", truststore.toString(), "-storepass", truststorePassword);
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
        }
    }
}
