package io.flowsql.sql;

import io.flowsql.sql.catalog.DatabaseLocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;

/** Where the tests find the real Spider data (system property flowsql.shared.data); fails loudly when absent. */
public final class SpiderData {

    private SpiderData() {}

    public static Path sharedData() {
        String property = System.getProperty("flowsql.shared.data");
        if (property == null) {
            throw new IllegalStateException("system property flowsql.shared.data is not set (the parent pom sets it)");
        }
        Path root = Paths.get(property);
        if (!Files.isRegularFile(root.resolve("spider/tables.json"))) {
            throw new IllegalStateException("no Spider data under " + root.toAbsolutePath());
        }
        return root;
    }

    public static DatabaseLocator locator() {
        return DatabaseLocator.forSharedData(sharedData());
    }

    /** Copies one Spider database into {@code target/} so a test may hash it and prove it unchanged. */
    public static DatabaseLocator copyOf(String dbId, Path into) throws IOException {
        Path folder = into.resolve(dbId);
        Files.createDirectories(folder);
        Files.copy(sharedData().resolve("spider/database").resolve(dbId).resolve(dbId + ".sqlite"),
                folder.resolve(dbId + ".sqlite"), StandardCopyOption.REPLACE_EXISTING);
        return new DatabaseLocator(List.of(into), List.of(sharedData().resolve("spider/tables.json")));
    }
}
