package io.flowsql.flink;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.api.common.state.BroadcastState;

/**
 * Copies the entries a plain-Java book changed into the broadcast state that checkpoints it: an id the book still
 * holds is put, an id it dropped is removed. The live library and the knowledge book both keep their logic in plain
 * Java and use this to keep their state equal to it.
 */
final class BroadcastStateMirror {
    private BroadcastStateMirror() {
    }

    static <V> void mirror(BroadcastState<String, V> state, Set<String> changed, Function<String, Optional<V>> current)
            throws Exception {
        for (String id : changed) {
            Optional<V> now = current.apply(id);
            if (now.isPresent()) {
                state.put(id, now.get());
            } else {
                state.remove(id);
            }
        }
    }
}
