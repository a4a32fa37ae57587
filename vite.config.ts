import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/**
 * React Router 7.18 (the newest 7.x) passes Vite 8 the deprecated `envFile: false` for each of its
 * internal compilers, with loggers of its own that no option reaches, and Vite warns each time
 * (nine lines a build). Nothing of ours sets `envFile`, so that exact line, and only it, is dropped
 * from this process's console; every other warning is kept. Remove once React Router stops.
 */
const ENV_FILE_DEPRECATION =
  "The `envFile` option is deprecated, please use `envDir: false` instead.";
const consoleWarn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes(ENV_FILE_DEPRECATION)) return;
  consoleWarn(...args);
};

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { tsconfigPaths: true },
  build: {
    // The server build bundles the Express app (headers, rate limits, API wiring) with the routes.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  plugins: [reactRouter()],
}));
