import { Suspense, useSyncExternalStore, type ReactNode } from "react";

const subscribe = () => () => {};

/**
 * False on the server and while the browser hydrates (so both render the same markup), true once
 * React runs in the browser.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Renders its children only in the browser, after hydration: for modules that need `window` and
 * for `*.client` modules, which the server build leaves empty (rendering one there is an error).
 * The server renders nothing; `loading` shows while a lazily loaded child arrives.
 */
export function ClientOnly({
  children,
  loading = null,
}: {
  children: ReactNode;
  loading?: ReactNode;
}) {
  return useHydrated() ? <Suspense fallback={loading}>{children}</Suspense> : null;
}
