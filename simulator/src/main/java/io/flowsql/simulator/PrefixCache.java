package io.flowsql.simulator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model of an inference server's prefix cache (vLLM's automatic prefix caching, llama.cpp's
 * {@code cache_prompt}): the prompt, rendered as a chat template would, is cut into blocks of
 * {@link #BLOCK_TOKENS} tokens (four characters a token, like {@link TokenEstimate}); each block is keyed by a
 * hash of everything up to its end, so a block is reused only when the whole prompt before it is the same.
 * The cached part of a prompt is its longest run of leading blocks already seen; its blocks are then kept,
 * least recently used first out when more than the capacity is held.
 */
final class PrefixCache {
    static final int BLOCK_TOKENS = 16;
    private static final int BLOCK_CHARS = BLOCK_TOKENS * 4;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final int capacityBlocks;
    private final LinkedHashMap<Long, Boolean> blocks;

    /** @param capacityTokens tokens the cache holds; 0 turns it off (nothing is ever cached) */
    PrefixCache(int capacityTokens) {
        if (capacityTokens < 0) {
            throw new IllegalArgumentException("prefix cache capacity must be >= 0");
        }
        this.capacityBlocks = capacityTokens / BLOCK_TOKENS;
        this.blocks = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacityBlocks;
            }
        };
    }

    /** The prompt tokens of these messages found in the cache (a multiple of the block size); the prompt's blocks are cached afterwards. */
    int lookupAndAdd(List<SimulatedMessage> messages) {
        if (capacityBlocks == 0) {
            return 0;
        }
        long[] keys = blockKeys(messages);
        synchronized (blocks) {
            int hits = 0;
            while (hits < keys.length && blocks.get(keys[hits]) != null) {
                hits++;
            }
            for (int i = hits; i < keys.length; i++) {
                blocks.put(keys[i], Boolean.TRUE);
            }
            return hits * BLOCK_TOKENS;
        }
    }

    /** Hash of the rendered prompt up to the end of each full block (FNV-1a, carried across blocks). */
    private static long[] blockKeys(List<SimulatedMessage> messages) {
        int length = 0;
        for (SimulatedMessage m : messages) {
            length += m.role().length() + m.content().length() + 4;
        }
        long[] keys = new long[length / BLOCK_CHARS];
        long hash = FNV_OFFSET;
        int position = 0;
        int block = 0;
        for (SimulatedMessage m : messages) {
            String framed = "<|" + m.role() + "|>" + m.content() + "\n\n";
            for (int i = 0; i < framed.length() && block < keys.length; i++) {
                hash = (hash ^ framed.charAt(i)) * FNV_PRIME;
                if (++position % BLOCK_CHARS == 0) {
                    keys[block++] = hash;
                }
            }
        }
        return keys;
    }
}
