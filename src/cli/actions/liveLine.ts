import { formatDuration } from "../../report/formatText.js";
import type { Runner } from "../../runner/types.js";

/**
 * On a TTY, one line rewritten in place listing the hooks still running with their elapsed
 * time; cleared when the run ends so the report prints on a clean line.
 */
export function startLiveLine(runner: Runner, out: NodeJS.WritableStream, color: boolean): { stop: () => void } {
  const running = new Map<string, number>();
  const draw = (): void => {
    if (running.size === 0) return void out.write("\r\x1b[K");
    const now = Date.now();
    const text = [...running].map(([name, t]) => `${name} ${formatDuration(now - t)}`).join(", ");
    out.write(`\r\x1b[K${color ? "\x1b[90m" : ""}… running: ${text}${color ? "\x1b[0m" : ""}`);
  };
  const onStart = (e: { name: string }): void => {
    running.set(e.name, Date.now());
    draw();
  };
  const onEnd = (e: { name: string }): void => {
    running.delete(e.name);
    draw();
  };
  runner.on("hook:start", onStart);
  runner.on("hook:end", onEnd);
  const timer = setInterval(draw, 100);
  return {
    stop: () => {
      clearInterval(timer);
      runner.off("hook:start", onStart);
      runner.off("hook:end", onEnd);
      out.write("\r\x1b[K");
    },
  };
}
