package dev.tollgate.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

class ObjectCacheTest {

    private static ObjectNode object(String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.putObject("metadata").put("name", name);
        return o;
    }

    @Test
    void holdsAtMostItsCapacityDroppingTheLeastRecentlyUsed() {
        ObjectCache cache = new ObjectCache(2);
        cache.put("a", object("a"));
        cache.put("b", object("b"));
        assertNotNull(cache.get("a")); // a is now more recent than b
        cache.put("c", object("c"));
        assertEquals(2, cache.size());
        assertNull(cache.get("b"), "the least recently used left");
        assertNotNull(cache.get("a"));
        assertNotNull(cache.get("c"));
        assertEquals(1, cache.evicted());
    }

    @Test
    void aNewerObjectReplacesTheOldAndRemoveForgetsIt() {
        ObjectCache cache = new ObjectCache(ObjectCache.DEFAULT_CAPACITY);
        String key = ObjectCache.key("apps", "deployments", "shop", "web");
        assertEquals("deployments.apps/shop/web", key);
        cache.put(key, object("v1"));
        cache.put(key, object("v2"));
        assertEquals("v2", cache.get(key).path("metadata").path("name").asText());
        assertEquals(1, cache.size());
        cache.remove(key);
        assertNull(cache.get(key));
        assertEquals(0, cache.evicted());
        assertEquals(10_000, cache.capacity());
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ObjectCache(0));
    }
}
