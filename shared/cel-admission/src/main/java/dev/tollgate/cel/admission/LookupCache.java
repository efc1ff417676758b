package dev.tollgate.cel.admission;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What one cluster's API answered, kept for a short time: at most {@code maxEntries} keys (least recently used
 * dropped first), each for {@code ttl}; concurrent lookups of one key share one fetch, and a fetch that throws is
 * not kept, so the next lookup asks again. The namespace and param lookups of a cluster ({@link ClusterNamespaces},
 * {@link ClusterParams}) use it.
 */
final class LookupCache<K, V> {

    private record Cached<V>(V value, long expiresAt) {
    }

    private final Duration ttl;
    private final int maxEntries;
    private final LongSupplier clock;
    // Least recently used first; guarded by itself.
    private final LinkedHashMap<K, Cached<V>> cache = new LinkedHashMap<>(16, 0.75f, true);
    private final ConcurrentHashMap<K, CompletableFuture<V>> inFlight = new ConcurrentHashMap<>();

    LookupCache(Duration ttl, int maxEntries, LongSupplier clock) {
        this.ttl = ttl;
        this.maxEntries = maxEntries;
        this.clock = clock;
    }

    /**
     * The kept value of {@code key}, else {@code fetch}'s, shared with every lookup of that key while it runs.
     *
     * @throws RuntimeException what {@code fetch} threw (the same exception for every waiter)
     */
    V get(K key, Function<K, V> fetch) {
        long now = clock.getAsLong();
        synchronized (cache) {
            Cached<V> c = cache.get(key);
            if (c != null && c.expiresAt() - now > 0) {
                return c.value();
            }
        }
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> running = inFlight.putIfAbsent(key, mine);
        if (running == null) {
            try {
                V value = fetch.apply(key);
                remember(key, value);
                mine.complete(value);
            } catch (Throwable e) {
                mine.completeExceptionally(e); // never leave the waiters blocked
                if (e instanceof Error error) {
                    throw error;
                }
            } finally {
                inFlight.remove(key, mine);
            }
            running = mine;
        }
        try {
            return running.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private void remember(K key, V value) {
        synchronized (cache) {
            cache.put(key, new Cached<>(value, clock.getAsLong() + ttl.toNanos()));
            var oldest = cache.entrySet().iterator();
            while (cache.size() > maxEntries && oldest.hasNext()) {
                oldest.next();
                oldest.remove();
            }
        }
    }
}
