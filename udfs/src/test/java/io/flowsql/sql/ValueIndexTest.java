package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsScanValueIndex;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.index.TextValues;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Value retrieval on real Spider dev questions: the trigram index finds what the LCS scan finds. */
class ValueIndexTest {

    private final DatabaseLocator locator = SpiderData.locator();
    private final LcsValueScorer scorer = LcsValueScorer.defaults();

    @Test
    void findsLiteralValuesOfRealDevQuestions() {
        CachingValueIndexProvider provider = CachingValueIndexProvider.ngram(locator, scorer, 8);
        List<ValueMatch> france = provider.forDatabase("concert_singer")
                .find("What are the names of the singers from France?", 5);
        assertThat(france).anySatisfy(m -> {
            assertThat(m.value()).isEqualTo("France");
            assertThat(m.columnRef()).isEqualTo(new ColumnRef("singer", "Country"));
            assertThat(m.score()).isEqualTo(1.0);
        });
        assertThat(provider.forDatabase("world_1").find("What is the total population of Gelderland district?", 5))
                .anyMatch(m -> m.value().equals("Gelderland") && m.column().equals("District"));
        assertThat(provider.forDatabase("flight_2").find("How many flights depart from 'APG'?", 5))
                .anyMatch(m -> m.value().equals("APG"));
        assertThat(provider.forDatabase("concert_singer")).isSameAs(provider.forDatabase("concert_singer"));
    }

    @Test
    void indexReturnsExactlyWhatTheScanReturnsOnDevQuestions() throws IOException {
        JsonNode dev = new ObjectMapper().readTree(SpiderData.sharedData().resolve("spider/dev.json").toFile());
        int compared = 0;
        int nonEmpty = 0;
        String currentDb = null;
        NgramValueIndex index = null;
        LcsScanValueIndex scan = null;
        for (JsonNode q : dev) {
            String db = q.get("db_id").asText();
            if (locator.sqliteFile(db).isEmpty() || compared >= 150) {
                continue;
            }
            if (!db.equals(currentDb)) {
                TextValues values = CachingValueIndexProvider.loadValues(locator, db);
                index = new NgramValueIndex(values, scorer);
                scan = new LcsScanValueIndex(values, scorer);
                currentDb = db;
            }
            String question = q.get("question").asText();
            List<ValueMatch> fromIndex = index.find(question, 20);
            assertThat(fromIndex).as(question).isEqualTo(scan.find(question, 20));
            compared++;
            nonEmpty += fromIndex.isEmpty() ? 0 : 1;
        }
        assertThat(compared).isEqualTo(150);
        assertThat(nonEmpty).isGreaterThan(30);
    }

    @Test
    void scoreIsTheSharedRunOverTheValueLength() {
        assertThat(scorer.score("singers from france", "france")).isEqualTo(1.0);
        assertThat(scorer.score("singers from franc", "france")).isEqualTo(5.0 / 6, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(scorer.score("singers from fra", "france")).isZero();
        assertThat(scorer.score("an ox", "ox")).as("shorter than the minimum run").isZero();
    }
}
