package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The job's shaded jar carries native libraries for the platforms Flink clusters run on, and no others (job/pom.xml's
 * filters; docs/OPERATIONS.md#the-jobs-jar): every submission hashes and copies the jar three times, so 30 MB of
 * Windows, AIX, FreeBSD and 32-bit libraries cost every job. The drivers in the jar still load their natives here.
 */
class ShadedJarNativesIT {
    private static final Path JAR = Path.of(System.getProperty("flowsql.job.jar"));

    @Test
    void theJarKeepsLinuxAndMacNativesAndDropsTheOthers() throws Exception {
        List<String> natives;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            natives = jar.stream().map(ZipEntry::getName).filter(ShadedJarNativesIT::isNative).toList();
        }
        assertThat(natives).contains(
                "libduckdb_java.so_linux_amd64", "libduckdb_java.so_linux_arm64", "libduckdb_java.so_macos_arm64",
                "org/sqlite/native/Linux/x86_64/libsqlitejdbc.so", "org/sqlite/native/Linux/aarch64/libsqlitejdbc.so",
                "org/sqlite/native/Linux-Musl/x86_64/libsqlitejdbc.so", "org/sqlite/native/Mac/aarch64/libsqlitejdbc.dylib",
                "linux/amd64/libzstd-jni-1.5.6-10.so", "linux/aarch64/libzstd-jni-1.5.6-10.so",
                "org/xerial/snappy/native/Linux/x86_64/libsnappyjava.so", "net/jpountz/util/linux/amd64/liblz4-java.so");
        assertThat(natives).as("natives for platforms Flink does not run on")
                .noneMatch(n -> n.matches("(?i).*(\\.dll|windows|win32|^win/|aix|freebsd|sunos|android|s390x|ppc|riscv"
                        + "|loongarch|mips|i386|/x86/|/arm/|armv).*"));
    }

    @Test
    void theDriversInTheJarLoadTheirNativesOnThisMachine() throws Exception {
        // only the jar (and the JDK): what a TaskManager's user class loader sees of the project
        try (URLClassLoader jarOnly = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            assertThat(oneRow(jarOnly, "org.duckdb.DuckDBDriver", "jdbc:duckdb:")).isEqualTo(42);
            assertThat(oneRow(jarOnly, "org.sqlite.JDBC", "jdbc:sqlite::memory:")).isEqualTo(42);
        }
    }

    private static int oneRow(ClassLoader loader, String driverClass, String url) throws Exception {
        Driver driver = (Driver) Class.forName(driverClass, true, loader).getDeclaredConstructor().newInstance();
        try (Connection connection = driver.connect(url, new Properties()); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT 6 * 7")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static boolean isNative(String name) {
        return name.matches(".*\\.(so|dll|dylib|jnilib|a)$") || name.startsWith("libduckdb_java.so_");
    }
}
