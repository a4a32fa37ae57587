import { useSyncExternalStore, type ReactNode } from "react";
import { data } from "react-router";
import type { Route } from "./+types/mailbox";
import { pageMeta } from "#app/components/meta";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { listOutbox } from "#app/services/email.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta("Development mailbox", "Messages the site has queued, for development only.");

export const headers = pipeHeaders;

/** Lists the outbox, so that mail can be read in development without an SMTP server. Absent in production. */
export async function loader() {
  if (!config().devMailboxEnabled) throw data(null, { status: 404 });
  const messages = await listOutbox(db(), 50);
  return data(
    {
      messages: messages.map((message) => ({
        id: message.id,
        to: message.to,
        subject: message.subject,
        text: message.text,
        status: message.status,
        createdAt: message.createdAt.toISOString(),
      })),
    },
    { headers: NO_STORE },
  );
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  return (
    <section className="section">
      <div className="page-width">
        <h1>Development mailbox</h1>
        <p className="inset">
          For development only: this page exists only while SMTP_URL is not set, and never in
          production. Nothing is delivered; the messages wait here.
        </p>
        {loaderData.messages.length === 0 && <p>No messages yet.</p>}
        {loaderData.messages.map((message) => (
          <article key={message.id} className="mailbox-message">
            <h2 className="card__title">{message.subject}</h2>
            <p className="card__meta">
              To {message.to} ·{" "}
              {new Date(message.createdAt).toLocaleString("en-GB", { timeZone: "Europe/London" })} ·{" "}
              {message.status}
            </p>
            <pre>
              <LinkedText text={message.text} />
            </pre>
          </article>
        ))}
      </div>
    </section>
  );
}

/** http(s) addresses in plain text. Trailing punctuation that ends a sentence is not part of them. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * The same address on the host this page was opened on. The site writes its links with APP_URL
 * (or localhost:PORT), which is not always the address the developer reached it by (a forwarded
 * port, a container, another machine). A root-relative href always points at this page's own
 * origin, on the server render as in the browser. A `callbackURL` on the same host is made
 * relative too, so the round trip stays on this host.
 */
function sameHostHref(address: string): string {
  const url = new URL(address);
  for (const key of ["callbackURL", "redirectTo"]) {
    const value = url.searchParams.get(key);
    if (!value || !/^https?:\/\//i.test(value)) continue;
    const inner = new URL(value);
    if (inner.origin === url.origin)
      url.searchParams.set(key, `${inner.pathname}${inner.search}${inner.hash}`);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

const noSubscription = () => () => {};

/** The origin this page was opened on, once in the browser (null while rendering on the server). */
function usePageOrigin(): string | null {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => null,
  );
}

/** Plain text with its web addresses as links (React elements: the text is never parsed as HTML). */
function LinkedText({ text }: { text: string }) {
  const origin = usePageOrigin();
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const address = match[0].replace(TRAILING_PUNCTUATION, "");
    const start = match.index;
    let href: string;
    try {
      href = sameHostHref(address);
    } catch {
      continue; // not a well-formed address: leave it as text
    }
    parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={href}>
        {origin ? `${origin}${href}` : address}
      </a>,
    );
    last = start + address.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
