/**
 * The reduction of OpenAPI schemas to facts in tools/openapi-operations/extract.js: `$ref`s
 * resolved (their sibling keys kept), a `null` branch of `anyOf` folded into `nullable`, `allOf`
 * merged, 3.1 type lists read, texts (titles, descriptions, defaults, examples) left out; a
 * parameter's `one of [...]` list read as its enum.
 */
const { factsOf, enumFromDescription } = require("../../../tools/openapi-operations/extract.js") as {
  factsOf: (doc: unknown, schema: unknown) => unknown;
  enumFromDescription: (description: string | undefined) => string[] | undefined;
};

const doc = {
  components: {
    schemas: {
      Order: { title: "Order", type: "string", enum: ["asc", "desc"], description: "sort order" },
      Named: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name" } } },
      Node: { type: "object", properties: { child: { $ref: "#/components/schemas/Node" } } },
    },
  },
};

describe("factsOf", () => {
  test("a $ref is resolved; its sibling keys are kept, texts and defaults left out", () => {
    expect(factsOf(doc, { $ref: "#/components/schemas/Order", default: "desc", maxLength: 4 })).toEqual({ type: "string", enum: ["asc", "desc"], maxLength: 4 });
  });

  test("anyOf with a null branch becomes the other branch, nullable; with two others it stays anyOf", () => {
    expect(factsOf(doc, { anyOf: [{ type: "integer", minimum: 1, maximum: 200 }, { type: "null" }], default: 1, title: "Count" })).toEqual({ type: "integer", minimum: 1, maximum: 200, nullable: true });
    expect(factsOf(doc, { oneOf: [{ type: "integer" }, { type: "string" }, { type: "null" }] })).toEqual({ nullable: true, anyOf: [{ type: "integer" }, { type: "string" }] });
  });

  test("allOf is merged (properties and required), a 3.1 type list with null is nullable", () => {
    const schema = { allOf: [{ $ref: "#/components/schemas/Named" }, { type: "object", required: ["size"], properties: { size: { type: ["integer", "null"] } }, additionalProperties: false }] };
    expect(factsOf(doc, schema)).toEqual({
      type: "object",
      required: ["name", "size"],
      properties: { name: { type: "string" }, size: { type: "integer", nullable: true } },
      additionalProperties: false,
    });
  });

  test("a recursive schema stops at any value instead of looping", () => {
    expect(factsOf(doc, { $ref: "#/components/schemas/Node" })).toEqual({ type: "object", properties: { child: {} } });
  });
});

describe("enumFromDescription", () => {
  test("reads the values a description lists as one of [...]; nothing from other texts", () => {
    expect(enumFromDescription("Filter the tasks by their type one of ['create_vm', 'upgrade_k8s_cluster_v2']")).toEqual(["create_vm", "upgrade_k8s_cluster_v2"]);
    expect(enumFromDescription("Filter by name")).toBeUndefined();
    expect(enumFromDescription(undefined)).toBeUndefined();
  });
});
