package dev.tollgate.functionnames.deployment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.functionnames.FunctionNames;
import dev.tollgate.functionnames.FunctionNamesRecorder;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.deployment.ApplicationArchive;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.ApplicationArchivesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;

/**
 * Build steps (Quarkus guide "Writing Your Own Extension"): reads the webhook.yaml each application archive packages
 * at {@value Registrations#CLASSPATH_LOCATION}, pairs it with the policy beans of that archive ({@link PolicyPairing})
 * and hands the pairs to the application as the {@link FunctionNames} bean (CDI reference guide, "Synthetic beans").
 */
public class FunctionNamesProcessor {

    private static final List<DotName> ADMISSION = List.of(DotName.createSimple(ValidatingPolicy.class),
            DotName.createSimple(MutatingPolicy.class));
    private static final List<DotName> CONVERSION = List.of(DotName.createSimple(ConversionPolicy.class));

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem("tollgate-function-names");
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem functionNames(ApplicationArchivesBuildItem archives, CombinedIndexBuildItem combined,
            FunctionNamesRecorder recorder) {
        List<PolicyPairing.Archive> found = new ArrayList<>();
        for (ApplicationArchive archive : archives.getAllApplicationArchives()) {
            String location = archive.getResolvedPaths().toString();
            // null where absent: a tree of several roots (classes and test-classes) asks each root in turn until one
            // gives a value, so an empty answer from the first would hide the file in the next.
            List<WebhookRegistration> entries = archive.apply(tree -> tree.apply(Registrations.CLASSPATH_LOCATION,
                    visit -> visit == null ? null : read(visit.getPath(), location)));
            found.add(new PolicyPairing.Archive(location, entries == null ? List.of() : entries,
                    policyBeans(combined.getIndex(), archive.getIndex(), ADMISSION),
                    policyBeans(combined.getIndex(), archive.getIndex(), CONVERSION)));
        }
        return SyntheticBeanBuildItem.configure(FunctionNames.class).scope(Singleton.class).unremovable()
                .supplier(recorder.functionNames(PolicyPairing.pair(found))).done();
    }

    /** Concrete classes of {@code archive} implementing one of {@code types} and declaring a CDI scope. */
    private static Set<String> policyBeans(IndexView all, IndexView archive, List<DotName> types) {
        Set<String> out = new TreeSet<>();
        for (DotName type : types) {
            for (ClassInfo c : all.getAllKnownImplementors(type)) {
                boolean concrete = !Modifier.isAbstract(c.flags()) && !Modifier.isInterface(c.flags());
                if (concrete && BuiltinScope.isDeclaredOn(c) && archive.getClassByName(c.name()) != null) {
                    out.add(c.name().toString());
                }
            }
        }
        return out;
    }

    private static List<WebhookRegistration> read(Path webhookYaml, String location) {
        try (InputStream in = Files.newInputStream(webhookYaml)) {
            return Registrations.read("", in, location + "!/" + Registrations.CLASSPATH_LOCATION);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + Registrations.CLASSPATH_LOCATION + " in " + location, e);
        }
    }
}
