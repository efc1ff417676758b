package dev.tollgate.simulator.replay;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The objects as stored, as far as the log has shown them (the {@code responseObject} of a RequestResponse event),
 * for the UPDATE and DELETE events after them. Bounded: the least recently used object leaves when more than
 * {@code capacity} are held, so a log of any size replays in bounded memory; an UPDATE of an object that left is not
 * replayed, and the report says why.
 */
public final class ObjectCache {

    /** The default bound: objects kept for later UPDATE and DELETE events. */
    public static final int DEFAULT_CAPACITY = 10_000;

    private final int capacity;
    private final LinkedHashMap<String, ObjectNode> objects;
    private long evicted;

    public ObjectCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        // Access order: a get refreshes the entry, so objects changed often stay.
        this.objects = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ObjectNode> eldest) {
                if (size() > ObjectCache.this.capacity) {
                    evicted++;
                    return true;
                }
                return false;
            }
        };
    }

    /** The key of an object: resource and group, namespace, name (apiVersion aside: one stored object per name). */
    public static String key(String group, String resource, String namespace, String name) {
        return resource + "." + group + "/" + namespace + "/" + name;
    }

    public ObjectNode get(String key) {
        return objects.get(key);
    }

    public void put(String key, ObjectNode object) {
        objects.put(key, object);
    }

    public void remove(String key) {
        objects.remove(key);
    }

    public int size() {
        return objects.size();
    }

    public int capacity() {
        return capacity;
    }

    /** How many objects left the cache to keep it within its capacity. */
    public long evicted() {
        return evicted;
    }
}
