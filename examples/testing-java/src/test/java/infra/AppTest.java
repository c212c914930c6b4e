package infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.pulumi.test.Mocks;
import com.pulumi.test.PulumiTest;
import com.pulumi.test.TestResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Unit tests under Pulumi's mocks: no engine, no plugin, no network. Every resource registration
 * goes to newResourceAsync and every lookup (a function of the plugin's schema) to callAsync; the
 * tests check what the program asks for and what it declares.
 *
 * No provider runs under mocks, so the provider's own input checks (a limit of the wrong kind, a
 * negative or fractional limit) are not here: a preview against the simulator shows them.
 */
class AppTest {
    /** What the mocked lookups return, by function token: every field their results require. */
    static final Map<String, Map<String, Object>> ANSWERS = Map.of(
        "cloudplatform:index:getProject", Map.of("id", 1, "name", "default", "isDefault", true),
        "cloudplatform:index:getRegion", Map.of("id", 76, "displayName", "Luxembourg-2", "state", "ACTIVE",
            "accessLevel", "core", "hasKvm", true, "hasBaremetal", false, "hasK8s", true, "hasDbaas", false,
            "availableVolumeTypes", List.of("standard")));

    /** Records what the program registered and looked up, and answers the lookups. */
    static final class Recorder implements Mocks {
        final List<ResourceArgs> resources = Collections.synchronizedList(new ArrayList<>());
        final List<CallArgs> calls = Collections.synchronizedList(new ArrayList<>());

        @Override
        public CompletableFuture<ResourceResult> newResourceAsync(ResourceArgs args) {
            resources.add(args);
            var state = new HashMap<String, Object>(args.inputs);
            if (args.type.equals("cloudplatform:index:StorageEvent")) state.put("uuid", args.name + "-uuid"); // the provider would compute it
            return CompletableFuture.completedFuture(ResourceResult.of(Optional.of(args.name + "-id"), state));
        }

        @Override
        public CompletableFuture<Map<String, Object>> callAsync(CallArgs args) {
            calls.add(args);
            return CompletableFuture.completedFuture(ANSWERS.getOrDefault(args.token, Map.of()));
        }

        /** The inputs of the one resource of `type`. */
        Map<String, Object> inputsOf(String type) {
            var found = resources.stream().filter(r -> r.type.equals(type)).toList();
            assertEquals(1, found.size(), "resources of " + type);
            return new TreeMap<>(found.get(0).inputs);
        }
    }

    final Recorder mocks = new Recorder();

    TestResult run() {
        return PulumiTest.withMocks(mocks).runTest(App::declareStack).throwOnError();
    }

    @AfterEach
    void cleanup() {
        PulumiTest.cleanup();
    }

    @Test
    void lookupsAskForTheDefaultProjectAndAKubernetesRegion() {
        run();
        var got = new TreeMap<String, Object>();
        for (var call : mocks.calls) got.put(call.token, new TreeMap<>(call.args));
        assertEquals(Map.of(
            "cloudplatform:index:getProject", Map.of(),
            "cloudplatform:index:getRegion", Map.of("hasK8s", true, "name", "Luxembourg-2")), got);
    }

    @Test
    void resourcesGetWhatTheLookupsAndTheConfigSay() {
        var result = run();
        assertEquals(Map.of("projectId", 1.0, "regionId", 76.0, "clusterName", "demo-cluster", "version", "v1.31.2"),
            mocks.inputsOf("cloudplatform:index:K8sClusterUpgrade"));
        // 500 GiB reaches the provider whole: more than a Java Integer holds.
        assertEquals(Map.of("name", "reaching_used_space", "storageName", "media", "bytes", 500.0 * 1024 * 1024 * 1024),
            mocks.inputsOf("cloudplatform:index:StorageEvent"));
        assertEquals("space-threshold-uuid", PulumiTest.extractValue(result.output("spaceEventUuid", String.class)));
    }
}
