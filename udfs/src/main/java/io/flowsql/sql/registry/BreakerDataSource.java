package io.flowsql.sql.registry;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The data source a database's pool opens its physical connections from: each attempt that fails opens the database's
 * {@link LoginBreaker}, each that succeeds closes it.
 */
final class BreakerDataSource implements DataSource {

    private final String dbId;
    private final DataSource target;
    private final LoginBreaker breaker;

    BreakerDataSource(String dbId, DataSource target, LoginBreaker breaker) {
        this.dbId = dbId;
        this.target = target;
        this.breaker = breaker;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return opened(false, null, null);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return opened(true, username, password);
    }

    private Connection opened(boolean asUser, String username, String password) throws SQLException {
        try {
            Connection c = asUser ? target.getConnection(username, password) : target.getConnection();
            breaker.succeeded(dbId);
            return c;
        } catch (SQLException | RuntimeException e) {
            breaker.failed(dbId, e);
            throw e;
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : target.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || target.isWrapperFor(iface);
    }
}
