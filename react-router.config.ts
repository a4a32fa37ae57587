import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's defaults, each decided (docs/decisions-new/office.md): the two that change
  // nothing our routes rely on are on; the three that change what loaders receive stay off until
  // the routes are moved over.
  future: {
    v8_viteEnvironmentApi: true,
    v8_splitRouteModules: true,
    // Would hand loaders a RouterContextProvider instead of our `context.clientAddress`.
    v8_middleware: false,
    // Would leave ".data" and "_routes" in `request.url`, which routes use for redirects and links.
    v8_passThroughRequests: false,
    // Would move data requests for "/a/" to "/a/_.data", past server/security.ts's path rules.
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
