/**
 * The time limit of a unit test whose work is CPU, not waiting: a TypeScript compile, the schema
 * generator, a child process that loads the package, or Python with the platform's SDK. Such a
 * test takes seconds on an idle machine and minutes on a busy one (a first `make test` shares the
 * two cores with the Pulumi CLI's Go build, the type check and five other jest workers), and its
 * verdict must not depend on which. The limit only ends a hang.
 */
export const CPU_BOUND_MS = 300_000;
