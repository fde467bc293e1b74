package io.flowsql.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a reply schema into a GBNF grammar (llama.cpp's {@code grammar} field) for servers that take
 * grammars but not JSON Schema. Covers what reply schemas use: objects (every property, in order),
 * arrays with minItems/maxItems, strings with enum/const, min/maxLength or an anchored pattern (literals,
 * groups, alternatives, character classes, quantifiers), booleans, integers, numbers, anyOf/oneOf and
 * {@code $ref} into {@code #/$defs}.
 */
final class SchemaGrammar {
    private final List<String> rules = new ArrayList<>();
    private final JsonNode root;
    private int counter;

    private SchemaGrammar(JsonNode root) {
        this.root = root;
    }

    static String of(JsonNode schema) {
        SchemaGrammar grammar = new SchemaGrammar(schema);
        String root = grammar.visit(schema);
        StringBuilder out = new StringBuilder("root ::= ").append(root).append('\n');
        grammar.rules.forEach(rule -> out.append(rule).append('\n'));
        out.append("ws ::= [ ]?\n");
        out.append("char ::= [^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" [0-9a-fA-F]{4})\n");
        return out.toString();
    }

    private String visit(JsonNode schema) {
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            if (!ref.startsWith("#/")) {
                throw new IllegalArgumentException("only local $ref (#/...) is supported: " + ref);
            }
            return visit(root.at(ref.substring(1)));
        }
        JsonNode alternatives = schema.has("anyOf") ? schema.get("anyOf") : schema.get("oneOf");
        if (alternatives != null) {
            List<String> options = new ArrayList<>();
            alternatives.forEach(alternative -> options.add(visit(alternative)));
            return rule("(" + String.join(" | ", options) + ")");
        }
        if (schema.has("const")) {
            return literal(schema.get("const").toString());
        }
        if (schema.has("enum")) {
            List<String> options = new ArrayList<>();
            schema.get("enum").forEach(value -> options.add(literal(value.toString())));
            return rule("(" + String.join(" | ", options) + ")");
        }
        String type = schema.path("type").asText("string");
        return switch (type) {
            case "object" -> object(schema);
            case "array" -> array(schema);
            case "boolean" -> "(\"true\" | \"false\")";
            case "integer" -> "(\"-\"? [0-9]{1,15})";
            case "number" -> "(\"-\"? [0-9]{1,15} (\".\" [0-9]{1,15})?)";
            default -> string(schema);
        };
    }

    private String object(JsonNode schema) {
        StringBuilder body = new StringBuilder("\"{\" ws");
        boolean first = true;
        for (var property : schema.path("properties").properties()) {
            if (!first) {
                body.append(" \",\" ws");
            }
            first = false;
            body.append(' ').append(literal(quoted(property.getKey()))).append(" ws \":\" ws ")
                    .append(visit(property.getValue())).append(" ws");
        }
        return rule(body.append(" \"}\"").toString());
    }

    private String array(JsonNode schema) {
        String item = visit(schema.path("items"));
        int min = schema.path("minItems").asInt(0);
        int max = schema.path("maxItems").asInt(-1);
        if (max == 0) {
            return "(\"[\" ws \"]\")";
        }
        String rest = "(\",\" ws " + item + ")" + (max < 0 ? (min > 1 ? "{" + (min - 1) + ",}" : "*")
                : "{" + Math.max(0, min - 1) + "," + Math.max(0, max - 1) + "}");
        String items = item + " ws " + rest;
        return rule("\"[\" ws " + (min == 0 ? "(" + items + ")?" : items) + " ws \"]\"");
    }

    private String string(JsonNode schema) {
        if (schema.has("pattern")) {
            return rule("\"\\\"\" " + pattern(schema.get("pattern").asText()) + " \"\\\"\"");
        }
        int min = schema.path("minLength").asInt(0);
        int max = schema.path("maxLength").asInt(-1);
        if (max == 0) {
            return "(\"\\\"\\\"\")";
        }
        String repeat = max < 0 ? (min > 0 ? "{" + min + ",}" : "*") : "{" + min + "," + max + "}";
        return rule("\"\\\"\" char" + repeat + " \"\\\"\"");
    }

    /** An anchored regular expression as a GBNF sequence; classes and quantifiers carry over as written. */
    static String pattern(String regex) {
        if (!regex.startsWith("^") || !regex.endsWith("$")) {
            throw new IllegalArgumentException("a reply schema pattern must be anchored with ^ and $: " + regex);
        }
        String body = regex.substring(1, regex.length() - 1);
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c == '[') {
                int end = i + 1;
                while (end < body.length() && body.charAt(end) != ']') {
                    end += body.charAt(end) == '\\' ? 2 : 1;
                }
                out.append(body, i, end + 1).append(' ');
                i = end + 1;
            } else if (c == '{') {
                int end = body.indexOf('}', i);
                out.setLength(Math.max(0, out.length() - 1));
                out.append(body, i, end + 1).append(' ');
                i = end + 1;
            } else if (c == '*' || c == '+' || c == '?') {
                out.setLength(Math.max(0, out.length() - 1));
                out.append(c).append(' ');
                i++;
            } else if (c == '(') {
                out.append("( ");
                i += body.startsWith("?:", i + 1) ? 3 : 1;
            } else if (c == ')' || c == '|') {
                out.append(c).append(' ');
                i++;
            } else {
                char lit = c == '\\' ? body.charAt(++i) : c;
                out.append(literal(String.valueOf(lit))).append(' ');
                i++;
            }
        }
        return "(" + out.toString().trim() + ")";
    }

    private String rule(String body) {
        String name = "r" + (counter++);
        rules.add(name + " ::= " + body);
        return name;
    }

    private static String quoted(String key) {
        return "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A GBNF string literal matching {@code text} exactly. */
    private static String literal(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
