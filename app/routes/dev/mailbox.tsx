import { data } from "react-router";
import type { Route } from "./+types/mailbox";
import { pageMeta } from "#app/components/meta";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { listOutbox } from "#app/services/email.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta("Development mailbox", "Messages the site has queued, for development only.");


export const headers = pipeHeaders;

/** Lists the outbox, so that mail can be read in development without an SMTP server. Absent in production. */
export async function loader() {
  if (!config().devMailboxEnabled) throw data(null, { status: 404 });
  const messages = await listOutbox(db(), 50);
  return data(
    {
      smtpConfigured: Boolean(config().SMTP_URL),
      messages: messages.map((message) => ({
        id: message.id,
        to: message.to,
        subject: message.subject,
        text: message.text,
        status: message.status,
        createdAt: message.createdAt.toISOString(),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  return (
    <section className="section">
      <div className="page-width">
        <h1>Development mailbox</h1>
        <p className="inset">
          For development only: this page does not exist in production.{" "}
          {loaderData.smtpConfigured
            ? "SMTP_URL is set, so these messages are also delivered."
            : "SMTP_URL is not set, so nothing is delivered; the messages wait here."}
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
            <pre>{message.text}</pre>
          </article>
        ))}
      </div>
    </section>
  );
}
