import { Form, data, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/unsubscribe";
import { SubmitButton } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { UNSUBSCRIBE_MESSAGES, maskEmail } from "#app/domain/unsubscribe";
import {
  checkUnsubscribeToken,
  unsubscribeWithToken,
  type UnsubscribeCheck,
} from "#app/services/unsubscribe.server";
import { TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => [
  ...pageMeta("Unsubscribe", `Stop getting the ${organisation.shortName} newsletter.`),
  { name: "robots", content: "noindex" },
];
export const headers = pipeHeaders;

type PageState =
  | { state: "confirm"; token: string; maskedEmail: string }
  | { state: "done" | "already"; maskedEmail: string }
  | { state: "refused"; message: string };

function refusal(check: Extract<UnsubscribeCheck, { ok: false }>) {
  const status = check.reason === "unknown" ? 404 : 400;
  return data<PageState>(
    { state: "refused", message: UNSUBSCRIBE_MESSAGES[check.reason] },
    { status, headers: TOKEN_LINK_HEADERS },
  );
}

/** GET shows what the link would do and changes nothing: mail scanners follow links. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const check = await checkUnsubscribeToken(db(), token);
  if (!check.ok) return refusal(check);
  const maskedEmail = maskEmail(check.email);
  return data<PageState>(
    check.unsubscribed
      ? { state: "already", maskedEmail }
      : { state: "confirm", token: token!, maskedEmail },
    { headers: TOKEN_LINK_HEADERS },
  );
}

/**
 * POST unsubscribes: the page's button, or a mail program's one-click unsubscribe (RFC 8058: a
 * POST to the link itself with the body "List-Unsubscribe=One-Click", so the token is in the URL).
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const fromForm = form.get("token");
  const token =
    typeof fromForm === "string" && fromForm
      ? fromForm
      : new URL(request.url).searchParams.get("token");
  const result = await unsubscribeWithToken(db(), token);
  if (!result.ok) return refusal(result);
  return data<PageState>(
    { state: "done", maskedEmail: maskEmail(result.email) },
    { headers: TOKEN_LINK_HEADERS },
  );
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData ?? loaderData;
  const navigation = useNavigation();
  return (
    <section className="section">
      <div className="page-width narrow">
        {page.state === "confirm" && (
          <>
            <h1>Unsubscribe from the {organisation.shortName} newsletter</h1>
            <p>
              We will stop sending our newsletter to <strong>{page.maskedEmail}</strong>. It takes
              effect at once.
            </p>
            <p>If you would rather keep getting it, just close this page.</p>
            <Form method="post" className="form">
              <input type="hidden" name="token" value={page.token} />
              <SubmitButton busy={navigation.state !== "idle"} busyLabel="Unsubscribing...">
                Unsubscribe
              </SubmitButton>
            </Form>
          </>
        )}
        {(page.state === "done" || page.state === "already") && (
          <>
            <div className="success-panel" role="status">
              <h1>
                {page.state === "done" ? UNSUBSCRIBE_MESSAGES.done : UNSUBSCRIBE_MESSAGES.already}
              </h1>
              <p>We will not send the newsletter to {page.maskedEmail} again.</p>
            </div>
            <p>
              If this was a mistake, you can <Link to="/news#newsletter">subscribe again</Link> on
              our news page.
            </p>
          </>
        )}
        {page.state === "refused" && (
          <>
            <h1>We could not unsubscribe you with this link</h1>
            <p>{page.message}</p>
            <p>
              You can also e-mail{" "}
              <a href={`mailto:${organisation.emails.info}`}>{organisation.emails.info}</a> and ask
              us to take your address off the list.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
