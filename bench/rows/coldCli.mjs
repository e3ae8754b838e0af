// Rows 5 and 6: one `hooks` process from cold start to exit, against `node -e 0` (the floor of
// any Node CLI). Alternated so that machine load hits both sides alike.
import { median, summarize, alternate } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { bigConfigYaml } from "../lib/bigConfig.mjs";
import { cliPath } from "../lib/cli.mjs";
import { timeOk } from "../lib/timeProcess.mjs";

async function versusNode(root, fixture, args, runs) {
  const node = () => timeOk(process.execPath, ["-e", "0"], { env: fixture.env, cwd: fixture.dir });
  const hooks = () => timeOk(process.execPath, [cliPath(root), ...args], { env: fixture.env, cwd: fixture.dir });
  const [ref, sub] = await alternate(runs, node, hooks, 2);
  return { reference: median(ref), hookrun: median(sub), unit: "ms", ratio: median(sub) / median(ref), detail: { node_e_0: summarize(ref), hookrun: summarize(sub), runs } };
}

export async function coldRun({ root, quick }) {
  const fixture = project(hooksYaml({ event: "stop", count: 1 }));
  return versusNode(root, fixture, ["--no-user-config", "--trust", "run", "stop"], quick ? 3 : 21);
}

export async function coldValidate({ root, quick }) {
  const fixture = project(bigConfigYaml(1000));
  return versusNode(root, fixture, ["--no-user-config", "validate"], quick ? 3 : 15);
}
