package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SpiderTablesJson;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The catalog's rules on real Spider databases, and BIRD's description CSVs on a generated fixture. */
class SqliteSchemaCatalogTest {

    private static SqliteSchemaCatalog catalog;

    @BeforeAll
    static void build() {
        catalog = new SqliteSchemaCatalog(SpiderData.locator());
    }

    private static ColumnSchema column(DatabaseSchema schema, String table, String column) {
        return schema.table(table).orElseThrow().columns().stream()
                .filter(c -> c.name().equalsIgnoreCase(column)).findFirst().orElseThrow();
    }

    @Test
    void concertSingerTablesKeysAndForeignKeys() {
        DatabaseSchema schema = catalog.schema("concert_singer");
        assertThat(schema.tables()).extracting(TableSchema::name)
                .containsExactly("stadium", "singer", "concert", "singer_in_concert");
        assertThat(schema.table("singer").orElseThrow().primaryKey()).containsExactly("Singer_ID");
        assertThat(schema.table("stadium").orElseThrow().primaryKey()).containsExactly("Stadium_ID");
        assertThat(schema.foreignKeys()).extracting(fk -> fk.from() + "->" + fk.to()).containsExactlyInAnyOrder(
                "concert.Stadium_ID->stadium.Stadium_ID",
                "singer_in_concert.Singer_ID->singer.Singer_ID",
                "singer_in_concert.concert_ID->concert.concert_ID");
        ColumnSchema id = column(schema, "singer", "Singer_ID");
        assertThat(id.primaryKey()).isTrue();
        assertThat(id.nullable()).isFalse();
        assertThat(column(schema, "singer", "Country").nullable()).isTrue();
        assertThat(column(schema, "singer", "Age").type()).isEqualToIgnoringCase("int");
        assertThat(schema.columnCount()).isEqualTo(21);
    }

    @Test
    void valueExamplesFollowMagSqlRules() {
        DatabaseSchema world = catalog.schema("world_1");
        assertThat(column(world, "country", "Continent").valueExamples()).hasSize(3).startsWith("Africa");
        assertThat(column(world, "city", "ID").valueExamples()).as("id column").isEmpty();
        assertThat(column(world, "city", "CountryCode").valueExamples()).as("foreign key").isEmpty();
        assertThat(column(world, "city", "Population").valueExamples()).as("numeric, many distinct").isEmpty();
        assertThat(column(world, "country", "Name").valueExamples()).hasSize(3);
        assertThat(column(catalog.schema("hr_1"), "employees", "EMAIL").valueExamples()).as("e-mail").isEmpty();
        assertThat(column(catalog.schema("concert_singer"), "singer", "Is_male").valueExamples())
                .as("numeric-looking but few distinct").containsExactlyInAnyOrder("F", "T");
    }

    @Test
    void valueRulesOnRealValues() {
        ValueExamplePolicy policy = ValueExamplePolicy.defaults();
        List<String> emails = List.of("javier.trantow@example.net", "vbogisich@example.org");
        assertThat(policy.choose("VARCHAR(80)", emails, 2)).isEmpty();
        assertThat(policy.choose("TEXT", List.of("http://www.example.com/a", "b"), 2)).isEmpty();
        assertThat(policy.choose("TEXT", List.of("x".repeat(51)), 1)).isEmpty();
        assertThat(policy.choose("TEXT", List.of("1990", "1991", "1992", "1993"), 40)).isEmpty();
        assertThat(policy.choose("INT", List.of("1", "2"), 2)).containsExactly("1", "2");
        assertThat(policy.choose("TEXT", List.of("a", "b", "c", "d"), 4)).containsExactly("a", "b", "c");
        assertThat(policy.skipsByName("stadiumId", false)).isTrue();
        assertThat(policy.skipsByName("paid", false)).isFalse();
        assertThat(policy.skipsByName("homepage_url", false)).isTrue();
    }

    @Test
    void descriptionsComeFromTablesJsonNaturalNames() {
        DatabaseSchema world = catalog.schema("world_1");
        assertThat(column(world, "country", "IndepYear").description()).isEqualTo("indepdent year");
        assertThat(column(world, "country", "SurfaceArea").description()).isEqualTo("surface area");
        assertThat(column(world, "country", "Name").description()).as("restates the name").isEmpty();
    }

    @Test
    void everyTablesJsonKeyIsInTheCatalogAndEveryKeyExists() {
        DatabaseLocator locator = SpiderData.locator();
        SpiderTablesJson tables = SpiderTablesJson.load(locator.tablesJsonFiles());
        for (String db : List.of("concert_singer", "world_1", "flight_2", "car_1", "student_transcripts_tracking",
                "dog_kennels", "network_1", "pets_1", "cre_Doc_Template_Mgt", "orchestra")) {
            DatabaseSchema schema = catalog.schema(db);
            SpiderTablesJson.Entry entry = tables.entry(db).orElseThrow();
            for (int[] fk : entry.foreignKeys()) {
                SpiderTablesJson.Column from = entry.columns().get(fk[0]);
                String fromTable = entry.tablesOriginal().get(from.tableIndex());
                assertThat(schema.foreignKeys()).as(db + " " + fromTable + "." + from.original())
                        .anyMatch(k -> k.from().table().equalsIgnoreCase(fromTable) && k.from().column().equalsIgnoreCase(from.original()));
            }
            for (ForeignKey fk : schema.foreignKeys()) {
                assertThat(column(schema, fk.from().table(), fk.from().column())).isNotNull();
                assertThat(column(schema, fk.to().table(), fk.to().column())).isNotNull();
            }
        }
    }

    @Test
    void builtOnceAndCached() {
        assertThat(catalog.schema("pets_1")).isSameAs(catalog.schema("pets_1"));
        assertThat(catalog.contains("pets_1")).isTrue();
        assertThat(catalog.contains("wta_1")).as("schema script only, no SQLite file").isFalse();
        assertThatThrownBy(() -> catalog.schema("nope")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void birdDescriptionCsvsInOddEncodings() throws IOException, SQLException {
        Path root = Paths.get("target", "bird-fixture", "dev_databases");
        Path folder = root.resolve("cafe");
        Files.createDirectories(folder.resolve("database_description"));
        Path db = folder.resolve("cafe.sqlite");
        Files.deleteIfExists(db);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE drinks (drink_id INTEGER PRIMARY KEY, nm TEXT NOT NULL, price REAL)");
            s.execute("INSERT INTO drinks (nm, price) VALUES ('Café au lait', 3.5), ('Tea', 2.0), ('Tea', 2.5)");
        }
        String csv = "original_column_name,column_name,column_description,data_format,value_description\r\n"
                + "drink_id,drink id,the id of the drink,integer,\r\n"
                + "nm,name,\"name of the drink, as on the menu\",text,\"e.g. Café\nau lait\"\r\n"
                + "price,,price in euros,real,\r\n";
        Files.write(folder.resolve("database_description/drinks.csv"), csv.getBytes(Charset.forName("windows-1252")));
        SqliteSchemaCatalog bird = new SqliteSchemaCatalog(new DatabaseLocator(List.of(root), List.of()));
        DatabaseSchema schema = bird.schema("cafe");
        ColumnSchema name = column(schema, "drinks", "nm");
        assertThat(name.description()).isEqualTo("name; name of the drink, as on the menu; values: e.g. Café au lait");
        assertThat(name.nullable()).isFalse();
        assertThat(name.valueExamples()).containsExactly("Tea", "Café au lait");
        assertThat(column(schema, "drinks", "price").description()).isEqualTo("price in euros");
        assertThat(column(schema, "drinks", "price").nullable()).isTrue();
        assertThat(schema.table("drinks").orElseThrow().primaryKey()).containsExactly("drink_id");
        assertThat(name.description().toLowerCase(Locale.ROOT)).doesNotContain("\uFFFD");
    }
}
