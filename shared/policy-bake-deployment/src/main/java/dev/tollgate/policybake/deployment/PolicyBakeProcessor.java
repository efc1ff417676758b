package dev.tollgate.policybake.deployment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import dev.tollgate.cel.PrecompiledExpressions;
import dev.tollgate.cel.admission.BakedPolicies;
import dev.tollgate.policybake.PolicyBakeRecorder;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.GeneratedResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.pkg.builditem.OutputTargetBuildItem;

/**
 * Build steps (Quarkus guide "Writing Your Own Extension"): for each CEL function in the application (a
 * {@link BakedPolicies.Loader} service) whose {@code tollgate.<function>.baked-config} names files or folders, runs
 * the function's start on them at build time and packages what it read and compiled ({@link BakedPolicies#bake});
 * a policy the function would refuse fails the build with the function's own message.
 */
public class PolicyBakeProcessor {

    private static final Logger LOG = Logger.getLogger(PolicyBakeProcessor.class);

    /** The functions whose policies were baked, for the recorder. */
    public static final class BakedBuildItem extends io.quarkus.builder.item.SimpleBuildItem {
        final List<String> functions;

        BakedBuildItem(List<String> functions) {
            this.functions = functions;
        }
    }

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem("tollgate-policy-bake");
    }

    @BuildStep
    BakedBuildItem bake(OutputTargetBuildItem target, BuildProducer<GeneratedResourceBuildItem> resources,
            BuildProducer<NativeImageResourceBuildItem> nativeResources) {
        Path project = target.getOutputDirectory().toAbsolutePath().getParent();
        List<String> baked = new ArrayList<>();
        ClassLoader application = Thread.currentThread().getContextClassLoader();
        for (BakedPolicies.Loader loader : ServiceLoader.load(BakedPolicies.Loader.class, application)) {
            String key = "tollgate." + loader.function() + ".baked-config";
            List<Path> config = ConfigProvider.getConfig().getOptionalValues(key, String.class).orElse(List.of())
                    .stream().map(String::strip).filter(s -> !s.isEmpty()).map(project::resolve).toList();
            if (config.isEmpty()) {
                continue;
            }
            byte[] resource;
            try {
                resource = BakedPolicies.bake(loader, config, project,
                        setting -> ConfigProvider.getConfig().getOptionalValue(setting, String.class));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + " " + config + ": " + e.getMessage(), e);
            }
            String name = BakedPolicies.resource(loader.function());
            resources.produce(new GeneratedResourceBuildItem(name, resource));
            nativeResources.produce(new NativeImageResourceBuildItem(name));
            baked.add(loader.function());
            LOG.infof("%s: baked %s in (%d KiB, every expression parsed and type checked)", loader.function(),
                    config, resource.length / 1024);
        }
        return new BakedBuildItem(List.copyOf(baked));
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void install(BakedBuildItem baked, PolicyBakeRecorder recorder) {
        if (!baked.functions.isEmpty()) {
            recorder.install(baked.functions);
        }
    }
}
