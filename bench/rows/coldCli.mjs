// Rows 5 and 6: one `hooks` process from cold start to exit, against `node -e 0` (the floor of
// any Node CLI). Alternated so that machine load hits both sides alike. NODE_EXTRA_CA_CERTS (set
// on some machines, this one included) makes Node parse a CA bundle at every start, which slows
// the reference more than hookrun and so flatters the ratio: users do not have it, so the row is
// judged with it unset (docs/performance.md); when it is set here, the same run also measures both sides
// with it, for the record.
import { median, summarize, alternateAll } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { bigConfigYaml } from "../lib/bigConfig.mjs";
import { cliPath } from "../lib/cli.mjs";
import { timeOk } from "../lib/timeProcess.mjs";

async function versusNode(root, fixture, args, runs) {
  const certs = fixture.env.NODE_EXTRA_CA_CERTS;
  const without = { ...fixture.env };
  delete without.NODE_EXTRA_CA_CERTS;
  const node = (env) => () => timeOk(process.execPath, ["-e", "0"], { env, cwd: fixture.dir });
  const hooks = (env) => () => timeOk(process.execPath, [cliPath(root), ...args], { env, cwd: fixture.dir });
  const [ref, sub, refCerts, subCerts] = await alternateAll(runs, certs ? [node(without), hooks(without), node(fixture.env), hooks(fixture.env)] : [node(without), hooks(without)], 2);
  const result = {
    reference: median(ref),
    hookrun: median(sub),
    unit: "ms",
    ratio: median(sub) / median(ref),
    detail: { judged: "NODE_EXTRA_CA_CERTS unset", node_e_0: summarize(ref), hookrun: summarize(sub), runs },
  };
  const fmt = (r, s) => `\`node -e 0\` ${median(r).toFixed(1)} ms, hooks ${median(s).toFixed(1)} ms, ${(median(s) / median(r)).toFixed(2)}×`;
  if (certs) {
    result.detail.with_extra_ca_certs = { node_e_0: summarize(refCerts), hookrun: summarize(subCerts), ratio: median(subCerts) / median(refCerts) };
    result.note = `NODE_EXTRA_CA_CERTS unset (judged): ${fmt(ref, sub)}; set, as on this machine (not judged): ${fmt(refCerts, subCerts)}`;
  } else {
    result.note = `NODE_EXTRA_CA_CERTS is not set here: ${fmt(ref, sub)} (judged)`;
  }
  return result;
}

export async function coldRun({ root, quick }) {
  const fixture = project(hooksYaml({ event: "stop", count: 1 }));
  return versusNode(root, fixture, ["--no-user-config", "--trust", "run", "stop"], quick ? 3 : 21);
}

export async function coldValidate({ root, quick }) {
  const fixture = project(bigConfigYaml(1000));
  return versusNode(root, fixture, ["--no-user-config", "validate"], quick ? 3 : 15);
}
