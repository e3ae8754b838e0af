/** `CI` is set and means yes (not "", "0" or "false", any case): trust without asking, wait for async hooks. */
export function runningInCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}
