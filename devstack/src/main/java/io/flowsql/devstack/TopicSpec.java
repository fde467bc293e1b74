package io.flowsql.devstack;

/** A topic to create: name and partition count (replication is the broker's default: 1 on the single node, 3 on the cluster). */
public record TopicSpec(String name, int partitions) {
    public TopicSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + name + " needs at least one partition, got " + partitions);
        }
    }

    /** Parses "name" or "name:partitions". */
    public static TopicSpec parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            return new TopicSpec(text.trim(), 1);
        }
        return new TopicSpec(text.substring(0, colon).trim(), Integer.parseInt(text.substring(colon + 1).trim()));
    }
}
