package io.flowsql.sql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.exec.EngineStatementGuard;
import io.flowsql.sql.exec.GuardVerdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MariaDB's profile without a server: the lexer reads {@code --}, {@code #}, backticks and backslash escapes as MariaDB
 * does, and the guard takes ordinary MariaDB SQL while refusing what only MariaDB would run (executable comments,
 * variables, its file, sleep and lock functions). The same statements against a real server: the every-engine tests.
 */
class MariaDbProfileTest {

    private final EngineStatementGuard guard = new EngineStatementGuard();

    private GuardVerdict check(String sql) {
        return guard.check(DatabaseEngine.MARIADB, sql, StatementBudget.startingNow(5_000));
    }

    @Test
    void dashDashIsACommentOnlyBeforeWhiteSpace() {
        SqlTokens.Tokens arithmetic = SqlTokens.lex("SELECT 2--1, load_file('x')", SqlTokens.Lexing.MYSQL);
        assertThat(arithmetic.comments()).isEmpty();
        assertThat(arithmetic.tokens().stream().map(SqlTokens.Token::text)).contains("load_file");
        SqlTokens.Tokens comment = SqlTokens.lex("SELECT 2 -- 1, load_file('x')\n# more\n", SqlTokens.Lexing.MYSQL);
        assertThat(comment.comments()).hasSize(2);
        assertThat(comment.tokens().stream().map(SqlTokens.Token::text)).doesNotContain("load_file");
        SqlTokens.Tokens postgres = SqlTokens.lex("SELECT 2--1", SqlTokens.Lexing.POSTGRES);
        assertThat(postgres.comments()).containsExactly("1");
    }

    @Test
    void aBackslashEscapesInsideMariaDbStrings() {
        List<SqlTokens.Token> tokens = SqlTokens.lex("SELECT 'a\\' ; x' AS s, `na``me`", SqlTokens.Lexing.MYSQL).tokens();
        assertThat(tokens.get(1).kind()).isEqualTo(SqlTokens.Kind.STRING);
        assertThat(tokens.get(1).text()).isEqualTo("'a\\' ; x'");
        assertThat(tokens.stream().filter(t -> t.kind() == SqlTokens.Kind.SEMICOLON)).isEmpty();
        assertThat(tokens.get(tokens.size() - 1).kind()).isEqualTo(SqlTokens.Kind.QUOTED_NAME);
    }

    @Test
    void ordinaryMariaDbSqlIsAccepted() {
        for (String sql : List.of("SELECT id FROM grades WHERE grade = 'B'", "SELECT id FROM grades WHERE grade = \"B\"",
                "SELECT id FROM grades WHERE tags = 'a,b' # a comment", "SELECT `set`, `load`, cluster, import FROM grades",
                "SELECT id FROM grades WHERE id = 2--1", "SELECT CONCAT(name, ' ', country) FROM singer LIMIT 1, 2",
                "SELECT count(*) FROM singer WHERE name LIKE 'Plan B%' -- plan\n", "SELECT repeat('-', 20)")) {
            GuardVerdict v = check(sql);
            assertThat(v.accepted()).as(sql + " -> " + v.refusal()).isTrue();
        }
    }

    @Test
    void whatOnlyMariaDbWouldRunIsRefused() {
        for (String sql : List.of("SELECT 1 /*! , sleep(10) */", "SELECT 1 /*M!100000 , sleep(10) */", "SELECT @@version",
                "SELECT @a := 1", "SELECT 1 --1, load_file('/etc/passwd')", "SELECT sleep(10)", "SELECT `benchmark`(1e9, 1)",
                "SELECT get_lock('x', 1)", "SELECT * FROM singer INTO OUTFILE '/tmp/x'", "SELECT * FROM singer LOCK IN SHARE MODE",
                "SELECT 'a\\' ; DELETE FROM singer; -- '", "HANDLER singer OPEN", "SET STATEMENT max_statement_time=0 FOR SELECT 1",
                "SELECT length(repeat('x', 500000000))", "SELECT last_insert_id(1)")) {
            GuardVerdict v = check(sql);
            assertThat(v.accepted()).as(sql).isFalse();
        }
    }

    @Test
    void mysqlAndMariaDbNameTheEngine() {
        assertThat(DatabaseEngine.parse("mysql")).isEqualTo(DatabaseEngine.MARIADB);
        assertThat(DatabaseEngine.parse("jdbc:mariadb://h:3306/x")).isEqualTo(DatabaseEngine.MARIADB);
        assertThat(DatabaseEngine.MARIADB.profile().quoteName("a`b")).isEqualTo("`a``b`");
    }
}
