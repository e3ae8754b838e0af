import { describe, expect, it } from "vitest";
import { COMMAND_MODE, costTable, cyclesOf, type HostCost, hookStartsOf, median, WARM_HTTP_MODE } from "./helpers/hostCost.js";

// The arithmetic of helpers/hostCost.ts (the agents themselves run in test/hostCost.e2e.test.ts).

const req = (seq: number, main: boolean, turn: number, at: number, answeredAt = at + 1) => ({ seq, main, turn, at, answeredAt });

describe("cyclesOf: a tool-call cycle runs from the answer carrying call i to the next main request", () => {
  it("skips side requests, in whatever order the log holds them", () => {
    const requests = [req(0, true, 0, 100, 110), req(1, false, -1, 120), req(3, true, 2, 300, 305), req(2, true, 1, 200, 204), req(4, true, -1, 390)];
    expect(cyclesOf(requests, 3)).toEqual([200 - 110, 300 - 204, 390 - 305]);
  });

  it("throws when the result of a call never reached the model", () => {
    expect(() => cyclesOf([req(0, true, 0, 100), req(1, true, 1, 200)], 2)).toThrow("tool call 1: no request carried its result (2 main requests, turns 0,1)");
  });

  it("throws when a call was never asked for (the agent stopped early)", () => {
    expect(() => cyclesOf([req(0, true, 0, 100), req(1, true, -1, 200)], 2)).toThrow("tool call 1: never asked for");
  });
});

describe("hookStartsOf: when each hook started after the answer carrying its call", () => {
  const requests = [req(0, true, 0, 100, 110), req(1, false, -1, 120, 125), req(2, true, 1, 200, 204), req(3, true, -1, 300)];

  it("takes the main answer of the same turn, not a side answer", () => {
    expect(hookStartsOf(requests, [150, 230])).toEqual([40, 26]);
  });

  it("throws on a line that is not a time, and on a start with no call", () => {
    expect(() => hookStartsOf(requests, [150, Number("fired")])).toThrow("hook start 1: not a time: NaN");
    expect(() => hookStartsOf(requests, [150, 230, 330])).toThrow("hook start 2: no answer carried call");
  });
});

describe("costTable", () => {
  const side = (id: string, label: string, med: number) => ({ id, label, runs: [], median: med });
  const claude: HostCost = {
    host: "claude",
    agent: "Claude Code",
    version: "2.1.332",
    calls: 6,
    warmup: 2,
    rounds: 1,
    baseline: side("baseline", "no hook", 13.5),
    direct: side("direct", "direct", 27.5),
    nodeFloor: null,
    httpFloor: null,
    modes: [
      { mode: COMMAND_MODE, side: side("command", "command", 90.25), addedMs: 62.75 },
      { mode: WARM_HTTP_MODE, side: side("warm-http", "warm (http)", 25), addedMs: -2.5 },
    ],
  };

  it("prints one row per mode: the cycles, the cost per event (signed) and its target", () => {
    expect(costTable([{ ...claude, baseline: null }]).split("\n")).toEqual([
      "| host | no hook cycle | direct cycle | + `node -e 0` | + http hook | hookrun cycle | +ms per event | target | mode |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      "| Claude Code 2.1.332 | – | 27.5 ms | – | – | 90.3 ms | +62.8 ms | ≤ +25 ms | command |",
      "| Claude Code 2.1.332 | – | 27.5 ms | – | – | 25 ms | −2.5 ms | ≤ +5 ms | warm (http) |",
    ]);
    expect(costTable([claude])).toContain("| Claude Code 2.1.332 | 13.5 ms | 27.5 ms |");
    // with the Node-floor side: what one `node -e 0` before the direct hook added, signed
    expect(costTable([{ ...claude, nodeFloor: side("node", "direct + node -e 0", 49.25) }])).toContain("| 27.5 ms | +21.8 ms | – | 90.3 ms | +62.8 ms |");
    // with the http floor: what an http hook answered by a bare server added, on the warm rows only
    const http = costTable([{ ...claude, httpFloor: side("http", "direct http hook (bare server)", 26) }]).split("\n");
    expect(http[2]).toContain("| 27.5 ms | – | – | 90.3 ms |");
    expect(http[3]).toContain("| 27.5 ms | – | −1.5 ms | 25 ms |");
  });

  it("median of an even count is the mean of the middle two", () => {
    expect([median([4, 1, 3, 2]), median([5, 1, 3]), median([])]).toEqual([2.5, 3, Number.NaN]);
  });
});
