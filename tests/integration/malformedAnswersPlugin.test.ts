/** Malformed answers on the plugin path: see malformedAnswerSuite.ts. */
import { malformedAnswerSuite } from "./malformedAnswerSuite";

malformedAnswerSuite("plugin");
