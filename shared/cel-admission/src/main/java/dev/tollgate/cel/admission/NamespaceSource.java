package dev.tollgate.cel.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Where a function finds a Namespace object by name when its configuration files do not hold it. */
public interface NamespaceSource {

    /**
     * The Namespace object (apiVersion v1, kind Namespace, metadata, spec, status).
     *
     * @throws NamespaceLookupException when it does not exist or cannot be read
     */
    ObjectNode get(String name);

    /** One line for the startup log: where namespaces come from. */
    String describe();
}
