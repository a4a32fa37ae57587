import os from "node:os";
import { defineConfig } from "vitest/config";
import { LastFilesLastSequencer } from "./tests/e2e/sequencer.ts";

/**
 * Integration files each work their own PGlite (CPU) while vitest's main process mostly waits, so
 * even a two-core machine runs two at a time (vitest's default is one fewer than the cores).
 */
const UNIT_AND_INTEGRATION_WORKERS = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    sequence: { sequencer: LastFilesLastSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          environment: "node",
          // Unit tests are pure, so their files share one module graph instead of each loading
          // its own (about 13 s down to 3 s). A file that changes module state (vi.mock, fake
          // timers, the process's database) restores it afterwards, or belongs in integration.
          isolate: false,
          maxWorkers: UNIT_AND_INTEGRATION_WORKERS,
          // A test that asserts nothing (it only logs, or its loop never ran) fails.
          expect: { requireAssertions: true },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          expect: { requireAssertions: true },
          maxWorkers: UNIT_AND_INTEGRATION_WORKERS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          // As above: a browser test that only waits for something, and never asserts, fails.
          expect: { requireAssertions: true },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // After the unit and integration tests, not beside them: the browser tests' server
          // and Chromium want the machine to themselves.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
