import { renderJunit } from "../../../provider/drift/render/junit";
import { renderMarkdown } from "../../../provider/drift/render/markdown";
import { listingErrorLine, progressLine, stackLines, summaryLines } from "../../../provider/drift/render/terminal";
import { LISTING_ERROR, sampleReport } from "./fixtures";
import { schemaProblems } from "./schemaCheck";

const report = sampleReport();
/** The sample report with a project whose stacks could not be listed: beside the stacks, never one of them. */
const unlisted = { ...report, listingErrors: [LISTING_ERROR] };

test("terminal: a line per stack with its resources, refusals or error, then the counts", () => {
  const [clean, drift, blocked, error] = report.stacks.map(stackLines);
  expect(clean).toBe("clean         shop/eu (1.5s)");
  expect(drift).toBe("drift         shop/us (1.5s)\n    space: bytes 1000 -> 7\n    traffic: deleted outside Pulumi (next up: create)");
  expect(blocked).toBe("drift-blocked shop/asia (1.5s)\n    CLOUDPLATFORM_DOWNGRADE demo: version v1.30.4 is a downgrade <&> [CLOUDPLATFORM_DOWNGRADE]");
  expect(error).toBe("error         shop/ap (1.5s)\n    GET /x failed (401): key | invalid");
  expect(summaryLines(report)).toBe("4 stacks in 4s: 1 clean, 1 drift, 1 drift-blocked, 1 error; exit 2");
  expect(summaryLines({ ...report, shard: { index: 2, count: 3 } })).toContain("4 stacks (shard 2/3) in");
  expect(progressLine(1, 4, 2)).toBe("cloudplatform-drift: 1/4 stacks done, 2 running");
});

test("markdown: counts, a table of stacks, the details of each stack that is not clean, pipes escaped", () => {
  const md = renderMarkdown(report);
  expect(md).toContain("4 stacks: **1** clean, **1** drift, **1** drift-blocked, **1** error (exit 2).");
  expect(md).toContain("| shop/eu | ✅ clean | 0 | 1.5s |");
  expect(md).toContain("| `space` | modified | update | bytes | 1000 | 7 | 1000 |");
  expect(md).toContain("| `traffic` | deleted | create |  |  |  |  |");
  expect(md).toContain("- **CLOUDPLATFORM_DOWNGRADE** `demo`: version v1.30.4 is a downgrade <&> [CLOUDPLATFORM_DOWNGRADE]");
  expect(md).toContain("```\nGET /x failed (401): key | invalid\n```");
  expect(md).not.toContain("### shop/eu");
});

test("junit: a case per stack, a failure per drifted resource and refusal, an error per errored stack, XML escaped", () => {
  const xml = renderJunit(report);
  expect(xml).toContain('<testsuites name="cloudplatform-drift" tests="4" failures="2" errors="1" time="4.000">');
  expect(xml).toContain('<testcase classname="shop" name="eu" time="1.500"/>');
  expect(xml.match(/<failure type="drift"/g)).toHaveLength(2);
  expect(xml).toContain('<failure type="CLOUDPLATFORM_DOWNGRADE" message="version v1.30.4 is a downgrade &lt;&amp;&gt; [CLOUDPLATFORM_DOWNGRADE]">');
  expect(xml).toContain('<error type="error" message="GET /x failed (401): key | invalid">');
  expect(xml).not.toMatch(/<&>/);
});

test("the sample report conforms to the schema, and the check finds what does not", () => {
  expect(schemaProblems(JSON.parse(JSON.stringify(report)))).toEqual([]);
  const bad = JSON.parse(JSON.stringify(report));
  bad.stacks[1].class = "drifted";
  bad.stacks[1].resources[0].extra = 1;
  delete bad.counts.error;
  expect(schemaProblems(bad)).toEqual([
    "$.counts: error is missing",
    '$.stacks[1].class: "drifted" is not one of ["clean","drift","drift-blocked","error"]',
    "$.stacks[1].resources[0]: extra is not allowed",
  ]);
});

test("terminal: a project whose stacks could not be listed has its own line and is counted apart from the stacks", () => {
  expect(listingErrorLine(LISTING_ERROR)).toBe("cannot list the stacks of /p/infra: no stack is selected in /p/infra: pass --stack NAME or --all-stacks");
  expect(summaryLines(unlisted)).toBe("4 stacks in 4s: 1 clean, 1 drift, 1 drift-blocked, 1 error; 1 project not listed; exit 2");
});

test("markdown: a project whose stacks could not be listed is counted and listed apart from the stacks", () => {
  const md = renderMarkdown(unlisted);
  expect(md).toContain("4 stacks: **1** clean, **1** drift, **1** drift-blocked, **1** error, **1** project not listed (exit 2).");
  expect(md).toContain("### Projects whose stacks could not be listed\n\n- `/p/infra`: no stack is selected in /p/infra: pass --stack NAME or --all-stacks\n");
  expect(md.match(/^\| /gm)).toHaveLength(renderMarkdown(report).match(/^\| /gm)!.length);
});

test("junit: a project whose stacks could not be listed is an errored test case `list stacks`, named by its directory", () => {
  const xml = renderJunit(unlisted);
  expect(xml).toContain('<testsuites name="cloudplatform-drift" tests="5" failures="2" errors="2" time="4.000">');
  expect(xml).toContain('<testcase classname="/p/infra" name="list stacks" time="0.000">\n      <error type="listing" message="no stack is selected in /p/infra: pass --stack NAME or --all-stacks">');
});

test("a report with a project whose stacks could not be listed conforms to the schema", () => {
  expect(schemaProblems(JSON.parse(JSON.stringify(unlisted)))).toEqual([]);
});

