package io.flowsql.benchmarks.retrieval;

import io.flowsql.benchmarks.TempFolders;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Asked;
import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Figures;
import io.flowsql.benchmarks.engine.postgresql.LocalPostgres;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobDatabases;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.JdbcTextValues;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.registry.ValueSampling;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import io.flowsql.sql.retrieve.SchemaRetriever;
import io.flowsql.sql.server.JdbcSchemaCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A user's warehouse and question log ({@code deploy/bench.sh warehouse-retrieval --ddl FILE --questions FILE}): the
 * DDL (PostgreSQL, schema-qualified, {@code COMMENT ON} as descriptions, {@code INSERT}s welcome: they feed the value
 * index) runs on a fresh embedded PostgreSQL, the catalog and value index are read from it as the job reads them, and
 * each question of the JSON list {@code [{question, evidence?, sql, schema?}]} (gold SQL unqualified, written against
 * {@code schema}) is asked of the whole warehouse.
 */
final class UserWarehouse {
    static final String ID = "user_warehouse";

    private UserWarehouse() {}

    static Figures run(Path ddl, Path questionsFile, Integer budgetGiven, Path work) throws Exception {
        Files.createDirectories(work);
        Path pgData = Files.createTempDirectory(work.toAbsolutePath(), "user-pgdata");
        try (LocalPostgres pg = LocalPostgres.start(pgData, true)) {
            long start = System.nanoTime();
            List<String> schemas = new ArrayList<>();
            try (Connection c = pg.admin(); Statement s = c.createStatement()) {
                s.execute(Files.readString(ddl));
                try (ResultSet rs = s.executeQuery("SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_schema "
                        + "NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")) {
                    while (rs.next()) {
                        schemas.add(rs.getString(1));
                    }
                }
            }
            DatabaseDeclaration d = pg.declaration(ID, schemas, 2, new ValueSampling(10_000, 256L << 10, 256L << 20, 600_000));
            return measure(new DatabaseRegistry(DatabaseLocator.forSharedData(work), List.of(d)), d, new Credentials(Map.of()),
                    "your DDL " + ddl.getFileName() + " on embedded PostgreSQL", questionsFile, budgetGiven, start);
        } finally {
            TempFolders.deleteQuietly(pgData);
        }
    }

    /**
     * {@code --database ID --config FILE}: database {@code id} as the job declares it in its options file
     * ({@code databases.<id>.url}, {@code .user}, {@code .password-env}, {@code .schemas}, ...), read live as the job reads
     * it (its catalog, and its value index sampled within the declaration's {@code values.*} limits), nothing loaded or
     * written; the password comes from the environment variable or file the declaration names.
     */
    static Figures declared(Path config, String id, Path questionsFile, Integer budgetGiven) throws Exception {
        long start = System.nanoTime();
        DatabaseRegistry registry = JobDatabases.registry(JobConfig.load(config, Map.of()));
        DatabaseDeclaration d = registry.declaration(id).orElseThrow(() -> new IllegalArgumentException(config
                + " declares no database " + id + " (declared: " + registry.declared().stream().map(DatabaseDeclaration::id)
                .toList() + "; a database is declared by databases." + id + ".url=jdbc:...)"));
        return measure(registry, d, Credentials.fromEnvironment(), "declared database " + id + " (" + d.engine().displayName()
                + ", catalog read live)", questionsFile, budgetGiven, start);
    }

    /** Reads {@code d}'s catalog and value index live, as the job does, and asks it every question of the file. */
    private static Figures measure(DatabaseRegistry registry, DatabaseDeclaration d, Credentials credentials, String label,
            Path questionsFile, Integer budgetGiven, long start) throws Exception {
        try (JdbcPools pools = new JdbcPools(credentials, 30_000);
                JdbcSchemaCatalog live = new JdbcSchemaCatalog(registry, pools, ValueExamplePolicy.defaults())) {
            DatabaseSchema warehouse = live.schema(d.id());
            NgramValueIndex index = new NgramValueIndex(sampleValues(pools, d, warehouse).values(), LcsValueScorer.defaults());
            Map<String, DatabaseSchema> byNamespace = RetrievalMeasure.namespaces(warehouse);
            WarehouseRetrievalBenchmark.describe(label, warehouse, index, byNamespace.size(), (System.nanoTime() - start) / 1_000_000);
            List<Asked> asked = questions(questionsFile, byNamespace, d.defaultSchema());
            SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), null);
            int[] own = asked.stream().mapToInt(a -> renderer.full(byNamespace.get(a.schema())).tokens()).sorted().toArray();
            int budget = budgetGiven != null ? budgetGiven : own.length == 0 ? SchemaRetriever.DEFAULT_TOKEN_BUDGET : own[own.length / 2];
            System.out.printf(Locale.ROOT, "%d questions; their own schema's whole prompt: median %d tokens; budget %d tokens%n",
                    asked.size(), own.length == 0 ? 0 : own[own.length / 2], budget);
            Figures f = RetrievalMeasure.run(warehouse, index, asked, SchemaRetriever.lexical(budget),
                    !Boolean.getBoolean("flowsql.retrieval.quiet"));
            WarehouseRetrievalBenchmark.print(f);
            return f;
        }
    }

    /** The text values of {@code warehouse}, sampled from the live database as the job's value index samples them. */
    static JdbcTextValues.Built sampleValues(JdbcPools pools, DatabaseDeclaration d, DatabaseSchema warehouse) throws java.sql.SQLException {
        try (Connection c = pools.connection(d)) {
            JdbcTextValues.Built values = JdbcTextValues.sample(d, warehouse, c, CachingValueIndexProvider.MIN_VALUE_LENGTH,
                    CachingValueIndexProvider.MAX_VALUE_LENGTH);
            if (!c.getAutoCommit()) {
                c.rollback();
            }
            return values;
        }
    }

    /**
     * The question file's entries; a question without {@code schema} belongs to the schema holding most of its gold
     * tables. The database's default schema ({@code defaultSchema}, whose tables the catalog names unqualified) is the
     * namespace {@code ""}.
     * @throws IllegalArgumentException naming the entry when its schema is not in the warehouse, or none of its tables is
     */
    static List<Asked> questions(Path file, Map<String, DatabaseSchema> byNamespace, String defaultSchema) throws java.io.IOException {
        List<Asked> out = new ArrayList<>();
        JsonNode list = new ObjectMapper().readTree(file.toFile());
        for (int i = 0; i < list.size(); i++) {
            JsonNode q = list.get(i);
            String sql = q.path("sql").asText("");
            if (q.path("question").asText("").isBlank() || sql.isBlank()) {
                throw new IllegalArgumentException(file + " entry " + i + ": needs question and sql");
            }
            String schema = q.path("schema").asText("").toLowerCase(Locale.ROOT);
            if (schema.equalsIgnoreCase(defaultSchema) && byNamespace.containsKey("")) {
                schema = "";
            } else if (schema.isEmpty() || !byNamespace.containsKey(schema)) {
                if (!schema.isEmpty()) {
                    throw new IllegalArgumentException(file + " entry " + i + ": no schema " + schema + " in the warehouse");
                }
                int best = -1;
                for (Map.Entry<String, DatabaseSchema> e : byNamespace.entrySet()) {
                    int found = GoldSchemaUse.of(sql, e.getValue()).tables().size();
                    if (found > best) {
                        best = found;
                        schema = e.getKey();
                    }
                }
                if (best <= 0) {
                    throw new IllegalArgumentException(file + " entry " + i + ": none of its SQL's tables is in the warehouse");
                }
            }
            String evidence = q.path("evidence").asText("");
            out.add(new Asked("u" + i, q.get("question").asText(), evidence.isBlank() ? null : evidence, schema, sql, false));
        }
        return out;
    }
}
