import { Form, data, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/enquiries";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { formatLondonDateTime } from "#app/domain/audit-filter";
import {
  ENQUIRY_MESSAGES,
  enquiryActionSchema,
  readEnquiryFilter,
  replyMailto,
} from "#app/domain/enquiry-inbox";
import { parseForm } from "#app/domain/forms";
import {
  INBOX_LIMIT,
  listEnquiriesForStaff,
  setEnquiryHandled,
} from "#app/services/enquiries-admin.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Enquiries", "Enquiries sent through the contact form.");
export const headers = pipeHeaders;

export const loader = staffRoute("enquiry:handle", async (args: Route.LoaderArgs, staff) => {
  const filter = readEnquiryFilter(new URL(args.request.url).searchParams.get("show"));
  const inbox = await listEnquiriesForStaff(db(), staff, filter);
  return data(
    {
      filter,
      unhandledCount: inbox.unhandledCount,
      truncated: inbox.enquiries.length >= INBOX_LIMIT,
      enquiries: inbox.enquiries.map((row) => ({
        ...row,
        received: formatLondonDateTime(row.receivedAt),
        handled: row.handledAt ? formatLondonDateTime(row.handledAt) : null,
        mailto: replyMailto(row.email, organisation.shortName),
      })),
    },
    { headers: NO_STORE },
  );
});

type ActionData = { ok: boolean; message: string; enquiryId?: string };

export const action = staffRoute("enquiry:handle", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const parsed = parseForm(enquiryActionSchema, {
    intent: form.get("intent"),
    enquiryId: form.get("enquiryId"),
  });
  if (!parsed.ok)
    return data<ActionData>({ ok: false, message: ENQUIRY_MESSAGES.missing }, { status: 400 });
  const handled = parsed.data.intent === "handle";
  const found = await setEnquiryHandled(db(), staff, parsed.data.enquiryId, handled);
  if (!found)
    return data<ActionData>({ ok: false, message: ENQUIRY_MESSAGES.missing }, { status: 404 });
  return data<ActionData>(
    {
      ok: true,
      message: handled ? ENQUIRY_MESSAGES.handled : ENQUIRY_MESSAGES.reopened,
      enquiryId: parsed.data.enquiryId,
    },
    { headers: NO_STORE },
  );
});

export default function Enquiries({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, enquiries, unhandledCount, truncated } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.state !== "idle" ? navigation.formData?.get("enquiryId") : null;
  return (
    <>
      <h1>Enquiries</h1>
      <p>
        Messages sent through the website&apos;s contact form. {unhandledCount}{" "}
        {unhandledCount === 1 ? "enquiry is" : "enquiries are"} waiting for an answer.
      </p>
      {actionData && (
        <div className="notice-panel" role={actionData.ok ? "status" : "alert"}>
          <p>{actionData.message}</p>
        </div>
      )}
      <nav aria-label="Which enquiries to show">
        <ul className="admin-actions plain-list">
          <li>
            {filter === "unhandled" ? (
              <strong aria-current="page">Unhandled</strong>
            ) : (
              <Link to="?show=unhandled">Unhandled</Link>
            )}
          </li>
          <li>
            {filter === "all" ? (
              <strong aria-current="page">All enquiries</strong>
            ) : (
              <Link to="?show=all">All enquiries</Link>
            )}
          </li>
        </ul>
      </nav>

      {truncated && (
        <p>Only the first {enquiries.length} are shown (unhandled first, then newest first).</p>
      )}
      {enquiries.length === 0 ? (
        <p>
          {filter === "unhandled" ? "No enquiries are waiting. Well done." : "No enquiries yet."}
        </p>
      ) : (
        <ol className="plain-list">
          {enquiries.map((row) => (
            <li key={row.id} className="form-section" aria-labelledby={`enquiry-${row.id}`}>
              <h2 id={`enquiry-${row.id}`}>
                {row.name}{" "}
                <span className="status-tag">{row.handledAt ? "Handled" : "Not handled"}</span>
              </h2>
              <dl className="event-details">
                <dt>Received</dt>
                <dd>{row.received}</dd>
                <dt>E-mail</dt>
                <dd>{row.email}</dd>
                <dt>Phone</dt>
                <dd>{row.phoneNumber}</dd>
                {row.handled && (
                  <>
                    <dt>Handled</dt>
                    <dd>
                      {row.handled}
                      {row.handledByName ? ` by ${row.handledByName}` : ""}
                    </dd>
                  </>
                )}
              </dl>
              <h3>Message</h3>
              <MessageText text={row.message} />
              <div className="admin-actions">
                <a className="button button--secondary" href={row.mailto}>
                  Reply by e-mail<span className="visually-hidden"> to {row.name}</span>
                </a>
                <Form method="post">
                  <input type="hidden" name="enquiryId" value={row.id} />
                  <input type="hidden" name="intent" value={row.handledAt ? "reopen" : "handle"} />
                  <button type="submit" className="button" disabled={busyId === row.id}>
                    {row.handledAt ? "Mark not handled" : "Mark handled"}
                    <span className="visually-hidden"> (enquiry from {row.name})</span>
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** What the enquirer typed, with their paragraphs and line breaks kept (as text, never HTML). */
function MessageText({ text }: { text: string }) {
  const paragraphs = text.split(/\r?\n\s*\r?\n/).filter((part) => part.trim() !== "");
  return (
    <>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>
          {paragraph.split(/\r?\n/).map((line, lineIndex) => (
            <span key={lineIndex}>
              {lineIndex > 0 && <br />}
              {line}
            </span>
          ))}
        </p>
      ))}
    </>
  );
}
