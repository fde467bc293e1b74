package io.flowsql.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a shell block into simple commands (words after quote removal), enough for the README's blocks: quotes,
 * backslash continuations, comments, {@code ; & && || |} and the keywords of loops and conditions. It runs nothing.
 */
final class ShellCommands {

    private static final Set<String> LEADING_KEYWORDS = Set.of("until", "while", "if", "then", "do", "else", "elif", "!", "time");
    private static final Set<String> ALONE_KEYWORDS = Set.of("done", "fi", "}", "{");

    private ShellCommands() {}

    static List<List<String>> of(String block) {
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        String text = block.replace("\\\n", " ");
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                int end = text.indexOf(c, i + 1);
                if (end < 0) throw new IllegalArgumentException("unclosed quote: " + text.substring(i));
                if (word == null) word = new StringBuilder();
                word.append(text, i + 1, end);
                i = end + 1;
            } else if (c == '\\' && i + 1 < text.length()) {
                if (word == null) word = new StringBuilder();
                word.append(text.charAt(i + 1));
                i += 2;
            } else if (c == '#' && word == null) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? text.length() : end;
            } else if ((c == ';' || c == '&' || c == '|' || c == '\n') && !(c == '&' && i > 0 && text.charAt(i - 1) == '>')) {
                if (word != null) words.add(word.toString());
                word = null;
                add(commands, words);
                words = new ArrayList<>();
                i++;
            } else if (Character.isWhitespace(c)) {
                if (word != null) words.add(word.toString());
                word = null;
                i++;
            } else {
                if (word == null) word = new StringBuilder();
                word.append(c);
                i++;
            }
        }
        if (word != null) words.add(word.toString());
        add(commands, words);
        return commands;
    }

    private static void add(List<List<String>> commands, List<String> words) {
        int start = 0;
        while (start < words.size() && LEADING_KEYWORDS.contains(words.get(start))) start++;
        List<String> command = words.subList(start, words.size());
        if (command.isEmpty() || (command.size() == 1 && ALONE_KEYWORDS.contains(command.get(0)))) return;
        commands.add(List.copyOf(command));
    }
}
