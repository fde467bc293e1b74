package io.flowsql.flink;

import java.io.Serializable;
import java.util.List;

/**
 * Shipped with every stage operator so it can build its stage where it runs (engines are not
 * serializable): the canonical plan is known on the client, the stages themselves only in open().
 */
public interface StageBinding extends Serializable {

    /** Every stage of the canonical order, in order, with its kind. */
    List<StagePlan> plan();

    /** The strategy a request without its own uses. */
    String defaultStrategy();

    /** Builds (or joins) the stages in this JVM; the caller closes what it gets. */
    BoundStages bind() throws Exception;
}
