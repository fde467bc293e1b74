package io.flowsql.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay mode on the three published Spider dev prediction files. */
class PredictionReplayTest {
    private static final Path DATA = Path.of(System.getProperty("flowsql.shared.data", "../../shared/data"));
    private static final Path DEV = DATA.resolve("spider/dev.json");
    private static final List<Path> FILES = List.of(DATA.resolve("predictions/DAIL-SQL+GPT-4.txt"),
            DATA.resolve("predictions/C3-ChatGPT.txt"), DATA.resolve("predictions/DIN-SQL-GPT-4.csv"));
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void readsLinesAndTheCsvColumnOnePerDevQuestion() {
        PredictionFile dail = PredictionFile.read(FILES.get(0));
        PredictionFile din = PredictionFile.read(FILES.get(2));
        assertThat(dail.sqls()).hasSize(1034);
        assertThat(din.sqls()).hasSize(1034);
        assertThat(dail.sqls().get(2)).isEqualTo("SELECT Name, Country, Age FROM singer ORDER BY Age DESC");
        // the CSV's SQL column, not the NLQ or the gold column
        assertThat(din.sqls().get(0)).isEqualTo("SELECT COUNT(*) FROM singer");
        assertThat(din.sqls()).noneMatch(sql -> sql.startsWith("How many"));
    }

    @Test
    void answersSampleKWithFileKOverHttp() throws Exception {
        PredictionReplay replay = PredictionReplay.load(DEV, FILES);
        JsonNode dev = JSON.readTree(DEV.toFile());
        int i = 2;
        String db = dev.get(i).path("db_id").asText();
        String question = dev.get(i).path("question").asText();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder()
                .responders(ReplayResponder.over(AgentResponders.all(), replay)).build())) {
            String user = "Database: " + db + "\\nQuestion: " + question.replace("\"", "\\\"") + "\\nSchema:\\nx";
            String body = "{\"model\":\"m\",\"n\":3,\"messages\":[{\"role\":\"system\",\"content\":\"### Task: "
                    + "opensearch.generate\\nx\"},{\"role\":\"user\",\"content\":\"" + user + "\"}]}";
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(server.baseUrl() + "/chat/completions")).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode choices = JSON.readTree(response.body()).path("choices");
            assertThat(choices).hasSize(3);
            for (int k = 0; k < 3; k++) {
                String expected = PredictionFile.read(FILES.get(k)).sqls().get(i);
                assertThat(choices.get(k).path("message").path("content").asText())
                        .as("sample %d = line %d of file %d", k, i, k).contains("```sql\n" + expected + "\n```");
            }
        }
    }

    @Test
    void aFileWithTheWrongCountIsRefusedByName(@TempDir Path dir) throws Exception {
        Path shortFile = Files.writeString(dir.resolve("short.txt"), "SELECT 1\nSELECT 2\n");
        assertThatThrownBy(() -> PredictionReplay.load(DEV, List.of(shortFile)))
                .hasMessageContaining("short.txt has 2 predictions for 1034 questions");
    }
}
