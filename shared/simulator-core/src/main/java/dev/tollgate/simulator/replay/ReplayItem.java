package dev.tollgate.simulator.replay;

import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.ReviewSettings;

/** What one line of a log turned into. */
public sealed interface ReplayItem {

    /**
     * A request to replay.
     *
     * @param source   file:line
     * @param ref      the object, e.g. {@code Pod shop/web (CREATE)}
     * @param recorded the outcome the log recorded
     * @param function for a decision-log line, the one function it records (the comparison is that function's);
     *                 null for an audit event (every function)
     * @param namespacesFrom where the request's Namespace came from ({@link ReplayReader#FROM_GIVEN}, ...)
     * @param time     when the API server received it (an audit event's requestReceivedTimestamp), or null
     */
    record Request(String source, String ref, InputManifest manifest, ReviewSettings settings, Outcome recorded,
            String function, String namespacesFrom, java.time.Instant time) implements ReplayItem {
    }

    /** A write request that cannot be replayed, and why ({@code reason} is the category, {@code detail} the case). */
    record NotReplayed(String source, String reason, String detail) implements ReplayItem {
    }

    /** A line that is neither an audit event nor a decision-log line, or not JSON at all. */
    record Unreadable(String source, String why) implements ReplayItem {
    }

    /**
     * A line with nothing to replay and nothing to say: an audit event of another stage (each request is logged at
     * several), a read (get, list, watch), a non-resource request; a decision-log line of a conversion.
     */
    record Ignored() implements ReplayItem {
    }

    Ignored IGNORED = new Ignored();
}
