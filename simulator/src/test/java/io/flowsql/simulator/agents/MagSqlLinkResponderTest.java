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

    /** A warehouse's tables are schema-qualified: the whole "ns.table" is the table, not "ns" (the full preset failed on it). */
    @Test
    void schemaQualifiedTablesInFullKeepTheirSchema() {
        String schema = """
                # Table: concert_singer.singer
                [
                  (Singer_ID, INTEGER, primary key),
                  (Name, TEXT, examples: ['Joe Sharp']),
                ]
                # Table: concert_singer.stadium
                [
                  (Stadium_ID, INTEGER, primary key),
                ]
                """;
        Map<String, String> columns = MagSqlLinkResponder.columns(schema);
        assertEquals(List.of("concert_singer.singer.Singer_ID", "concert_singer.singer.Name",
                "concert_singer.stadium.Stadium_ID"), List.copyOf(columns.keySet()));
        assertEquals("Name", columns.get("concert_singer.singer.Name"));
    }
}
