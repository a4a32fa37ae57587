import { useEffect, useRef, useState } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useRouteError,
} from "react-router";
import type { Route } from "./+types/root";
import { getSessionUser } from "./services/session.server";
import { useNonce } from "./components/nonce";
import { NotFound } from "./components/not-found";
import { errorReferenceOf } from "./utils/error-reference";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { BackOfficeHeader } from "./components/admin/back-office-header";
import { PageScriptsProvider } from "./components/link";
import { organisation } from "./content/organisation";
import stylesheet from "./styles/app.css?url";
import { pipeHeaders } from "./utils/headers";
import { pageNeedsScripts } from "./utils/page-scripts";

export const links: Route.LinksFunction = () => [
  // A precedence makes React put the stylesheet ahead of the pages' script preloads, so that on a
  // slow line the one file that blocks the first paint is not queued behind scripts that do not.
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** Who is signed in, for the header's Login / Portal button. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  // A page for someone signed in is theirs alone: no browser or proxy may keep a copy.
  return data(
    { signedIn: Boolean(user) },
    user ? { headers: { "Cache-Control": "private, no-store" } } : undefined,
  );
}

export const headers = pipeHeaders;

/** Paths whose pages show no footer (the spec hides it on the news page). */
const PATHS_WITHOUT_FOOTER = new Set(["/news"]);

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const { pathname } = useLocation();
  const scripts = pageNeedsScripts(useMatches().map((match) => match.handle));
  // Only a page with scripts is ever rendered in the browser: the router is running.
  const routerStarted = typeof document !== "undefined";
  const isBackOffice = pathname === "/admin" || pathname.startsWith("/admin/");
  return (
    <html lang="en-GB" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#13294b" />
        <Meta />
        {/* The browser blanks nonce attributes before hydration, so the client's "" matches. */}
        <Links nonce={scripts ? nonce : undefined} />
        {/* Marks that scripts run, so menus start closed only when they can be opened. */}
        {scripts && <script nonce={nonce}>{`document.documentElement.classList.add("js")`}</script>}
      </head>
      <body>
        <a className="skip-link" href="#main-content">
          Skip to main content
        </a>
        <PageScriptsProvider value={scripts}>
          {isBackOffice ? <BackOfficeHeader /> : <SiteHeader />}
          <main id="main-content" tabIndex={-1}>
            {children}
          </main>
          {!isBackOffice && !PATHS_WITHOUT_FOOTER.has(pathname) && <SiteFooter />}
        </PageScriptsProvider>
        {/* A page without scripts is plain HTML: no router, no scroll keeping, no hydration. Once
            a page with scripts has started the router, a link or form may take it to a page
            without: the announcer and the scroll keeping stay, so that page opens at its top,
            with focus at its start, as it would from the server. */}
        {(scripts || routerStarted) && (
          <>
            <RouteAnnouncer />
            <ScrollRestoration nonce={nonce} />
          </>
        )}
        {scripts && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

/**
 * After a client-side navigation to another page: tells screen-reader users that a new page
 * loaded, and puts focus at the start of its content, as a page from the server starts (the link
 * that was pressed has gone, and the next Tab would otherwise start from where it was).
 */
function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [message, setMessage] = useState("");
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById("main-content")?.focus({ preventScroll: true });
    const timer = setTimeout(() => setMessage(document.title), 100);
    return () => clearTimeout(timer);
  }, [pathname]);
  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true">
      {message}
    </p>
  );
}

export default function App() {
  return <Outlet />;
}

/** What each refusal means, in words for the person who met it. */
const ERROR_PAGES: Record<number, { title: string; body: string }> = {
  400: {
    title: "We could not read that",
    body: "Something in what was sent could not be read. Please go back and try again.",
  },
  403: {
    title: "You do not have permission to see this page",
    body: "If you think you should, please contact us.",
  },
  413: {
    title: "That was too much to send",
    body: "Please go back, shorten what you typed, and try again.",
  },
  415: {
    title: "We could not read that",
    body: "Please go back and send the form again from our website.",
  },
  429: {
    title: "Please wait a few minutes",
    body: "There have been too many attempts. Please wait a few minutes and try again.",
  },
  503: {
    title: "This part of our website is not available just now",
    body: "Please try again in a few minutes.",
  },
};

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (typeof window !== "undefined" && !isRouteErrorResponse(error)) reportClientError(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const reference = errorReferenceOf(error);
  const page = ERROR_PAGES[status] ?? {
    title: "Sorry, something went wrong",
    body: "Please try again in a few minutes.",
  };
  return (
    <div className="page-width section">
      <title>{`Error: ${page.title} | ${organisation.name}`}</title>
      <h1>{page.title}</h1>
      <p>{page.body}</p>
      <p>
        If it keeps happening, call us on{" "}
        <a href={`tel:${organisation.phones.general.tel}`}>{organisation.phones.general.display}</a>
        .
      </p>
      <p className="hint">
        Error code {status}.
        {reference && ` Reference ${reference}: please give it if you contact us about this.`}
      </p>
      <p>
        <a href="/">Go back home</a>
      </p>
    </div>
  );
}

function reportClientError(error: unknown) {
  const errorMessage = error instanceof Error ? error.message : String(error);
  void fetch("/api/logs/error", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      errorMessage: errorMessage.slice(0, 500),
      description: error instanceof Error ? (error.stack ?? "").slice(0, 2000) : undefined,
      page: window.location.pathname,
    }),
  }).catch(() => undefined);
}
