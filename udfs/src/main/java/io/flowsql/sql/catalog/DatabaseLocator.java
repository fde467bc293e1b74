package io.flowsql.sql.catalog;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a benchmark database and its side files by id, over Spider's {@code database/} and BIRD's
 * {@code dev_databases/} layouts ({@code <root>/<db>/<db>.sqlite}), so nothing else hard-codes paths.
 * Holds paths as strings so it can travel inside a serialized Flink function.
 */
public final class DatabaseLocator implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.\\-]*");

    private final List<String> roots;
    private final List<String> tablesJsonFiles;

    /**
     * @param roots folders holding one sub-folder per database
     * @param tablesJsonFiles Spider/BIRD {@code tables.json} files (may be empty; missing files are ignored)
     */
    public DatabaseLocator(List<Path> roots, List<Path> tablesJsonFiles) {
        this.roots = roots.stream().map(p -> p.toAbsolutePath().normalize().toString()).toList();
        this.tablesJsonFiles = tablesJsonFiles.stream().map(p -> p.toAbsolutePath().normalize().toString()).toList();
    }

    /** The layout of the shared benchmark data: Spider's databases and tables.json, and BIRD's if present. */
    public static DatabaseLocator forSharedData(Path sharedData) {
        List<Path> roots = new ArrayList<>();
        List<Path> tables = new ArrayList<>();
        roots.add(sharedData.resolve("spider/database"));
        tables.add(sharedData.resolve("spider/tables.json"));
        for (String bird : List.of("bird", "bird-minidev", "bird-dev")) {
            roots.add(sharedData.resolve(bird).resolve("dev_databases"));
            tables.add(sharedData.resolve(bird).resolve("dev_tables.json"));
        }
        return new DatabaseLocator(roots, tables);
    }

    /** The SQLite file of this database, if one of the roots has it. */
    public Optional<Path> sqliteFile(String dbId) {
        return databaseFolder(dbId).map(folder -> folder.resolve(dbId + ".sqlite")).filter(Files::isRegularFile);
    }

    /** BIRD's {@code database_description} folder of this database, if present. */
    public Optional<Path> descriptionFolder(String dbId) {
        return databaseFolder(dbId).map(f -> f.resolve("database_description")).filter(Files::isDirectory);
    }

    /** The {@code tables.json}-style files that exist. */
    public List<Path> tablesJsonFiles() {
        return tablesJsonFiles.stream().map(Paths::get).filter(Files::isRegularFile).toList();
    }

    /** Ids of every database with a SQLite file, sorted. */
    public List<String> databaseIds() {
        TreeSet<String> ids = new TreeSet<>();
        for (String root : roots) {
            Path dir = Paths.get(root);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> children = Files.list(dir)) {
                children.filter(c -> Files.isRegularFile(c.resolve(c.getFileName() + ".sqlite")))
                        .forEach(c -> ids.add(c.getFileName().toString()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return List.copyOf(ids);
    }

    private Optional<Path> databaseFolder(String dbId) {
        if (dbId == null || !SAFE_ID.matcher(dbId).matches() || dbId.contains("..")) {
            return Optional.empty();
        }
        for (String root : roots) {
            Path folder = Paths.get(root).resolve(dbId);
            if (Files.isRegularFile(folder.resolve(dbId + ".sqlite"))) {
                return Optional.of(folder);
            }
        }
        return Optional.empty();
    }
}
