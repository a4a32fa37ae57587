import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's defaults, each decided (D-101 in docs/DECISIONS.md): the one that changes
  // nothing we rely on is on; the others stay off until the code is moved over.
  future: {
    v8_splitRouteModules: true,
    // Builds the server from React Router's entry instead of server/app.ts (vite.config.ts's input).
    v8_viteEnvironmentApi: false,
    // Would hand loaders a RouterContextProvider instead of our `context.clientAddress`.
    v8_middleware: false,
    // Would leave ".data" and "_routes" in `request.url`, which routes use for redirects and links.
    v8_passThroughRequests: false,
    // Would move data requests for "/a/" to "/a/_.data", past server/security.ts's path rules.
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
