package io.flowsql.console;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Debian's headless chromium driven through Debian's chromium-driver (both installed by .ci/install-chromium.sh), one
 * browser profile per instance, so two instances are two people with sessions of their own.
 */
final class Browser implements AutoCloseable {
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String DRIVER = "/usr/bin/chromedriver";

    final ChromeDriver driver;

    Browser() throws Exception {
        if (!new File(CHROMIUM).canExecute() || !new File(DRIVER).canExecute()) {
            fail("Debian's chromium and chromium-driver are needed for this test: run .ci/install-chromium.sh");
        }
        Path profile = Files.createTempDirectory(Files.createDirectories(Path.of("target", "chromium")), "profile");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM).addArguments("--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1400", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile.toAbsolutePath());
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER))
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    /** Opens the console and waits until the page listed the databases and its event stream is open. */
    void open(String url) {
        driver.get(url);
        until(Duration.ofSeconds(30), d -> "yes".equals(body("data-ready")) && "yes".equals(body("data-live")));
    }

    String body(String attribute) {
        return driver.findElement(By.tagName("body")).getAttribute(attribute);
    }

    <T> T until(Duration within, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, within, Duration.ofMillis(100)).ignoring(StaleElementReferenceException.class)
                .until(condition::apply);
    }

    /** Adds a definition with the page's knowledge form (for the selected database); returns the id the page was given. */
    String addDefinition(String term, String definition) {
        driver.findElement(By.cssSelector("#knowledge summary")).click();
        driver.findElement(By.id("knowledge-term")).sendKeys(term);
        driver.findElement(By.id("knowledge-definition")).sendKeys(definition);
        driver.findElement(By.id("knowledge-add")).click();
        return until(Duration.ofSeconds(30), d -> {
            String sent = d.findElement(By.cssSelector("[data-testid=knowledge-status]")).getAttribute("data-knowledge-id");
            return sent == null || sent.isEmpty() ? null : sent;
        });
    }

    void ask(String db, String question) {
        if (db != null) {
            new Select(driver.findElement(By.id("db"))).selectByValue(db);
        }
        driver.findElement(By.id("question")).sendKeys(question);
        driver.findElement(By.id("ask")).click();
    }

    List<WebElement> turns() {
        return driver.findElements(By.cssSelector("[data-testid=turn]"));
    }

    /** Waits until the page shows {@code count} turns, the last one answered (whatever its status), and returns it. */
    WebElement answeredTurn(int count, Duration within) {
        return until(within, d -> {
            List<WebElement> turns = turns();
            if (turns.size() != count) {
                return null;
            }
            WebElement last = turns.get(count - 1);
            String status = last.findElement(By.cssSelector("[data-testid=status]")).getText();
            return status.startsWith("waiting") ? null : last;
        });
    }

    static List<List<String>> rows(WebElement table) {
        return table.findElements(By.cssSelector("tbody tr")).stream()
                .map(tr -> tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList()).toList();
    }

    /** A fetch made from the page (same cookies, same origin); returns "status body". */
    String fetchFromPage(String path, String jsonBody) {
        Object result = ((JavascriptExecutor) driver).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/json', 'X-FlowSQL-Console': '1'},"
                        + " body: arguments[1]}).then(r => r.text().then(t => done(r.status + ' ' + t)), e => done('error ' + e));",
                path, jsonBody);
        return String.valueOf(result);
    }

    Path screenshot(String name) throws Exception {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /** Console messages of level warning or worse the page logged. */
    List<String> consoleProblems() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue()).map(LogEntry::toString).toList();
    }

    void assertNoConsoleProblems() {
        assertThat(consoleProblems()).as("browser console").isEmpty();
    }

    @Override
    public void close() {
        driver.quit();
    }
}
