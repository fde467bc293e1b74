package io.flowsql.sql.retrieve;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The first step of every preset: the schema a question's prompts may show, bounded by a token budget. When the whole
 * (visible) schema's full rendering fits the budget it is returned as it is, so small databases see exactly what they
 * saw before. Otherwise tables are ranked by a {@link RelevanceScorer} (by default {@link LexicalScorer}), each table's
 * score raised by its foreign-key neighbours' and by the best table of its schema namespace (so the tables joined to
 * a match, and the tables of the matched namespace, come next); the question is routed to its best few schema
 * namespaces ({@link NamespaceOrder}), and their best tables are kept while their measured costs ({@link TableCosts},
 * each table rendered once per schema object) add up to at most the budget ({@link BudgetCut}); the kept schema is
 * rendered once, to check. The visible schema is whatever the caller lets the question see (a tenant's tables), so
 * an access filter applies before ranking.
 */
public final class SchemaRetriever {
    /** What the job uses unless {@code schema.token-budget} says otherwise: larger than every Spider and BIRD dev schema. */
    public static final int DEFAULT_TOKEN_BUDGET = 12_000;
    /**
     * Value-index hits a retrieval asks for (at least): the index ranks one value found in many columns before the
     * others ("English" in six department tables), so routing needs more than the few a prompt shows to see each
     * value's schemas ({@link NamespaceValues}); the column scores use the best {@link LexicalScorer#COLUMN_VALUES}.
     */
    public static final int VALUE_MATCHES = 20;
    static final double NEIGHBOUR_WEIGHT = 0.4;
    static final double NAMESPACE_WEIGHT = 0.3;
    /** Share of the budget the best tables take in full; the tables after them are shown in brief. */
    static final double DETAILED_SHARE = 0.25;

    private final SchemaRenderer renderer;
    private final TokenCounter tokens;
    private final RelevanceScorer scorer;
    private final int budget;
    /** Tokens of a schema's whole rendering and of each of its parts, measured once per schema object. */
    private final Cache<DatabaseSchema, TableCosts> costs = Caffeine.newBuilder().weakKeys().build();
    /** Each schema's namespaces as BM25 documents, built once per schema object. */
    private final Cache<DatabaseSchema, NamespaceBm25> documents = Caffeine.newBuilder().weakKeys().build();

    public SchemaRetriever(RelevanceScorer scorer, int budget) {
        if (budget <= 0) {
            throw new IllegalArgumentException("the schema token budget must be positive: " + budget);
        }
        this.tokens = new TokenCounter();
        this.renderer = new SchemaRenderer(tokens, null);
        this.scorer = scorer;
        this.budget = budget;
    }

    public static SchemaRetriever lexical(int budget) {
        return new SchemaRetriever(new LexicalScorer(), budget);
    }

    public int budget() {
        return budget;
    }

    /** Whether the whole schema's rendering fits the budget (then retrieval returns it unchanged). */
    public boolean fitsWhole(DatabaseSchema visible) {
        return costs.get(visible, this::measure).whole <= budget;
    }

    /** The bounded schema for {@code query} out of {@code visible} (the tables the question may see). */
    public RetrievedSchema retrieve(DatabaseSchema visible, RetrievalQuery query) {
        TableCosts cost = costs.get(visible, this::measure);
        int n = visible.tables().size();
        if (cost.whole <= budget) {
            return new RetrievedSchema(visible, cost.whole, cost.whole, n, false, List.of(), List.of());
        }
        Relevance relevance = scorer.score(visible, query);
        double[] score = ranked(visible, cost, relevance, false);
        NamespaceOrder.Routing routing = NamespaceOrder.of(cost.namespace, score, ranked(visible, cost, relevance, true),
                named(visible, cost, relevance),
                documents.get(visible, NamespaceBm25::new).score(query), NamespaceValues.of(query.text(), query.values()),
                query.previousSchemas());
        List<Integer> order = routing.order().isEmpty() && n > 0 ? List.of(0) : routing.order();
        BudgetCut cut = new BudgetCut(order, cost, budget, DETAILED_SHARE);
        DatabaseSchema bounded = subset(visible, cut.kept, cut.brief);
        int t = renderer.full(bounded).tokens();
        while (t > budget && cut.trimTo(cut.tokens - (t - budget))) {  // the tokenizer merged across parts: rare, a few tokens
            bounded = subset(visible, cut.kept, cut.brief);
            t = renderer.full(bounded).tokens();
        }
        List<String> briefNames = cut.brief.stream().sorted().map(i -> visible.tables().get(i).name()).toList();
        return new RetrievedSchema(bounded, t, cost.whole, n, true, briefNames, routing.namespaces());
    }

    /**
     * Whether each table's own words matched the question, or it joins (by foreign keys) two other tables whose words
     * did: the tables a query over what the question names needs, which are offered before the tables that only hang
     * off one match.
     */
    static boolean[] named(DatabaseSchema schema, TableCosts cost, Relevance relevance) {
        List<TableSchema> tables = schema.tables();
        boolean[] matched = new boolean[tables.size()];
        for (int i = 0; i < matched.length; i++) {
            matched[i] = relevance.table(tables.get(i).name()) > 0;
        }
        boolean[] named = matched.clone();
        for (int i = 0; i < named.length; i++) {
            Set<Integer> joined = new java.util.HashSet<>();
            for (int other : cost.neighbour[i]) {
                if (other != i && matched[other]) {
                    joined.add(other);
                }
            }
            named[i] |= joined.size() >= 2;
        }
        return named;
    }

    /** Each table's own score, plus a share of its foreign-key neighbours' and of its namespace's best table. */
    private static double[] ranked(DatabaseSchema schema, TableCosts cost, Relevance relevance, boolean ownAndNeighbours) {
        List<TableSchema> tables = schema.tables();
        double[] base = new double[tables.size()];
        Map<String, Double> namespaceBest = new HashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            base[i] = relevance.table(tables.get(i).name());
            if (base[i] != 0) {
                namespaceBest.merge(cost.namespace[i], base[i], Math::max);
            }
        }
        double[] score = base.clone();
        for (int i = 0; i < tables.size(); i++) {
            for (int other : cost.neighbour[i]) {
                if (other != i) {
                    score[i] += NEIGHBOUR_WEIGHT * base[other];
                }
            }
        }
        for (int i = 0; i < tables.size() && !ownAndNeighbours; i++) {
            String ns = cost.namespace[i];
            if (!ns.isEmpty()) {
                score[i] += NAMESPACE_WEIGHT * namespaceBest.getOrDefault(ns, 0.0);
            }
        }
        return score;
    }

    /**
     * The namespaces of {@code visible} that {@code sql} names ({@code concert_singer.singer} → concert_singer), lower
     * case: what a dialogue's previous turn read, for {@link RetrievalQuery#afterTurnIn}.
     */
    public static Set<String> namespacesIn(String sql, DatabaseSchema visible) {
        if (sql == null || sql.isBlank()) {
            return Set.of();
        }
        Set<String> named = new java.util.HashSet<>();
        java.util.regex.Matcher m = QUALIFIER.matcher(sql);
        while (m.find()) {
            named.add((m.group(1) != null ? m.group(1) : m.group(2)).toLowerCase(Locale.ROOT));
        }
        Set<String> out = new java.util.HashSet<>();
        for (TableSchema t : visible.tables()) {
            String ns = namespace(t.name());
            if (!ns.isEmpty() && named.contains(ns)) {
                out.add(ns);
            }
        }
        return out;
    }

    /** The first name of a dotted chain (a schema, or a table or alias: only namespaces of the schema count). */
    private static final java.util.regex.Pattern QUALIFIER =
            java.util.regex.Pattern.compile("(?<![.\\w\"])(?:\"([^\"]+)\"|([A-Za-z_][A-Za-z0-9_$]*))\\s*\\.");

    /** The schema namespace of a qualified table name ({@code sales.orders} → sales), or "" when unqualified. */
    static String namespace(String table) {
        int dot = table.lastIndexOf('.');
        return dot < 0 ? "" : table.substring(0, dot).toLowerCase(Locale.ROOT);
    }

    private static DatabaseSchema subset(DatabaseSchema schema, List<Integer> kept, Set<Integer> brief) {
        Set<String> names = kept.stream().map(i -> schema.tables().get(i).name()).collect(Collectors.toSet());
        Set<String> briefNames = brief.stream().map(i -> schema.tables().get(i).name()).collect(Collectors.toSet());
        return SchemaSubset.named(schema, names, briefNames);
    }

    TableCosts measure(DatabaseSchema schema) {
        return new TableCosts(schema, renderer, tokens);
    }
}
