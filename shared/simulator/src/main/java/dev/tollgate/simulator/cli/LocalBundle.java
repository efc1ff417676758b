package dev.tollgate.simulator.cli;

/**
 * A command that may call the bundled functions served by this very process (on a free port of 127.0.0.1). The
 * process listens only when the command line asks for it: a review against {@code --url}s or {@code --config}
 * files, {@code --help} or {@code convert} bind nothing.
 */
interface LocalBundle {

    /** Whether the command, as parsed, calls the in-process bundle. */
    boolean needsLocalBundle();
}
