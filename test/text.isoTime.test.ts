import { describe, expect, it } from "vitest";
import { isoTime } from "../src/text.js";

describe("isoTime", () => {
  it("is toISOString for every kind of instant", () => {
    const edges = [0, 1, 9, 10, 99, 100, 999, -1, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(1, 0, 1), Date.UTC(10000, 0, 1), Date.UTC(-5, 0, 1)];
    let x = 12345;
    const random = Array.from({ length: 2000 }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((x / 2 ** 31) * 4e12) - 1e12;
    });
    for (const ms of [...edges, ...random]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("defaults to now", () => {
    const before = Date.now();
    const t = Date.parse(isoTime());
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });
});
