import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { disableHook, enableHook, WriteError } from "../src/index.js";
import { lineDiff } from "./helpers/lineDiff.js";
import { sandbox } from "./helpers/sandbox.js";

const FIXTURES = path.resolve(import.meta.dirname, "fixtures/edit");
const files = readdirSync(FIXTURES)
  .filter((f) => !f.startsWith("."))
  .sort();

/** Hooks whose map is a YAML alias: editing them would change the anchor, so it is refused. */
const REFUSED: Record<string, string[]> = { "07-anchors.yaml": ["shared"] };

function parsed(text: string): { hooks: Record<string, { name: string; enabled?: boolean }[]> } {
  return parseDocument(text.replace(/^\uFEFF/, ""), { merge: true }).toJS();
}

function hooksOf(text: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const list of Object.values(parsed(text).hooks)) for (const h of list) out.set(h.name, h);
  return out;
}

/** Everything but `name`'s enabled key must parse the same before and after. */
function expectOnlyEnabledChanged(before: string, after: string, name: string, enabled: boolean): void {
  const a = hooksOf(before);
  const b = hooksOf(after);
  expect(b.get(name)?.enabled).toBe(enabled);
  const { enabled: _x, ...restA } = a.get(name)!;
  const { enabled: _y, ...restB } = b.get(name)!;
  expect(restB).toEqual(restA);
  for (const [n, h] of a) if (n !== name) expect(b.get(n)).toEqual(h);
}

describe("disable then enable keep every other byte of the file (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("has a corpus of at least ten configs", () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const fixture of files) {
    const original = readFileSync(path.join(FIXTURES, fixture), "utf8");
    const target = fixture.endsWith(".json") ? "hooks.json" : "hooks.yaml";
    for (const name of hooksOf(original).keys()) {
      it(`${fixture}: ${name}`, async () => {
        const t = sandbox();
        const file = path.join(t.dir, target);
        copyFileSync(path.join(FIXTURES, fixture), file);
        const opts = { cwd: t.dir, userConfig: false, env: t.env };
        if (REFUSED[fixture]?.includes(name)) {
          await expect(disableHook(name, opts)).rejects.toThrow(WriteError);
          await expect(disableHook(name, opts)).rejects.toThrow(/alias/);
          expect(readFileSync(file, "utf8")).toBe(original);
          return;
        }
        const wasEnabled = hooksOf(original).get(name)!.enabled !== false;

        await disableHook(name, opts);
        const disabled = readFileSync(file, "utf8");
        expectOnlyEnabledChanged(original, disabled, name, false);
        const d1 = lineDiff(original, disabled);
        if (!wasEnabled) {
          expect(disabled).toBe(original);
        } else {
          // Exactly one line changed or inserted, and it is the `enabled` one.
          expect(d1.added).toHaveLength(1);
          expect(d1.removed.length).toBeLessThanOrEqual(1);
          expect(d1.added[0]).toMatch(/"?enabled"?\s*:\s*false/);
          if (d1.removed.length === 1) {
            const removedEnabled = /"?enabled"?\s*:\s*true/.test(d1.removed[0]);
            // Either the value was flipped in place, or an entry was added inside a flow map.
            if (removedEnabled) expect(d1.added[0]).toBe(d1.removed[0].replace(/(enabled"?\s*:\s*)true/, "$1false"));
            else expect(d1.added[0].replace(/,\s*"?enabled"?\s*:\s*false/, "")).toBe(d1.removed[0]);
          }
        }

        await enableHook(name, opts);
        const enabled = readFileSync(file, "utf8");
        expectOnlyEnabledChanged(original, enabled, name, true);
        const d2 = lineDiff(original, enabled);
        expect(d2.added.length).toBeLessThanOrEqual(1);
        expect(d2.removed.length).toBeLessThanOrEqual(1);
        if (d2.added.length) expect(d2.added[0]).toMatch(/"?enabled"?\s*:\s*true/);
        // The line the two edits touched is the same line: enable undoes disable's value.
        if (wasEnabled) {
          const d3 = lineDiff(disabled, enabled);
          expect(d3.removed).toHaveLength(1);
          expect(d3.added).toEqual([d3.removed[0].replace(/(enabled"?\s*:\s*)false/, "$1true")]);
        }
        if (original.startsWith("\uFEFF")) expect(enabled.startsWith("\uFEFF")).toBe(true);
      });
    }
  }
});
