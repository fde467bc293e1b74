package io.flowsql.console;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The browser sessions (random 128-bit ids held in an HttpOnly cookie) and which session asked each request in flight,
 * so an answer or dead letter read from Kafka reaches the session that started its dialogue and no other.
 */
final class Sessions {
    /** Sessions kept at most; past that, the one idle longest is dropped. */
    static final int MAX_SESSIONS = 1_000;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> byId = new ConcurrentHashMap<>();
    private final Map<String, Session> byDialogue = new ConcurrentHashMap<>();
    private final Duration idle;

    Sessions(Duration idle) {
        this.idle = idle;
    }

    /** A new session with an unguessable id. */
    Session create() {
        return create(null);
    }

    /** A new session of {@code tenant} (null: none). */
    Session create(String tenant) {
        evictIdle();
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        Session session = new Session(HexFormat.of().formatHex(bytes), tenant);
        byId.put(session.id(), session);
        return session;
    }

    Optional<Session> find(String id) {
        Session s = id == null ? null : byId.get(id);
        if (s != null) {
            s.touch();
        }
        return Optional.ofNullable(s);
    }

    /** Binds a dialogue the session starts, so what the job writes for it is routed back to that session. */
    boolean startDialogue(Session session, String dialogueId, String dbId) {
        if (!session.startDialogue(dialogueId, dbId)) {
            return false;
        }
        byDialogue.put(dialogueId, session);
        return true;
    }

    /** The session that started this dialogue, if it is still kept. */
    Optional<Session> ownerOf(String dialogueId) {
        return Optional.ofNullable(dialogueId == null ? null : byDialogue.get(dialogueId));
    }

    int size() {
        return byId.size();
    }

    private void evictIdle() {
        long now = System.nanoTime();
        byId.values().removeIf(s -> now - s.lastSeenNanos() > idle.toNanos());
        while (byId.size() >= MAX_SESSIONS) {
            byId.values().stream().min((a, b) -> Long.compare(a.lastSeenNanos(), b.lastSeenNanos()))
                    .ifPresent(s -> byId.remove(s.id()));
        }
        byDialogue.values().removeIf(s -> !byId.containsKey(s.id()));
    }
}
