/** K8sClusterUpgrade's quota check and health watch on the dynamic path: see upgradeSafetySuite.ts. */
import { upgradeSafetySuite } from "./upgradeSafetySuite";

upgradeSafetySuite("dynamic");
