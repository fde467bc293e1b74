package io.flowsql.console;

import com.sun.net.httpserver.HttpExchange;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Who may talk to the console. Bound to loopback (the default) it answers only requests whose Host is a loopback
 * name (so a web page elsewhere cannot reach it by DNS rebinding); bound elsewhere it needs a bearer token, given as
 * an {@code Authorization: Bearer} header or once as {@code /?token=...}, which sets an HttpOnly cookie. Every request
 * that changes something must carry the header {@code X-FlowSQL-Console: 1}, which a cross-site form cannot send, and
 * must not come from another origin as the browser names it ({@code Origin}, {@code Sec-Fetch-Site}).
 * With tenant tokens (one per tenant, when the job has access policies) the token is required on loopback too, and
 * says which tenant the caller is: {@link #check} returns it, and the console speaks for that tenant only.
 */
final class Access {
    static final String TOKEN_COOKIE = "flowsql_console_token";
    static final String CSRF_HEADER = "X-FlowSQL-Console";
    private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]");

    /** No tenant (the console's single token, or none). */
    private static final String NO_TENANT = "";

    /** The tenant of each accepted token ({@link #NO_TENANT} for the single token); empty: no token needed. */
    private final Map<String, String> tenantByToken;
    private final boolean loopbackOnly;

    Access(String token, boolean loopbackOnly) {
        this(token == null ? Map.of() : Map.of(token, NO_TENANT), loopbackOnly);
    }

    /** @param tenantByToken each token the console accepts and the tenant it speaks for */
    Access(Map<String, String> tenantByToken, boolean loopbackOnly) {
        this.tenantByToken = Map.copyOf(tenantByToken);
        this.loopbackOnly = loopbackOnly;
    }

    /**
     * Refuses the request (throws {@link HttpIo.Refused}) unless its host, token and, for a POST, its header are right;
     * returns the caller's tenant (null: none).
     */
    String check(HttpExchange exchange) {
        if (loopbackOnly && !loopbackHost(exchange.getRequestHeaders().getFirst("Host"))) {
            throw new HttpIo.Refused(403, "the console answers loopback host names only");
        }
        String token = null;
        if (!tenantByToken.isEmpty()) {
            token = tokenGiven(exchange);
            if (token == null) {
                throw new HttpIo.Refused(401, "a bearer token is required (open /?token=... once, or send Authorization: Bearer ...)");
            }
        }
        if ("POST".equals(exchange.getRequestMethod()) && !"1".equals(exchange.getRequestHeaders().getFirst(CSRF_HEADER))) {
            throw new HttpIo.Refused(403, "missing header " + CSRF_HEADER);
        }
        if ("POST".equals(exchange.getRequestMethod()) && !sameOrigin(exchange.getRequestHeaders())) {
            throw new HttpIo.Refused(403, "a request from another origin may change nothing here");
        }
        String tenant = token == null ? NO_TENANT : tenantByToken.get(token);
        return tenant.isEmpty() ? null : tenant;
    }

    /**
     * True unless the browser says the request comes from another site: an {@code Origin} that is not this console's
     * own (http or https, same host and port as {@code Host}), or {@code Sec-Fetch-Site: cross-site}. A client that
     * sends neither (curl, the CLI) is judged by the token and the header alone.
     */
    static boolean sameOrigin(com.sun.net.httpserver.Headers headers) {
        String site = headers.getFirst("Sec-Fetch-Site");
        if (site != null && site.trim().equalsIgnoreCase("cross-site")) {
            return false;
        }
        String origin = headers.getFirst("Origin");
        if (origin == null) {
            return true;
        }
        String host = headers.getFirst("Host");
        String o = origin.trim().toLowerCase(Locale.ROOT);
        return host != null && (o.equals("http://" + host.toLowerCase(Locale.ROOT)) || o.equals("https://" + host.toLowerCase(Locale.ROOT)));
    }

    /** The token the query string carries when it is an accepted one (the page's first visit with {@code ?token=}), else null. */
    String tokenInQuery(URI uri) {
        String query = uri.getRawQuery();
        if (tenantByToken.isEmpty() || query == null) {
            return null;
        }
        for (String part : query.split("&")) {
            if (part.startsWith("token=")) {
                String known = known(java.net.URLDecoder.decode(part.substring(6), StandardCharsets.UTF_8));
                if (known != null) {
                    return known;
                }
            }
        }
        return null;
    }

    /** The accepted token the request carries (header, cookie or query), else null. */
    private String tokenGiven(HttpExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String known = known(auth.substring(7).trim());
            if (known != null) {
                return known;
            }
        }
        String cookie = HttpIo.cookie(exchange, TOKEN_COOKIE).map(this::known).orElse(null);
        return cookie != null ? cookie : tokenInQuery(exchange.getRequestURI());
    }

    /** The accepted token equal to {@code given} (compared in constant time against each), else null. */
    private String known(String given) {
        byte[] bytes = given.getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (String token : tenantByToken.keySet()) {
            if (MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), bytes)) {
                found = token;
            }
        }
        return found;
    }

    static boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        if (colon > h.lastIndexOf(']')) {
            h = h.substring(0, colon);
        }
        return LOOPBACK_HOSTS.contains(h);
    }
}
