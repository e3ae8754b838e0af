import { formatElapsed, formatHookBlock } from "../../report/formatText.js";
import type { CliOutput } from "../stdioWriter.js";
import { terminalSafe } from "../../text.js";
import type { HookEndEvent, HookResult, HookStartEvent, Runner } from "../../runner/types.js";

/**
 * Text progress while hooks run: each hook's block is printed as soon as it finishes; on a TTY a
 * line rewritten in place also lists the hooks still running with their elapsed time.
 * `printed` collects the names already shown, and `shown` the results, so the final report does
 * not repeat them.
 */
export function startProgress(
  runner: Runner,
  out: CliOutput,
  color: boolean,
  block: typeof formatHookBlock = formatHookBlock,
): { stop: () => void; printed: Set<string>; shown: Set<HookResult> } {
  const tty = Boolean(out.isTTY);
  const printed = new Set<string>();
  const shown = new Set<HookResult>();
  const running = new Map<string, number>();
  const clear = (): void => void (tty && out.write("\r\x1b[K"));
  const draw = (): void => {
    if (!tty) return;
    if (running.size === 0) return clear();
    const now = Date.now();
    // Hook names come from config: escaped like the rest of the report (see formatText).
    const text = [...running].map(([name, t]) => `${terminalSafe(name)} ${formatElapsed(now - t)}`).join(", ");
    out.write(`\r\x1b[K${color ? "\x1b[90m" : ""}… running: ${text}${color ? "\x1b[0m" : ""}`);
  };
  const onStart = (e: HookStartEvent): void => {
    running.set(e.name, Date.now());
    draw();
  };
  const onEnd = (e: HookEndEvent): void => {
    running.delete(e.name);
    clear();
    out.write(block(e.result, { color }));
    printed.add(e.name);
    shown.add(e.result);
    draw();
  };
  runner.on("hook:start", onStart);
  runner.on("hook:end", onEnd);
  const timer = tty ? setInterval(draw, 100) : undefined;
  return {
    printed,
    shown,
    stop: () => {
      if (timer) clearInterval(timer);
      runner.off("hook:start", onStart);
      runner.off("hook:end", onEnd);
      clear();
    },
  };
}
