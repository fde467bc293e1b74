package io.flowsql.simulator.oracle;

import java.util.Optional;

/** SQL after error injection, with the kind of error put in (empty when it was left intact). */
public record InjectedSql(String sql, Optional<SqlErrorKind> error) {}
