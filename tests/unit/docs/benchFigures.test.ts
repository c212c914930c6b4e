/**
 * bench/README.md's figures are written by `make bench` (bench/report.ts), never by hand: a run
 * replaces the sections it measured between the markers and keeps the others, in report order,
 * and the committed page has that block with every section in the form a run writes.
 */
import { FIGURES_BEGIN, FIGURES_END, benchSettings, mergeFigures, renderFigures, type Section } from "../../../bench/report";
import { readPage } from "./markdown";

const measured = { started: new Date("2026-12-01T10:00:00Z"), environment: ["Node v20.20.0, 2 CPU(s)"], settings: ["BENCH_ONLY=large"] };

function section(title: string, figure: string): Section {
  return { title, method: "How it was measured.", tables: [{ headers: ["N", "Time"], rows: [["10", figure]] }], notes: ["A note."], targets: [{ target: "under 2 s", verdict: "OK" }] };
}

const page = (...blocks: string[]) => `# Benchmarks\n\nIntro.\n\n${FIGURES_BEGIN}\n\n${blocks.join("\n\n")}\n\n${FIGURES_END}\n\nAfter.\n`;

describe("bench/README.md figures", () => {
  it("renders a section with when, on what and with which settings it was measured, its targets and its figures", () => {
    const text = renderFigures(measured, section("9. Large stacks", "1.5 s"));
    expect(text.split("\n").slice(0, 4)).toEqual(["### 9. Large stacks", "", "Measured 2026-12-01 by `make bench` with `BENCH_ONLY=large`.", ""]);
    expect(text).toContain("- Node v20.20.0, 2 CPU(s)");
    expect(text).toContain("| Target | Result | Why |\n|---|---|---|\n| under 2 s | OK |  |");
    expect(text).toContain("| 10 | 1.5 s |");
    expect(text).toContain("- A note.");
  });

  it("replaces the sections a run measured, keeps the others, in report order, and leaves the rest of the page alone", () => {
    const old2 = renderFigures(measured, section("2. Preview and up wall time", "old two"));
    const old9 = renderFigures(measured, section("9. Large stacks", "old nine"));
    const new1 = renderFigures(measured, section("1. Serialized provider and state size", "new one"));
    const new9 = renderFigures(measured, section("9. Large stacks", "new nine"));
    const merged = mergeFigures(page(old2, old9), [new9, new1]);
    expect(merged).toBe(page(new1, old2, new9));
    expect(mergeFigures(merged, [new9, new1])).toBe(merged);
  });

  it("refuses a page without the markers", () => {
    expect(() => mergeFigures("# Benchmarks\n", [])).toThrow(/no .* block for the figures/);
  });

  it("records only the BENCH_ variables that are set", () => {
    expect(benchSettings({ BENCH_ONLY: "large", BENCH_REPEATS: "", PATH: "/bin", BENCH_LARGE_SIZES: "10,100" })).toEqual(["BENCH_LARGE_SIZES=10,100", "BENCH_ONLY=large"]);
  });

  it("the committed page holds the generated block, each section headed and dated as a run writes it", () => {
    const readme = readPage("bench/README.md");
    const inner = readme.slice(readme.indexOf(FIGURES_BEGIN) + FIGURES_BEGIN.length, readme.indexOf(FIGURES_END));
    expect(readme.indexOf(FIGURES_BEGIN)).toBeGreaterThan(0);
    const blocks = inner.split(/^(?=### )/m).map((b) => b.trim()).filter((b) => b !== "");
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    for (const block of blocks) expect(block).toMatch(/^### \d+\. .+\n\nMeasured \d{4}-\d{2}-\d{2} by `make bench`/);
    expect(mergeFigures(readme, [])).toBe(readme);
  });
});
