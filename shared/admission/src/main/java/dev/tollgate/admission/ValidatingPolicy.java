package dev.tollgate.admission;

/** Decides whether a request is admitted. It cannot change the object: a {@link Verdict} never holds a patch. */
public non-sealed interface ValidatingPolicy extends AdmissionPolicy {

    Verdict validate(AdmissionRequest request);
}
