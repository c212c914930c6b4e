/** Malformed answers on the dynamic path: see malformedAnswerSuite.ts. */
import { malformedAnswerSuite } from "./malformedAnswerSuite";

malformedAnswerSuite("dynamic");
