// The cold rows divide by `node -e 0`. NODE_EXTRA_CA_CERTS (set on some machines, this one
// included) makes Node parse a CA bundle at every start, which more than doubles that reference
// and so flatters every ratio: report what a start costs with and without it.
import { median, alternate } from "./stats.mjs";
import { timeOk } from "./timeProcess.mjs";

export async function nodeStartContext({ quick }) {
  if (!process.env.NODE_EXTRA_CA_CERTS) return null;
  const without = { ...process.env };
  delete without.NODE_EXTRA_CA_CERTS;
  const [withCerts, withoutCerts] = await alternate(
    quick ? 3 : 11,
    () => timeOk(process.execPath, ["-e", "0"]),
    () => timeOk(process.execPath, ["-e", "0"], { env: without }),
    1,
  );
  return { with_extra_ca_certs_ms: median(withCerts), without_ms: median(withoutCerts) };
}
