package dev.tollgate.admission;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of one JSON object in a review's tree, in insertion order, in one array of names and values while there
 * are few of them and in a {@link LinkedHashMap} beyond {@value #SMALL}. A Kubernetes object is mostly small objects (labels, a
 * container's resources, a port), and Jackson's default gives each a hash table of 16 slots and a 40-byte entry per
 * field: in a 4.8 KB Pod review that was a third of everything a review allocated, parsed and then copied for a
 * mutating policy. Looked up by scanning, names compared by reference first (Jackson interns the field names it
 * reads, and the policies' names are literals).
 */
final class CompactFields extends AbstractMap<String, JsonNode> {

    /** Above this many fields the object moves to a hash table: a scan would cost more than a hash from there. */
    static final int SMALL = 16;

    private static final Object[] NONE = {};

    /** Name, value, name, value...: one array (an empty object, frequent in managedFields, has none of its own). */
    private Object[] slots = NONE;
    private int size;
    /** The fields once there are more than {@value #SMALL} (the array is dropped then). */
    private LinkedHashMap<String, JsonNode> large;

    private String name(int i) {
        return (String) slots[2 * i];
    }

    private JsonNode value(int i) {
        return (JsonNode) slots[2 * i + 1];
    }

    private int indexOf(Object name) {
        for (int i = 0; i < size; i++) {
            if (slots[2 * i] == name) {
                return i;
            }
        }
        if (name != null) {
            for (int i = 0; i < size; i++) {
                if (name.equals(slots[2 * i])) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Override
    public int size() {
        return large != null ? large.size() : size;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public boolean containsKey(Object name) {
        return large != null ? large.containsKey(name) : indexOf(name) >= 0;
    }

    @Override
    public JsonNode get(Object name) {
        if (large != null) {
            return large.get(name);
        }
        int i = indexOf(name);
        return i < 0 ? null : value(i);
    }

    @Override
    public JsonNode put(String name, JsonNode value) {
        if (large != null) {
            return large.put(name, value);
        }
        int i = indexOf(name);
        if (i >= 0) {
            JsonNode old = value(i);
            slots[2 * i + 1] = value;
            return old;
        }
        if (size == SMALL) {
            large = new LinkedHashMap<>(SMALL * 4);
            for (int j = 0; j < size; j++) {
                large.put(name(j), value(j));
            }
            slots = NONE;
            size = 0;
            return large.put(name, value);
        }
        if (2 * size == slots.length) {
            slots = Arrays.copyOf(slots, size == 0 ? 8 : 4 * size);
        }
        slots[2 * size] = name;
        slots[2 * size + 1] = value;
        size++;
        return null;
    }

    @Override
    public JsonNode remove(Object name) {
        if (large != null) {
            return large.remove(name);
        }
        int i = indexOf(name);
        if (i < 0) {
            return null;
        }
        JsonNode old = value(i);
        removeAt(i);
        return old;
    }

    private void removeAt(int i) {
        System.arraycopy(slots, 2 * i + 2, slots, 2 * i, 2 * (size - i - 1));
        size--;
        slots[2 * size] = null;
        slots[2 * size + 1] = null;
    }

    @Override
    public void clear() {
        if (large != null) {
            large.clear();
            return;
        }
        Arrays.fill(slots, 0, 2 * size, null);
        size = 0;
    }

    /**
     * Map equality without an entry object per field (comparing a patch's arrays compares whole objects, and
     * AbstractMap's walks entries): the same names with equal values, in any order.
     */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof CompactFields other) || large != null || other.large != null) {
            return super.equals(o);
        }
        if (size != other.size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            int j = other.slots[2 * i] == slots[2 * i] ? i : other.indexOf(slots[2 * i]);
            if (j < 0 || !Objects.equals(value(i), other.value(j))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        if (large != null) {
            return large.hashCode();
        }
        int hash = 0;
        for (int i = 0; i < size; i++) {
            hash += Objects.hashCode(name(i)) ^ Objects.hashCode(value(i));
        }
        return hash;
    }

    /** These fields with every value deeply copied: one array of the exact length, rather than one grown per put. */
    CompactFields deepCopy() {
        CompactFields copy = new CompactFields();
        if (large != null) {
            copy.large = new LinkedHashMap<>(large.size() * 2);
            large.forEach((name, value) -> copy.large.put(name, value.deepCopy()));
        } else if (size > 0) {
            copy.slots = new Object[2 * size];
            for (int i = 0; i < size; i++) {
                copy.slots[2 * i] = slots[2 * i];
                copy.slots[2 * i + 1] = value(i).deepCopy();
            }
            copy.size = size;
        }
        return copy;
    }

    /** Without an entry per field: what Jackson's {@code ObjectNode.forEachEntry} calls. */
    @Override
    public void forEach(BiConsumer<? super String, ? super JsonNode> action) {
        if (large != null) {
            large.forEach(action);
            return;
        }
        int expected = size;
        for (int i = 0; i < size; i++) {
            action.accept(name(i), value(i));
            if (expected != size || large != null) {
                throw new ConcurrentModificationException();
            }
        }
    }

    @Override
    public Set<Entry<String, JsonNode>> entrySet() {
        return large != null ? large.entrySet() : new Entries();
    }

    /** The fields while small; a view that follows the map should it grow large while one is held. */
    private final class Entries extends AbstractSet<Entry<String, JsonNode>> {

        @Override
        public int size() {
            return CompactFields.this.size();
        }

        @Override
        public Iterator<Entry<String, JsonNode>> iterator() {
            return large != null ? large.entrySet().iterator() : new Fields();
        }
    }

    private final class Fields implements Iterator<Entry<String, JsonNode>> {
        private int next;
        private int last = -1;
        /** The fields as this iterator last saw them: a change since is caught at best effort, as in a hash map. */
        private int expectedSize = size;
        private final Object[] expectedSlots = slots;

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public Entry<String, JsonNode> next() {
            if (overtaken()) {
                throw new ConcurrentModificationException();
            }
            if (next >= size) {
                throw new NoSuchElementException();
            }
            last = next++;
            return new Field(last);
        }

        @Override
        public void remove() {
            if (last < 0) {
                throw new IllegalStateException();
            }
            if (overtaken()) {
                throw new ConcurrentModificationException();
            }
            removeAt(last);
            next = last;
            last = -1;
            expectedSize = size;
        }

        private boolean overtaken() {
            return expectedSize != size || expectedSlots != slots || large != null;
        }
    }

    /** A field seen through an iterator: its value set in place, as a hash map's entry does. */
    private final class Field implements Entry<String, JsonNode> {
        private final String name;
        private final int at;

        Field(int at) {
            this.name = name(at);
            this.at = at;
        }

        @Override
        public String getKey() {
            return name;
        }

        @Override
        public JsonNode getValue() {
            return at < size && slots[2 * at] == name ? value(at) : get(name); // get reads the hash table once large
        }

        /** Sets the field's value while the field is there (a removed field stays removed, as in a hash map). */
        @Override
        public JsonNode setValue(JsonNode value) {
            if (large != null) {
                return large.replace(name, value);
            }
            int i = at < size && slots[2 * at] == name ? at : indexOf(name);
            if (i < 0) {
                return null;
            }
            JsonNode old = value(i);
            slots[2 * i + 1] = value;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry<?, ?> e && name.equals(e.getKey()) && Objects.equals(getValue(), e.getValue());
        }

        @Override
        public int hashCode() {
            return name.hashCode() ^ Objects.hashCode(getValue());
        }

        @Override
        public String toString() {
            return name + "=" + getValue();
        }
    }
}
