package io.flowsql.simulator;

import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import java.util.Optional;
import java.util.Random;

/**
 * What a responder may draw on besides the request: a random source derived from the server's seed
 * (so a run is repeatable), the gold-SQL oracle when one was loaded, and the error injector.
 */
public record SimulationContext(Random random, Optional<GoldSqlOracle> oracle, SqlErrorInjector errorInjector) {}
