import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/portal";
import { ErrorSummary, SubmitButton, TextArea, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { PersonalDetailsFields } from "#app/components/personal-details-fields";
import { db } from "#app/db/client.server";
import { datePartsOf } from "#app/domain/age";
import { formatLongDate } from "#app/domain/date-labels";
import { formValues, parseForm, type FieldErrors } from "#app/domain/forms";
import { londonDate } from "#app/domain/london-time";
import { safeRedirect } from "#app/domain/redirect";
import { formatNhsNumber } from "#app/domain/nhs-number";
import { PROFILE_EDIT_FIELDS } from "#app/domain/field-options";
import { profileEditSchema } from "#app/domain/personal-details";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { findProfileForUser, updateOwnProfile, type Profile } from "#app/services/profiles.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Your profile", "Your personal information.");

export const headers = pipeHeaders;

const SAVE_FAILED =
  "We could not save your changes. Please try again, or call us if it keeps happening.";

/** The page carries personal and health data: never stored by a browser or proxy cache. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const profile = await findProfileForUser(db(), user.id);
  const url = new URL(request.url);
  return data(
    {
      profile: profile && portalDetails(profile),
      editing: url.searchParams.has("edit"),
      saved: url.searchParams.has("saved"),
    },
    { headers: NO_STORE },
  );
}

/** What the page shows and its form edits, named one by one: a column added later stays home. */
const PORTAL_FIELDS = [
  "firstName",
  "lastName",
  "gender",
  "dateOfBirth",
  "ethnicity",
  "occupation",
  "phone",
  "email",
  "homeAddressLine1",
  "homeAddressLine2",
  "homePostcode",
  "homeCountry",
  "billingAddress",
  "nhsNumber",
] as const satisfies readonly (keyof Profile)[];

type PortalDetails = Pick<Profile, (typeof PORTAL_FIELDS)[number]>;

function portalDetails(profile: Profile): PortalDetails {
  return Object.fromEntries(PORTAL_FIELDS.map((field) => [field, profile[field]])) as PortalDetails;
}

type ActionData = { fieldErrors?: FieldErrors; formError?: string; values: Record<string, string> };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const values = formValues(await readForm(request), ["email", "nhsNumber"]);
  const parsed = parseForm(profileEditSchema(londonDate(new Date())), values);
  const noStore = { "Cache-Control": "no-store" };
  if (!parsed.ok)
    return data<ActionData>(
      { fieldErrors: parsed.fieldErrors, values },
      { status: 400, headers: noStore },
    );
  try {
    const saved = await updateOwnProfile(db(), user.id, parsed.data);
    if (!saved.ok)
      return data<ActionData>(
        { fieldErrors: saved.fieldErrors, values },
        { status: 400, headers: noStore },
      );
  } catch (error) {
    const errorId = logError(error, { route: routeOf(request), code: "profile_save_failed" });
    return data<ActionData>(
      { formError: `${SAVE_FAILED} (Reference ${errorId})`, values },
      { status: 500, headers: noStore },
    );
  }
  // Sent here to add a detail a booking needs (the booking page's link): back to that booking.
  const back = new URL(request.url).searchParams.get("redirectTo");
  return redirect(back ? safeRedirect(back, "/portal?saved") : "/portal?saved");
}

export default function Portal({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, saved } = loaderData;
  const editing = loaderData.editing || Boolean(actionData);
  return editing && profile ? (
    <EditProfile profile={profile} result={actionData} />
  ) : (
    <>
      <h1>Personal Information</h1>
      {saved && (
        <div className="success-panel" role="status">
          <p>Your details have been saved.</p>
        </div>
      )}
      {profile ? (
        <ProfileDetails profile={profile} />
      ) : (
        <p>We could not find your details. Please call us so that we can help.</p>
      )}
      {profile && (
        <Link className="button" to="/portal?edit">
          Edit
        </Link>
      )}
    </>
  );
}

function ProfileDetails({ profile }: { profile: PortalDetails }) {
  const home = [
    profile.homeAddressLine1,
    profile.homeAddressLine2,
    profile.homePostcode,
    profile.homeCountry,
  ]
    .filter(Boolean)
    .join(", ");
  const rows: [string, string | null][] = [
    ["Name", `${profile.firstName} ${profile.lastName}`.trim() || null],
    ["Gender", profile.gender],
    ["Date of birth", profile.dateOfBirth ? formatLongDate(profile.dateOfBirth) : null],
    ["Ethnic group", profile.ethnicity],
    ["Occupation", profile.occupation],
    ["Phone", profile.phone],
    ["Email", profile.email],
    ["Home address", home || null],
    ["Billing address", profile.billingAddress],
    ["NHS number", formatNhsNumber(profile.nhsNumber)],
  ];
  return (
    <dl className="event-details">
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label} className="details-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function EditProfile({ profile, result }: { profile: PortalDetails; result?: ActionData }) {
  const navigation = useNavigation();
  const errors = result?.fieldErrors ?? {};
  const born = datePartsOf(profile.dateOfBirth);
  const home = [
    profile.homeAddressLine1,
    profile.homeAddressLine2,
    profile.homePostcode,
    profile.homeCountry,
  ]
    .filter(Boolean)
    .join(", ");
  const values: Record<string, string> = result?.values ?? {
    firstName: profile.firstName,
    lastName: profile.lastName,
    gender: profile.gender ?? "",
    "dateOfBirth-day": born.day,
    "dateOfBirth-month": born.month,
    "dateOfBirth-year": born.year,
    ethnicity: profile.ethnicity ?? "",
    occupation: profile.occupation ?? "",
    phone: profile.phone,
    homeAddressLine1: profile.homeAddressLine1,
    homeAddressLine2: profile.homeAddressLine2 ?? "",
    homePostcode: profile.homePostcode,
    homeCountry: profile.homeCountry,
    billingAddress: profile.billingAddress ?? home,
  };
  return (
    <>
      <h1>Edit Personal Information</h1>
      {result?.formError && (
        <div className="error-summary" role="alert">
          <h2 className="error-summary__title">Your changes were not saved</h2>
          <p>{result.formError}</p>
        </div>
      )}
      <ErrorSummary errors={errors} fieldOrder={PROFILE_EDIT_FIELDS} />
      <Form method="post" noValidate className="form">
        <PersonalDetailsFields purpose="profile" values={values} errors={errors} />
        <TextField
          name="email"
          type="email"
          label="Email address"
          hint="To change your e-mail address, please contact us."
          defaultValue={profile.email}
          disabled
        />
        <TextArea
          name="billingAddress"
          label="Billing address"
          rows={3}
          defaultValue={values.billingAddress}
          error={errors.billingAddress}
        />
        {profile.nhsNumber && (
          <div className="form-group">
            <p className="label">NHS number</p>
            <p>
              {formatNhsNumber(profile.nhsNumber)}{" "}
              <span className="hint">(to correct it, please contact us)</span>
            </p>
          </div>
        )}
        <div className="button-group">
          <Link className="button button--secondary" to="/portal">
            Cancel
          </Link>
          <SubmitButton busy={navigation.state !== "idle"} busyLabel="Saving...">
            Save Changes
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}
