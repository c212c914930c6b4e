// The program Pulumi runs: everything is declared in stack.ts, where the tests can reach it.
import { declareStack } from "./stack";

export = declareStack();
