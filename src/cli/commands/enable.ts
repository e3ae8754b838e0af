import type { RegisterCommand } from "./index.js";

/** `hooks enable NAME…` and `hooks disable NAME…` (SPEC §9). */
export const registerEnable: RegisterCommand = (program, context, setCode) => {
  for (const enabled of [true, false]) {
    program
      .command(`${enabled ? "enable" : "disable"} <names...>`)
      .description(
        enabled
          ? "set `enabled: true` on hooks in the file that declares them (only that line changes)"
          : "set `enabled: false` on hooks in the file that declares them (only that line changes)",
      )
      .option("--local", "write the override into hooks.local.yaml instead (personal, git-ignored)")
      .action(async (names: string[], opts: { local?: boolean }, cmd) => {
        const { setEnabled } = await import("../actions/setEnabled.js");
        setCode(await setEnabled(context(cmd), names, enabled, opts));
      });
  }
};
