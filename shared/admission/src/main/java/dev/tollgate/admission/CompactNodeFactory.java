package dev.tollgate.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Jackson's node factory for review trees: every JSON object it makes keeps its fields in {@link CompactFields}
 * instead of a hash table, and every array starts small. Jackson makes a tree's objects through its mapper's factory as it parses, and a copy's
 * through the copied node's, so a mutating policy's copy of the object is compact too.
 */
final class CompactNodeFactory extends JsonNodeFactory {

    private static final long serialVersionUID = 1L;

    static final CompactNodeFactory INSTANCE = new CompactNodeFactory();

    private static final int ARRAY_ROOM = 4;

    private CompactNodeFactory() {
    }

    @Override
    public ObjectNode objectNode() {
        return new CompactObjectNode(this, new CompactFields());
    }

    /**
     * Room for {@value #ARRAY_ROOM} elements from the start: most arrays in a Kubernetes object hold one or two (a
     * Pod's containers, a container's ports), and Jackson's default list takes room for ten at the first.
     */
    @Override
    public ArrayNode arrayNode() {
        return arrayNode(ARRAY_ROOM);
    }

    /** An object node whose deep copy sizes each copied object once (Jackson's adds the fields one by one). */
    private static final class CompactObjectNode extends ObjectNode {

        private static final long serialVersionUID = 1L;

        CompactObjectNode(JsonNodeFactory factory, CompactFields fields) {
            super(factory, fields);
        }

        @Override
        public ObjectNode deepCopy() {
            return new CompactObjectNode(_nodeFactory, ((CompactFields) _children).deepCopy());
        }
    }
}
