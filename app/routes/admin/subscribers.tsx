import { data } from "react-router";
import type { Route } from "./+types/subscribers";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { staffRoute } from "#app/services/guards.server";
import { countCurrentSubscribers } from "#app/services/subscriptions.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Newsletter subscribers", "Download the newsletter list.");
export const headers = pipeHeaders;

export const loader = staffRoute("subscriber:export", async (_args: Route.LoaderArgs) => {
  return data({ count: await countCurrentSubscribers(db()) }, { headers: NO_STORE });
});

export default function Subscribers({ loaderData }: Route.ComponentProps) {
  const { count } = loaderData;
  return (
    <>
      <h1>Newsletter subscribers</h1>
      <p>
        <strong>{count}</strong> {count === 1 ? "person is" : "people are"} subscribed to the
        newsletter. People who used the unsubscribe link in our e-mails are not counted and are left
        out of the download.
      </p>
      {count > 0 ? (
        <p>
          {/* A file download: a plain link, so the browser saves it instead of the router loading it. */}
          <a className="button" href="/admin/subscribers.csv" download>
            Download CSV<span className="visually-hidden"> of newsletter subscribers</span>
          </a>
        </p>
      ) : (
        <p>There is nobody to download yet.</p>
      )}
      <h2>Looking after this list</h2>
      <ul>
        <li>
          The file holds people&apos;s names and e-mail addresses. Keep it safe and delete it once
          you have used it. Every download is recorded in the audit log.
        </li>
        <li>Every newsletter must tell people how to unsubscribe.</li>
      </ul>
    </>
  );
}
