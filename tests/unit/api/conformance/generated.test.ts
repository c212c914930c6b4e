/**
 * Generated conformance cases (see generate.ts and table.ts): per answer schema and full fixture,
 * every optional field deleted and nulled still reads, an unknown field at every object level
 * still reads, every enum with an undocumented value still reads, and every decision field
 * deleted or nulled is refused with a mismatch naming it. Pure: no server.
 */
import { checkBody } from "../../../../provider/api/schema";
import type { GeneratedCase } from "./generate";
import { TABLE, allGeneratedCases, conformanceCounts } from "./table";

const cases = allGeneratedCases();

/** What a case found, printed in failures: the parsed value's summary or the mismatch. */
function outcome(c: GeneratedCase) {
  const r = checkBody(c.schema, c.body);
  return r.ok ? { ok: true as const } : { ok: false as const, field: r.mismatch.field, problem: r.mismatch.problem };
}

describe("conformance: generated cases", () => {
  test("the table and its counts", () => {
    const counts = conformanceCounts();
    // Logged once, for CONTRIBUTING.md.
    console.log(`conformance: ${counts.fixtures} fixtures, ${counts.tableRows} table rows over ${counts.schemasInTable} schemas, ${counts.generatedCases} generated cases ${JSON.stringify(counts.byKind)}`);
    expect(counts.generatedCases).toBe(cases.length);
    expect(TABLE.length).toBeGreaterThan(0);
    for (const row of TABLE) expect(cases.some((c) => c.row.startsWith(row.schemaName))).toBe(true);
  });

  test.each(cases)("$title", (c) => {
    const got = outcome(c);
    if (c.expect.parse) {
      expect(got).toEqual({ ok: true });
      return;
    }
    expect(got.ok).toBe(false);
    if (got.ok || c.expect.names.length === 0) return;
    const field = got.field;
    // The mismatch names the field (or one of its older names) at its position.
    expect({ field, namesIt: c.expect.names.some((n) => field.includes(n)) }).toEqual({ field, namesIt: true });
    if (c.expect.at) expect(field).toContain(c.expect.at);
  });
});

