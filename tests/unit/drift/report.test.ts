import { countByClass, exitCodeOf, resourceNameOf, type ListingError, type StackClass } from "../../../provider/drift/report";

const UNLISTED: ListingError = { cwd: "/p", error: "no stack is selected in /p" };
const stacks = (...classes: StackClass[]) => classes.map((c) => ({ class: c }));

test.each([
  ["every stack clean", stacks("clean"), [], 0],
  ["no stack at all", stacks(), [], 0],
  ["a drift-blocked stack", stacks("clean", "drift-blocked"), [], 1],
  ["a drifted and an errored stack", stacks("drift", "error"), [], 2],
  ["a project whose stacks could not be listed, the others clean", stacks("clean"), [UNLISTED], 2],
  ["only a project whose stacks could not be listed", stacks(), [UNLISTED], 2],
] as const)("exit status, %s: %d", (_, classes, listingErrors, code) => {
  expect(exitCodeOf(classes, listingErrors)).toBe(code);
});

test("counts are by class, of stacks only", () => {
  expect(countByClass(stacks("drift", "drift"))).toEqual({ clean: 0, drift: 2, "drift-blocked": 0, error: 0 });
});

test.each([
  ["urn:pulumi:prod::shop::cloudplatform:index:StorageEvent::space", "space"],
  ["urn:pulumi:prod::shop::pkg:index:Parent$cloudplatform:index:K8sClusterUpgrade::demo", "demo"],
  ["urn:pulumi:prod::shop::cloudplatform:index:StorageEvent::a::b", "a::b"],
])("the resource name of %s is %s", (urn, name) => {
  expect(resourceNameOf(urn)).toBe(name);
});
