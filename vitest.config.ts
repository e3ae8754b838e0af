import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/summaryReporter.ts"],
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real processes; two workers match the two cores CI has.
    maxWorkers: 2,
    fileParallelism: true,
    // `npm test` runs with --coverage: CLI cases run main() in process (test/helpers/cli.ts
    // runMain), so src/cli counts too. The thresholds sit just under what the suite reaches, so a
    // change that drops coverage fails CI; raise them when coverage rises.
    coverage: {
      provider: "v8",
      include: ["src/**"],
      exclude: ["src/**/*.generated.ts"],
      reporter: ["text-summary", "json-summary"],
      thresholds: { statements: 87, branches: 80, functions: 89, lines: 90 },
    },
  },
});
