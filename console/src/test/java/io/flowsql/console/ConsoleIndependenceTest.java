package io.flowsql.console;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.flowsql.job.KafkaClientConstructionTest;
import io.flowsql.job.OptionRoomsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The console reads the job's options through the rooms (the config module) and runs without the Flink job module:
 * no main class of the console uses io.flowsql.job or declares an option key, and its pom names the job only for its
 * tests (which start it).
 */
class ConsoleIndependenceTest {
    @Test
    void noMainClassOfTheConsoleUsesTheJobModule() {
        JavaClasses console = KafkaClientConstructionTest.mainClassesOf(ConsoleServer.class);
        assertThat(console.contain(ConsoleSettings.class)).isTrue();
        noClasses().that().resideInAPackage("io.flowsql.console..")
                .should().dependOnClassesThat().resideInAPackage("io.flowsql.job..")
                .because("the console reads options through their rooms (io.flowsql.config, io.flowsql.rooms), not the job")
                .check(console);
        OptionRoomsTest.RULE.check(console);
    }

    @Test
    void thePomNamesTheJobModuleForTestsOnly() throws Exception {
        Path pom = Path.of("pom.xml");
        assertThat(Files.readString(pom)).contains("<artifactId>flowsql-console</artifactId>");
        NodeList dependencies = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
                .getElementsByTagName("dependency");
        int jobDependencies = 0;
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            if (text(dependency, "artifactId").equals("flowsql-job")) {
                jobDependencies++;
                assertThat(text(dependency, "scope")).as("the console's dependency on flowsql-job").isEqualTo("test");
            }
        }
        assertThat(jobDependencies).as("the tests start the job").isPositive();
    }

    private static String text(Element element, String tag) {
        NodeList nodes = element.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
    }
}
