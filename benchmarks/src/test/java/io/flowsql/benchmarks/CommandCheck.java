package io.flowsql.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Checks one documented command against the repository without running it: the script exists and is executable; a
 * tool that is not a script is one the README names as a need; every environment variable set in front of it is read
 * by the script (or a script it calls); its subcommand exists; and each flag is one the script handles itself or the
 * Java command it hands its arguments to declares (picocli's own model of that command, so a renamed or removed flag
 * fails here).
 */
final class CommandCheck {

    /** Programs a README command may call that are not project scripts: the shell's own, and the named needs (JDK, Maven). */
    static final Set<String> NEEDS = Set.of("[[", "test", "sleep", "kill", "wait", "cd", "echo", "export", "true", "mvn", "java");

    private static final Pattern ENV = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=.*", Pattern.DOTALL);
    private static final Pattern MAIN_CLASS = Pattern.compile("io\\.flowsql(?:\\.[A-Za-z_][A-Za-z0-9_]*)+");
    private static final Pattern CASE_MAIN = Pattern.compile("(?m)^\\s*([\\w-]+(?:\\|[\\w-]+)*)\\)\\s*MAIN=([\\w.]+)");
    private static final Pattern SCRIPT_NAME = Pattern.compile("[\\w.-]+\\.sh");

    private final Path root;

    CommandCheck(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** What is wrong with the command (empty when nothing is). */
    List<String> problems(List<String> command) {
        List<String> env = new ArrayList<>();
        int i = 0;
        for (; i < command.size(); i++) {
            Matcher m = ENV.matcher(command.get(i));
            if (!m.matches()) break;
            env.add(m.group(1));
        }
        if (i == command.size()) return List.of();
        String program = command.get(i);
        List<String> args = command.subList(i + 1, command.size());
        if (!program.contains("/")) {
            return NEEDS.contains(program) ? List.of()
                    : List.of("`" + program + "` is neither a project script nor a need the README names (JDK, Maven, the shell)");
        }
        Path script = root.resolve(program).normalize();
        if (!script.startsWith(root) || !Files.isRegularFile(script)) return List.of("no script " + program);
        if (!Files.isExecutable(script)) return List.of(program + " is not executable");
        List<String> problems = new ArrayList<>();
        String own = read(script);
        String reach = reach(own);
        for (String name : env) {
            if (!mentions(reach, name)) problems.add(program + " reads no variable " + name);
        }
        checkArguments(program, own, reach, args, problems);
        return problems;
    }

    private void checkArguments(String program, String own, String reach, List<String> args, List<String> problems) {
        Map<String, String> cases = new LinkedHashMap<>();
        Matcher c = CASE_MAIN.matcher(own);
        while (c.find()) for (String label : c.group(1).split("\\|")) cases.put(label, c.group(2));
        List<Class<?>> delegates = new ArrayList<>();
        if (!cases.isEmpty()) {
            String sub = args.isEmpty() ? "" : args.get(0);
            if (!cases.containsKey(sub)) {
                problems.add(program + " has no subcommand " + sub + " (it has " + cases.keySet() + ")");
                return;
            }
            delegates.addAll(load(program, cases.get(sub), problems));
            args = args.subList(1, args.size());
        } else {
            Set<String> names = new LinkedHashSet<>();
            Matcher m = MAIN_CLASS.matcher(own);
            while (m.find()) names.add(m.group());
            for (String name : names) delegates.addAll(load(program, name, problems));
        }
        for (Class<?> delegate : delegates) {
            boolean direct = Pattern.compile(Pattern.quote(delegate.getName()) + "\\s+\"\\$@\"").matcher(own).find();
            if (direct && delegate.isAnnotationPresent(Command.class)) {
                checkPicocli(program, new CommandLine(delegate), args, problems);
                return;
            }
        }
        for (String arg : args) {
            String option = optionName(arg);
            if (option == null || mentionsFlag(reach, option)) continue;
            if (delegates.stream().noneMatch(d -> declares(d, option))) {
                problems.add(program + " takes no option " + option);
            }
        }
    }

    /** The script hands "$@" straight to this picocli command: its subcommands and options are the truth. */
    private static void checkPicocli(String program, CommandLine line, List<String> args, List<String> problems) {
        int i = 0;
        while (i < args.size() && line.getSubcommands().containsKey(args.get(i))) line = line.getSubcommands().get(args.get(i++));
        if (!line.getSubcommands().isEmpty() && i < args.size() && optionName(args.get(i)) == null) {
            problems.add(program + " has no subcommand " + args.get(i) + " (it has " + line.getSubcommands().keySet() + ")");
            return;
        }
        for (String arg : args.subList(i, args.size())) {
            String option = optionName(arg);
            if (option != null && line.getCommandSpec().findOption(option) == null) {
                problems.add(program + " " + line.getCommandName() + " takes no option " + option);
            }
        }
    }

    private boolean declares(Class<?> delegate, String option) {
        if (delegate.isAnnotationPresent(Command.class)) return declares(new CommandLine(delegate), option);
        return source(delegate).map(text -> text.contains("\"" + option + "\"")).orElse(false);
    }

    private static boolean declares(CommandLine line, String option) {
        if (line.getCommandSpec().findOption(option) != null) return true;
        return line.getSubcommands().values().stream().anyMatch(sub -> declares(sub, option));
    }

    /** {@code --name} of {@code --name=value}, {@code -D} of {@code -Dkey=value}; null for an argument that is not an option. */
    static String optionName(String arg) {
        if (arg.length() < 2 || arg.charAt(0) != '-' || Character.isDigit(arg.charAt(1))) return null;
        if (arg.startsWith("--")) {
            int eq = arg.indexOf('=');
            return eq < 0 ? arg : arg.substring(0, eq);
        }
        return arg.substring(0, 2);
    }

    /** The script's text with the text of every project script it names (lib.sh, the scripts it starts). */
    private String reach(String own) {
        StringBuilder text = new StringBuilder(own);
        Matcher m = SCRIPT_NAME.matcher(own);
        Set<String> seen = new LinkedHashSet<>();
        while (m.find()) {
            Path other = root.resolve("deploy").resolve(m.group());
            if (seen.add(m.group()) && Files.isRegularFile(other)) text.append('\n').append(read(other));
        }
        return text.toString();
    }

    private java.util.Optional<String> source(Class<?> type) {
        String relative = "src/main/java/" + type.getName().replace('.', '/') + ".java";
        try (Stream<Path> modules = Files.list(root)) {
            return modules.map(module -> module.resolve(relative)).filter(Files::isRegularFile).findFirst().map(CommandCheck::read);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Class<?>> load(String program, String name, List<String> problems) {
        try {
            return List.of(Class.forName(name, false, CommandCheck.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            problems.add(program + " starts " + name + ", which is no class of the project");
            return List.of();
        }
    }

    private static boolean mentions(String text, String word) {
        return Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(word) + "(?![A-Za-z0-9_])").matcher(text).find();
    }

    private static boolean mentionsFlag(String text, String flag) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(flag) + "(?![\\w-])").matcher(text).find();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
