package dev.tollgate.simulator.audit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.ManifestReport;
import dev.tollgate.simulator.ReviewSettings;
import dev.tollgate.simulator.Simulator;

/**
 * Streams the planned resources through the simulator: one page at a time from the API server, each object reviewed
 * as the request its next change would be (UPDATE with itself as oldObject, or CREATE), by a fixed number of worker
 * threads with a bounded number of objects in flight, so memory holds one page plus what is being reviewed whatever
 * the size of the cluster.
 */
public final class Auditor {

    /**
     * @param namespaces the namespaces to audit, empty for all
     * @param pageSize   objects per list request (client-go's pager and kubectl ask for 500)
     */
    public record Options(Operation operation, List<String> namespaces, String labelSelector, long pageSize,
            int concurrency, String user, List<String> groups) {

        public Options {
            namespaces = List.copyOf(namespaces);
            groups = List.copyOf(groups);
        }
    }

    private final Cluster cluster;
    private final Simulator simulator;
    private final Options options;
    private final Progress progress;

    public Auditor(Cluster cluster, Simulator simulator, Options options, Progress progress) {
        this.cluster = cluster;
        this.simulator = simulator;
        this.options = options;
        this.progress = progress;
    }

    /** Scopes to list one resource in: every namespace at once, or each chosen namespace. */
    private List<String> scopes(ServedResource r) {
        if (!r.namespaced() || options.namespaces().isEmpty()) {
            return java.util.Collections.singletonList(null);
        }
        return options.namespaces();
    }

    /**
     * Runs the plan; the cluster's namespaces (by name) give namespaceSelector and namespaceObject what the API
     * server would see. Fails with a {@link ClusterException} when a list fails.
     */
    public void run(AuditPlan plan, Map<String, InputManifest> namespaces, AuditResults results) {
        // A first page of one object per list: fails fast on a forbidden list, and its remainingItemCount gives the
        // total for the progress line.
        for (AuditPlan.Target t : plan.targets()) {
            for (String scope : scopes(t.resource())) {
                Cluster.Page first = cluster.list(t.resource(), scope, options.labelSelector(), 1, null);
                boolean complete = first.continueToken() == null || first.continueToken().isEmpty();
                progress.expect(complete ? Long.valueOf(first.items().size())
                        : first.remainingItemCount() == null ? null : first.items().size() + first.remainingItemCount());
            }
        }
        ExecutorService workers = Executors.newFixedThreadPool(options.concurrency(), r -> {
            Thread t = new Thread(r, "audit-worker");
            t.setDaemon(true);
            return t;
        });
        Semaphore inFlight = new Semaphore(options.concurrency() * 4);
        progress.start();
        try {
            for (AuditPlan.Target t : plan.targets()) {
                for (String scope : scopes(t.resource())) {
                    stream(t.resource(), scope, namespaces, results, workers, inFlight);
                }
            }
            workers.shutdown();
            while (!workers.awaitTermination(1, TimeUnit.SECONDS)) {
                // reviews of the last page still running
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted", e);
        } finally {
            workers.shutdownNow();
        }
    }

    private void stream(ServedResource r, String scope, Map<String, InputManifest> namespaces, AuditResults results,
            ExecutorService workers, Semaphore inFlight) throws InterruptedException {
        progress.listing(r + (scope == null ? "" : " in " + scope));
        String token = null;
        String lastKey = null;
        String skipThrough = null;
        while (true) {
            Cluster.Page page;
            try {
                page = cluster.list(r, scope, options.labelSelector(), options.pageSize(), token);
            } catch (Cluster.ContinueExpired e) {
                // As client-go's pager falls back to a full list: start again, and skip what was reviewed (lists
                // come sorted by namespace/name, the order of the keys in etcd).
                results.note("the list of " + r + " expired after " + lastKey + " (HTTP 410); listed again from the "
                        + "start, skipping what was already reviewed");
                token = null;
                skipThrough = lastKey;
                continue;
            }
            for (ObjectNode object : page.items()) {
                String key = key(object);
                if (skipThrough != null && key.compareTo(skipThrough) <= 0) {
                    continue;
                }
                lastKey = key;
                inFlight.acquire();
                workers.execute(() -> {
                    try {
                        review(r, object, namespaces, results);
                    } finally {
                        progress.done();
                        inFlight.release();
                    }
                });
            }
            token = page.continueToken();
            if (token == null || token.isEmpty()) {
                return;
            }
        }
    }

    private void review(ServedResource r, ObjectNode object, Map<String, InputManifest> namespaces,
            AuditResults results) {
        String ns = r.namespaced() ? object.path("metadata").path("namespace").asText("") : "";
        InputManifest manifest = new InputManifest(source(r, object), object);
        InputManifest namespace = ns.isEmpty() ? null : namespaces.get(ns);
        List<InputManifest> nsList = namespace == null ? List.of() : List.of(namespace);
        try {
            ReviewSettings settings = new ReviewSettings(options.operation(),
                    options.operation() == Operation.UPDATE ? List.of(manifest) : List.of(), nsList, options.user(),
                    options.groups(), false, ns.isEmpty() ? "default" : ns);
            ManifestReport report = simulator.review(manifest, settings, r.info());
            results.add(r, object.path("metadata").path("uid").asText(""), report);
        } catch (RuntimeException e) {
            results.unreviewed(manifest.source() + ": " + e.getMessage());
        }
    }

    /** The object's path in the API, e.g. {@code /apis/apps/v1/namespaces/shop/deployments/web}. */
    static String source(ServedResource r, ObjectNode object) {
        String ns = object.path("metadata").path("namespace").asText("");
        return (r.group().isEmpty() ? "/api/" : "/apis/" + r.group() + "/") + r.version()
                + (r.namespaced() && !ns.isEmpty() ? "/namespaces/" + ns : "") + "/" + r.resource() + "/"
                + object.path("metadata").path("name").asText("");
    }

    private static String key(ObjectNode object) {
        String ns = object.path("metadata").path("namespace").asText("");
        String name = object.path("metadata").path("name").asText("");
        return ns.isEmpty() ? name : ns + "/" + name;
    }
}
