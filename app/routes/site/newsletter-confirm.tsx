import { Form, data, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/newsletter-confirm";
import { SubmitButton } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { NEWSLETTER_CONFIRM_MESSAGES } from "#app/domain/newsletter-confirm";
import { maskEmail } from "#app/domain/unsubscribe";
import {
  checkNewsletterConfirmation,
  type NewsletterConfirmCheck,
} from "#app/services/newsletter-confirmation.server";
import { confirmNewsletterSubscription } from "#app/services/subscriptions.server";
import { TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => [
  ...pageMeta(
    "Confirm your subscription",
    `Confirm that you want the ${organisation.shortName} newsletter.`,
  ),
  { name: "robots", content: "noindex" },
];
export const headers = pipeHeaders;

type PageState =
  | { state: "confirm"; token: string; maskedEmail: string; name: string }
  | { state: "done"; maskedEmail: string }
  | { state: "refused"; message: string };

function refusal(check: Extract<NewsletterConfirmCheck, { ok: false }>) {
  const status = check.reason === "missing" || check.reason === "invalid" ? 400 : 410;
  return data<PageState>(
    { state: "refused", message: NEWSLETTER_CONFIRM_MESSAGES[check.reason] },
    { status, headers: TOKEN_LINK_HEADERS },
  );
}

/** GET shows what the link would do and changes nothing: mail scanners follow links. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const check = await checkNewsletterConfirmation(db(), token);
  if (!check.ok) return refusal(check);
  return data<PageState>(
    {
      state: "confirm",
      token: token!,
      maskedEmail: maskEmail(check.request.email),
      name: check.request.name,
    },
    { headers: TOKEN_LINK_HEADERS },
  );
}

/** POST, from the page's button, subscribes. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = form.get("token");
  const result = await confirmNewsletterSubscription(
    db(),
    typeof token === "string" ? token : null,
  );
  if (!result.ok) return refusal(result);
  return data<PageState>(
    { state: "done", maskedEmail: maskEmail(result.request.email) },
    { headers: TOKEN_LINK_HEADERS },
  );
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData ?? loaderData;
  const navigation = useNavigation();
  return (
    <section className="section">
      <div className="page-width narrow">
        {page.state === "confirm" && (
          <>
            <h1>Confirm your subscription to the {organisation.shortName} newsletter</h1>
            <p>
              We will send our newsletter to <strong>{page.maskedEmail}</strong>, addressed to{" "}
              <strong>{page.name}</strong>, a few times a year.
            </p>
            <p>If you did not ask for this, just close this page: nothing changes.</p>
            <Form method="post" className="form">
              <input type="hidden" name="token" value={page.token} />
              <SubmitButton busy={navigation.state !== "idle"} busyLabel="Confirming...">
                Confirm subscription
              </SubmitButton>
            </Form>
          </>
        )}
        {page.state === "done" && (
          <>
            <div className="success-panel" role="status">
              <h1>{NEWSLETTER_CONFIRM_MESSAGES.done}</h1>
              <p>We will send our newsletter to {page.maskedEmail}.</p>
            </div>
            <p>
              Every newsletter ends with a link to unsubscribe, which works without signing in.{" "}
              <Link to="/news">Read our latest news</Link>.
            </p>
          </>
        )}
        {page.state === "refused" && (
          <>
            <h1>We could not confirm your subscription with this link</h1>
            <p>{page.message}</p>
            <p>
              <Link to="/news#newsletter">Subscribe on our news page</Link>, or e-mail{" "}
              <a href={`mailto:${organisation.emails.info}`}>{organisation.emails.info}</a> for
              help.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
