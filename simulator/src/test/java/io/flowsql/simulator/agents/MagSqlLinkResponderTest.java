package io.flowsql.simulator.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MagSqlLinkResponderTest {

    @Test
    void columnsAreReadFromFullTableBlocksAndFromOneLineBriefTables() {
        String schema = """
                # Table: singer
                [
                  (Singer_ID, INTEGER, primary key),
                  (Name, TEXT, examples: ['Joe Sharp']),
                ]
                # Table: pets_1.Pets [PetID (primary key), PetType, pet_age]
                """;
        Map<String, String> columns = MagSqlLinkResponder.columns(schema);
        assertEquals(List.of("singer.Singer_ID", "singer.Name", "pets_1.Pets.PetID", "pets_1.Pets.PetType", "pets_1.Pets.pet_age"),
                List.copyOf(columns.keySet()));
        assertEquals("PetID", columns.get("pets_1.Pets.PetID"));
    }
}
