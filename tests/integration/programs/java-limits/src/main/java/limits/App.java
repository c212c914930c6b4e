package limits;

import com.pulumi.Pulumi;
import io.github.pulumicloudplatform.cloudplatform.StorageEvent;
import io.github.pulumicloudplatform.cloudplatform.StorageEventArgs;

/** A used-space threshold of `bytes` (config, a number) on the storage "java-limits"; exports its limit. */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            double bytes = Double.parseDouble(ctx.config().require("bytes"));
            var event = new StorageEvent("space", StorageEventArgs.builder()
                .name("reaching_used_space")
                .storageName("java-limits")
                .bytes(bytes)
                .build());
            ctx.export("bytes", event.bytes());
        });
    }
}
