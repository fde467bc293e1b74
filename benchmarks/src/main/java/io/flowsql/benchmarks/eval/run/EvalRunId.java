package io.flowsql.benchmarks.eval.run;

import io.flowsql.benchmarks.eval.score.RequestIds;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which run an {@code eval run} is: a fresh run id unless the user names one; resuming is naming the run id of
 * the answers file explicitly. An answers file never mixes runs: a file that holds another run's answers is refused
 * with what to do instead.
 */
public final class EvalRunId {
    private EvalRunId() {}

    /**
     * @param requested the {@code --run-id} given, or null
     * @param answers   the answers file the run appends to
     * @return the run id to send questions under
     */
    public static String choose(String requested, Path answers) {
        Set<String> present = new TreeSet<>();
        for (String requestId : AnswersFile.answeredRequestIds(answers)) {
            String run = RequestIds.runId(requestId);
            present.add(run == null ? "(no run id: " + requestId + ")" : run);
        }
        if (requested != null) {
            RequestIds.checkRunId(requested);
            present.remove(requested);
            if (!present.isEmpty()) {
                throw new IllegalArgumentException(answers + " holds answers of another run " + present
                        + ": give run " + requested + " its own --answers file");
            }
            return requested;
        }
        if (!present.isEmpty()) {
            throw new IllegalArgumentException(answers + " already holds answers of run " + present
                    + ": pass --run-id " + present.iterator().next() + " to resume that run, or a fresh --answers file");
        }
        return RequestIds.newRunId();
    }
}
