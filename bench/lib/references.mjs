// A row whose hookrun side has not landed still shows its reference, so the table is useful
// (and the harness exercised) from the first commit on.
import { median } from "./stats.mjs";
import { rawSpawn, timeCall } from "./library.mjs";
import { timeOk, timeProcess } from "./timeProcess.mjs";
import { lefthookArgs, lefthookBinary, lefthookRepo } from "./lefthook.mjs";

async function samples(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return median(out);
}

const nodeE0 = () => samples(11, () => timeOk(process.execPath, ["-e", "0"]));

export const REFERENCES = {
  one_hook: async () => ({ value: await samples(51, () => timeCall(() => rawSpawn())), unit: "ms" }),
  sequential_100: async () => ({
    value: await samples(3, () =>
      timeCall(async () => {
        for (let i = 0; i < 100; i++) await rawSpawn();
      }),
    ),
    unit: "ms",
  }),
  parallel_100: async () => ({ value: 500, unit: "ms" }),
  cold_run: async () => ({ value: await nodeE0(), unit: "ms" }),
  validate_1000: async () => ({ value: await nodeE0(), unit: "ms" }),
  server: async ({ root }) => {
    const lh = lefthookRepo();
    const bin = lefthookBinary(root);
    return { value: await samples(11, () => timeOk(bin, lefthookArgs("bench-one"), { cwd: lh.dir, env: lh.env })), unit: "ms" };
  },
  big_output: async () => {
    const r = await timeProcess(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"]);
    return { value: Number(r.stdout) / 1024 + 1, unit: "MiB" };
  },
};
