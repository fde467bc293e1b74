package io.flowsql.access;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every node of a parsed statement of the given kinds, found by walking the syntax tree's fields rather than by a
 * visitor: {@link StatementReading} compares what its visitor reached with this, so a sub-query or a function that
 * JSqlParser's visitor skips (it skipped the index of {@code x[(SELECT ..)]}) refuses the statement instead of
 * passing unseen.
 */
final class AstNodes {
    private static final String AST = "net.sf.jsqlparser.";
    private static final String PARSER = "net.sf.jsqlparser.parser.";

    private AstNodes() {}

    /** The nodes under {@code root} (itself included) that are instances of one of {@code kinds}. */
    static Set<Object> of(Object root, List<Class<?>> kinds) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Object> found = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Object node = todo.pop();
            if (!seen.add(node)) {
                continue;
            }
            if (node instanceof Iterable<?> items) {
                items.forEach(item -> push(todo, item));
                continue;
            }
            if (node instanceof Map<?, ?> map) {
                map.values().forEach(item -> push(todo, item));
                continue;
            }
            if (node instanceof Object[] array) {
                for (Object item : array) {
                    push(todo, item);
                }
                continue;
            }
            for (Class<?> kind : kinds) {
                if (kind.isInstance(node)) {
                    found.add(node);
                }
            }
            for (Class<?> type = node.getClass(); type != null && type.getName().startsWith(AST); type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                        continue;
                    }
                    field.setAccessible(true);
                    try {
                        push(todo, field.get(node));
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return found;
    }

    private static void push(Deque<Object> todo, Object value) {
        if (value == null || value instanceof Enum<?>) {
            return;
        }
        String name = value.getClass().getName();
        boolean ast = name.startsWith(AST) && !name.startsWith(PARSER);
        if (ast || value instanceof Iterable<?> || value instanceof Map<?, ?> || value instanceof Object[]) {
            todo.push(value);
        }
    }
}
