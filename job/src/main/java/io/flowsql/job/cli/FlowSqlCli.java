package io.flowsql.job.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The project's own Kafka client for people: send questions, watch answers. */
@Command(name = "flowsql", mixinStandardHelpOptions = true, subcommands = {AskCommand.class, WatchCommand.class, FeedbackCommand.class, CaughtUpCommand.class, KnowledgeCommand.class},
        description = "Send questions and feedback to FlowSQL and watch its answers.")
public final class FlowSqlCli implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new FlowSqlCli()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
