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
    /** Sessions kept at most; past that, the one idle longest is dropped if idle long enough, else none is made. */
    static final int MAX_SESSIONS = 1_000;
    /** A session idle this long may be dropped to make room for a new one; a newer one never is. */
    static final Duration EVICTABLE_AFTER = Duration.ofMinutes(1);

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> byId = new ConcurrentHashMap<>();
    private final Map<String, Session> byDialogue = new ConcurrentHashMap<>();
    private final Duration idle;

    Sessions(Duration idle) {
        this.idle = idle;
    }

    /** A new session with an unguessable id; refused (429) when all {@link #MAX_SESSIONS} were used in the last minute. */
    Session create() {
        return create(null);
    }

    /** A new session of {@code tenant} (null: none). */
    Session create(String tenant) {
        evictIdle();
        if (byId.size() >= MAX_SESSIONS) {
            throw new HttpIo.Refused(429, "the console holds " + MAX_SESSIONS + " sessions, all in use; try again shortly",
                    (int) EVICTABLE_AFTER.toSeconds());
        }
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

    /**
     * Binds a dialogue the session starts, so what the job writes for it is routed back to that session; a session at
     * {@link Session#MAX_DIALOGUES} forgets the dialogue it used longest ago, so it is never stuck.
     */
    void startDialogue(Session session, String dialogueId, String dbId) {
        String forgotten = session.startDialogue(dialogueId, dbId);
        if (forgotten != null) {
            byDialogue.remove(forgotten, session);
        }
        byDialogue.put(dialogueId, session);
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
        if (byId.size() >= MAX_SESSIONS) {
            byId.values().stream().min((a, b) -> Long.compare(a.lastSeenNanos(), b.lastSeenNanos()))
                    .filter(s -> now - s.lastSeenNanos() > EVICTABLE_AFTER.toNanos())
                    .ifPresent(s -> byId.remove(s.id()));
        }
        byDialogue.values().removeIf(s -> !byId.containsKey(s.id()));
    }
}
