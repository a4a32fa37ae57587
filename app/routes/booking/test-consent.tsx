import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/test-consent";
import { ConsentForm } from "#app/components/consent-form";
import { FocusedAlert } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { consentFormInput, parseConsentForm } from "#app/domain/consent";
import { formatLongDate } from "#app/domain/date-labels";
import { recordConsent } from "#app/services/booking/consent.server";
import { checkConsentLink } from "#app/services/consent-links.server";
import { logError, routeOf } from "#app/services/log.server";
import { getSessionUser } from "#app/services/session.server";
import { TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Consent form", "Give your consent for your PSA test.");

export const headers = pipeHeaders;

/** The spec's messages for the stand-alone consent page. */
export const TEST_CONSENT_MESSAGES = {
  invalid: "Invalid or missing parameters. Please check your link or contact support.",
  missing: "Missing profile or date information. Cannot submit consent form.",
  failed: "Failed to save consent. Please try again.",
  unexpected: "An unexpected error occurred. Please try again.",
  successTitle: "Success",
  success: "Consent form submitted successfully!",
} as const;

/**
 * `/test-consent?profile_id=…&test_date=…`: consent without a booking, for a test arranged another
 * way. Only a signed, unexpired link or the profile's signed-in owner may use it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getSessionUser(request);
  const link = await checkConsentLink(db(), url.searchParams, user?.id ?? null);
  if (!link.ok)
    return data({ valid: false as const }, { status: 400, headers: TOKEN_LINK_HEADERS });
  return data({ valid: true as const, testDate: link.testDate }, { headers: TOKEN_LINK_HEADERS });
}

export async function action({ request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const user = await getSessionUser(request);
  const link = await checkConsentLink(db(), url.searchParams, user?.id ?? null);
  const form = await readForm(request);
  // Whatever goes wrong, the answers come back with the page: nothing typed is lost.
  const values = consentFormInput(form);
  if (!link.ok) {
    const message =
      link.reason === "missing" ? TEST_CONSENT_MESSAGES.missing : TEST_CONSENT_MESSAGES.invalid;
    return data({ formError: message, values }, { status: 400, headers: TOKEN_LINK_HEADERS });
  }
  const parsed = parseConsentForm(form);
  if (!parsed.ok)
    return data(
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      { status: 400, headers: TOKEN_LINK_HEADERS },
    );
  try {
    await recordConsent(db(), { userId: link.userId, testDate: link.testDate, form: parsed.data });
  } catch (error) {
    const errorId = logError(error, { route: routeOf(request), code: "consent_save_failed" });
    return data(
      { formError: `${TEST_CONSENT_MESSAGES.failed} (Reference ${errorId})`, values },
      { status: 500, headers: TOKEN_LINK_HEADERS },
    );
  }
  return data({ saved: true as const }, { headers: TOKEN_LINK_HEADERS });
}

export default function TestConsent({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.valid) {
    return (
      <section className="section">
        <div className="page-width narrow">
          <h1>Consent form</h1>
          <p className="warning" role="alert">
            {TEST_CONSENT_MESSAGES.invalid}
          </p>
          <Link className="button" to="/">
            Go to the home page
          </Link>
        </div>
      </section>
    );
  }
  if (actionData && "saved" in actionData) {
    return (
      <section className="section">
        <div className="page-width narrow">
          <div className="success-panel" role="status">
            <h1>{TEST_CONSENT_MESSAGES.successTitle}</h1>
            <p>{TEST_CONSENT_MESSAGES.success}</p>
          </div>
          <Link className="button" to="/">
            Go to the home page
          </Link>
        </div>
      </section>
    );
  }
  const errors = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined;
  const values = actionData && "values" in actionData ? actionData.values : undefined;
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Consent form</h1>
        <p className="lede">For your PSA test on {formatLongDate(loaderData.testDate)}.</p>
        {formError && (
          <FocusedAlert
            block="notification"
            title="Your consent was not saved"
            focusKey={actionData}
          >
            <p>{formError}</p>
          </FocusedAlert>
        )}
        <ConsentForm
          values={values}
          errors={errors}
          submitLabel="Submit"
          busyLabel="Submitting..."
        />
      </div>
    </section>
  );
}
