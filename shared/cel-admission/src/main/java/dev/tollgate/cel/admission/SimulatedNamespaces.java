package dev.tollgate.cel.admission;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The namespaces a simulator (shared/simulator-core) gives the reviews it makes of functions served in the same
 * process, by review uid: a CEL function then sees the Namespace objects the simulator matched the webhooks with
 * (from {@code --namespaces}, the audit log being replayed, or a cluster), not only those of its own configuration,
 * so both sides of a replay agree (issue 45). A name the simulator does not know goes to the function's own source.
 * A deployed function never registers anything: every review then gets its own cluster's namespaces, and the lookup
 * costs one check of an empty map.
 */
public final class SimulatedNamespaces {

    private static final Map<String, Function<String, ObjectNode>> BY_UID = new ConcurrentHashMap<>();

    private SimulatedNamespaces() {
    }

    /** Until closed, reviews with this uid see {@code lookup}'s Namespace objects first (null: not known to it). */
    public static Registration register(String uid, Function<String, ObjectNode> lookup) {
        BY_UID.put(uid, lookup);
        return () -> BY_UID.remove(uid);
    }

    /** What a review of this uid sees: the simulator's namespaces first when it registered some, else {@code own}. */
    public static Namespaces forReview(String uid, Namespaces own) {
        if (BY_UID.isEmpty() || uid == null) {
            return own;
        }
        Function<String, ObjectNode> lookup = BY_UID.get(uid);
        return lookup == null ? own : own.withFirst(lookup);
    }

    /** Ends a registration. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
