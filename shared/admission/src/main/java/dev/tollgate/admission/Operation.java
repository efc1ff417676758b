package dev.tollgate.admission;

/** The operations an admission request can carry. */
public enum Operation {
    CREATE, UPDATE, DELETE, CONNECT
}
