import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/staff";
import { ErrorSummary, SubmitButton, TextField, fieldId } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { formatLondonDateTime } from "#app/domain/audit-filter";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from "#app/domain/roles";
import { accountSchema, inviteSchema, revokeSchema, rolesSchema } from "#app/domain/staff-admin";
import { STAFF_MESSAGES } from "#app/domain/staff-messages";
import { staffRoute } from "#app/services/guards.server";
import {
  changeAccountActive,
  changeStaffRoles,
  inviteStaffMember,
  resetTwoFactor,
  revokeInvitation,
  viewStaff,
} from "#app/services/staff.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { ownEntry } from "#app/utils/own-entry";

export const meta = () => pageMeta("Staff", "Who can use the back office, and what they can do.");
export const headers = pipeHeaders;

/** What a finished change says, after the redirect back to this page (?done=…). */
const DONE_MESSAGES = {
  invited: STAFF_MESSAGES.invited,
  roles: STAFF_MESSAGES.rolesSaved,
  staffAccessEnded: STAFF_MESSAGES.staffAccessEnded,
  deactivated: STAFF_MESSAGES.deactivated,
  reactivated: STAFF_MESSAGES.reactivated,
  revoked: STAFF_MESSAGES.revoked,
  twoFactorReset: STAFF_MESSAGES.twoFactorReset,
} as const;

function doneMessage(value: string | null): string | null {
  return ownEntry(DONE_MESSAGES, value) ?? null;
}

export const loader = staffRoute("staff:manage", async (args: Route.LoaderArgs, staff) => {
  const url = new URL(args.request.url);
  const { people, invitations } = await viewStaff(db(), staff);
  // The no-JavaScript confirmation step: ?deactivate=<id> asks "are you sure?" and changes nothing.
  const askId = url.searchParams.get("deactivate");
  const asked = people.find((person) => person.id === askId && !person.deactivatedAt);
  return data(
    {
      me: staff.id,
      done: doneMessage(url.searchParams.get("done")),
      confirm:
        asked && asked.id !== staff.id
          ? { id: asked.id, name: asked.name, email: asked.email }
          : null,
      confirmSelf: asked?.id === staff.id,
      people: people.map((person) => ({
        id: person.id,
        name: person.name,
        email: person.email,
        roles: person.roles,
        twoFactorEnabled: person.twoFactorEnabled,
        deactivated: person.deactivatedAt ? formatLondonDateTime(person.deactivatedAt) : null,
      })),
      invitations: invitations.map((invitation) => ({
        id: invitation.id,
        email: invitation.email,
        roles: invitation.roles,
        sent: formatLondonDateTime(invitation.createdAt),
        expires: formatLondonDateTime(invitation.expiresAt),
      })),
    },
    { headers: NO_STORE },
  );
});

type ActionData = {
  intent: string;
  fieldErrors: FieldErrors;
  values?: Record<string, string>;
  roles?: string[];
  userId?: string;
};

function problem(body: ActionData, status = 400) {
  return data<ActionData>(body, { status, headers: NO_STORE });
}

export const action = staffRoute("staff:manage", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const roles = form.getAll("roles").map(String);

  if (intent === "invite") {
    const parsed = parseForm(inviteSchema, { ...formValues(form, ["intent"]), roles });
    if (!parsed.ok)
      return problem({ intent, fieldErrors: parsed.fieldErrors, values: parsed.values, roles });
    const invited = await inviteStaffMember(db(), staff, {
      email: parsed.data.email,
      roles: parsed.data.roles,
      baseUrl: config().publicBaseUrl,
    });
    if (!invited.ok)
      return problem({
        intent,
        fieldErrors: { email: STAFF_MESSAGES[invited.reason] },
        values: { email: parsed.data.email },
        roles,
      });
    return redirect("/admin/staff?done=invited");
  }

  if (intent === "roles") {
    const userId = String(form.get("userId") ?? "");
    const key = `roles-${userId}`;
    const parsed = parseForm(rolesSchema, { userId, roles });
    if (!parsed.ok)
      return problem({
        intent,
        userId,
        roles,
        fieldErrors: { [key]: parsed.fieldErrors.roles ?? STAFF_MESSAGES.missing },
      });
    const result = await changeStaffRoles(db(), staff, parsed.data.userId, parsed.data.roles);
    if (!result.ok)
      return problem(
        { intent, userId, roles, fieldErrors: { [key]: STAFF_MESSAGES[result.reason] } },
        result.reason === "missing" ? 404 : 400,
      );
    return redirect(
      `/admin/staff?done=${parsed.data.roles.length > 0 ? "roles" : "staffAccessEnded"}`,
    );
  }

  if (intent === "deactivate" || intent === "reactivate") {
    const parsed = parseForm(accountSchema, { userId: form.get("userId") });
    if (!parsed.ok) return problem({ intent, fieldErrors: { account: STAFF_MESSAGES.missing } });
    const active = intent === "reactivate";
    const result = await changeAccountActive(db(), staff, parsed.data.userId, active);
    if (!result.ok)
      return problem(
        {
          intent,
          userId: parsed.data.userId,
          fieldErrors: { account: STAFF_MESSAGES[result.reason] },
        },
        result.reason === "missing" ? 404 : 400,
      );
    return redirect(`/admin/staff?done=${active ? "reactivated" : "deactivated"}`);
  }

  if (intent === "reset-two-factor") {
    const parsed = parseForm(accountSchema, { userId: form.get("userId") });
    if (!parsed.ok) return problem({ intent, fieldErrors: { account: STAFF_MESSAGES.missing } });
    const result = await resetTwoFactor(db(), staff, parsed.data.userId);
    if (!result.ok)
      return problem(
        {
          intent,
          userId: parsed.data.userId,
          fieldErrors: { account: STAFF_MESSAGES[result.reason] },
        },
        result.reason === "missing" ? 404 : 400,
      );
    return redirect("/admin/staff?done=twoFactorReset");
  }

  if (intent === "revoke") {
    const parsed = parseForm(revokeSchema, { invitationId: form.get("invitationId") });
    const revoked = parsed.ok && (await revokeInvitation(db(), staff, parsed.data.invitationId));
    if (!revoked)
      return problem({ intent, fieldErrors: { invitation: STAFF_MESSAGES.missing } }, 404);
    return redirect("/admin/staff?done=revoked");
  }

  return problem({ intent, fieldErrors: { form: STAFF_MESSAGES.missing } });
});

function RoleCheckboxes({
  name,
  idBase,
  checked,
  legend,
  hint,
  error,
}: {
  name: string;
  idBase: string;
  checked: readonly string[];
  legend: string;
  hint?: string;
  error?: string;
}) {
  const id = fieldId(idBase);
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <fieldset className="fieldset" aria-describedby={describedBy || undefined}>
        <legend className="label">{legend}</legend>
        {hint && (
          <span className="field-hint" id={`${id}-hint`}>
            {hint}
          </span>
        )}
        {error && (
          <span className="field-error" id={`${id}-error`}>
            <span className="visually-hidden">Error:</span> {error}
          </span>
        )}
        <div className="checkboxes">
          {STAFF_ROLES.map((role, index) => {
            const optionId = index === 0 ? id : `${id}-${role}`;
            return (
              <div className="checkbox" key={role}>
                <input
                  id={optionId}
                  type="checkbox"
                  name={name}
                  value={role}
                  defaultChecked={checked.includes(role)}
                />
                <label htmlFor={optionId}>{ROLE_LABELS[role]}</label>
              </div>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}

const roleList = (roles: readonly StaffRole[]) => roles.map((role) => ROLE_LABELS[role]).join(", ");

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const { me, done, confirm, confirmSelf, people, invitations } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const pendingIntent = busy ? String(navigation.formData?.get("intent") ?? "") : "";
  const inviteErrors = actionData?.intent === "invite" ? actionData.fieldErrors : {};
  const otherError =
    actionData && actionData.intent !== "invite" && actionData.intent !== "roles"
      ? Object.values(actionData.fieldErrors)[0]
      : undefined;
  // The key of a role form's error, and the roles that were ticked when it was refused.
  const rolesError = actionData?.intent === "roles" ? actionData : undefined;

  return (
    <>
      <h1>Staff</h1>
      {done && (
        <div className="notice-panel" role="status">
          <p>{done}</p>
        </div>
      )}
      <ErrorSummary errors={rolesError?.fieldErrors ?? inviteErrors} />
      {otherError && (
        <div className="notice-panel" role="alert">
          <p>{otherError}</p>
        </div>
      )}

      {confirm && (
        <div className="notice-panel" id="confirm" role="region" aria-labelledby="confirm-title">
          <h2 id="confirm-title">Deactivate {confirm.name}?</h2>
          <p>
            {confirm.name} ({confirm.email}) will be signed out at once and will not be able to sign
            in until an admin reactivates the account.
          </p>
          <p>
            That includes their own bookings and results, if they have been screened with us. To end
            only their staff access, untick all their roles instead.
          </p>
          <div className="admin-actions">
            <Form method="post" action="/admin/staff">
              <input type="hidden" name="intent" value="deactivate" />
              <input type="hidden" name="userId" value={confirm.id} />
              <SubmitButton busy={busy} busyLabel="Deactivating...">
                Yes, deactivate {confirm.name}
              </SubmitButton>
            </Form>
            <Link to="/admin/staff">No, keep the account active</Link>
          </div>
        </div>
      )}
      {confirmSelf && (
        <div className="notice-panel" role="alert">
          <p>{STAFF_MESSAGES.ownAccount}</p>
        </div>
      )}

      <h2>Staff accounts</h2>
      <ul className="plain-list">
        {people.map((person) => {
          const isMe = person.id === me;
          const errorKey = `roles-${person.id}`;
          const error =
            rolesError?.userId === person.id ? rolesError.fieldErrors[errorKey] : undefined;
          const checked = error ? (rolesError?.roles ?? []) : person.roles;
          return (
            <li key={person.id} className="form-section">
              <h3>
                {person.name || person.email}
                {isMe && " (you)"}
              </h3>
              <dl className="event-details">
                <dt>E-mail</dt>
                <dd>{person.email}</dd>
                <dt>Roles</dt>
                <dd>{roleList(person.roles)}</dd>
                <dt>Two-factor sign-in</dt>
                <dd>{person.twoFactorEnabled ? "On" : "Off (set up at their next sign-in)"}</dd>
                <dt>Account</dt>
                <dd>
                  <span className="status-tag">
                    {person.deactivated ? `Deactivated ${person.deactivated}` : "Active"}
                  </span>
                </dd>
              </dl>
              <details open={Boolean(error)}>
                <summary>Change roles or access for {person.name || person.email}</summary>
                <Form method="post" action="/admin/staff" className="form" noValidate>
                  <input type="hidden" name="intent" value="roles" />
                  <input type="hidden" name="userId" value={person.id} />
                  <RoleCheckboxes
                    name="roles"
                    idBase={errorKey}
                    checked={checked}
                    legend={`Roles for ${person.name || person.email}`}
                    hint={
                      isMe
                        ? "You cannot remove your own Admin role."
                        : "Untick every role to end their staff access but keep their own account."
                    }
                    error={error}
                  />
                  <SubmitButton busy={busy && pendingIntent === "roles"} busyLabel="Saving...">
                    Save roles<span className="visually-hidden"> for {person.name}</span>
                  </SubmitButton>
                </Form>
                {!isMe && person.twoFactorEnabled && (
                  <Form method="post" action="/admin/staff">
                    <input type="hidden" name="intent" value="reset-two-factor" />
                    <input type="hidden" name="userId" value={person.id} />
                    <p className="field-hint">
                      If they have lost their phone and their recovery codes: they are signed out
                      and set two-factor sign-in up again at their next sign-in.
                    </p>
                    <SubmitButton
                      busy={busy && pendingIntent === "reset-two-factor"}
                      busyLabel="Resetting..."
                      className="button--secondary"
                    >
                      Reset two-factor sign-in
                      <span className="visually-hidden"> for {person.name || person.email}</span>
                    </SubmitButton>
                  </Form>
                )}
                {isMe ? (
                  <p>You cannot deactivate your own account.</p>
                ) : person.deactivated ? (
                  <Form method="post" action="/admin/staff">
                    <input type="hidden" name="intent" value="reactivate" />
                    <input type="hidden" name="userId" value={person.id} />
                    <SubmitButton
                      busy={busy && pendingIntent === "reactivate"}
                      busyLabel="Reactivating..."
                      className="button--secondary"
                    >
                      Reactivate<span className="visually-hidden"> {person.name}</span>
                    </SubmitButton>
                  </Form>
                ) : (
                  <p>
                    <Link
                      className="button button--secondary"
                      to={`/admin/staff?deactivate=${encodeURIComponent(person.id)}#confirm`}
                    >
                      Deactivate<span className="visually-hidden"> {person.name}</span>
                    </Link>
                  </p>
                )}
              </details>
            </li>
          );
        })}
      </ul>

      <section className="form-section" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite someone</h2>
        <p>
          They get an e-mail with a link to set up their account. The link works once, for 3 days.
          They choose a password and set up two-factor sign-in.
        </p>
        <Form method="post" action="/admin/staff" className="form" noValidate>
          <input type="hidden" name="intent" value="invite" />
          <TextField
            name="email"
            type="email"
            label="E-mail address"
            autoComplete="off"
            spellCheck={false}
            defaultValue={actionData?.intent === "invite" ? actionData.values?.email : ""}
            error={inviteErrors.email}
          />
          <RoleCheckboxes
            name="roles"
            idBase="roles"
            checked={actionData?.intent === "invite" ? (actionData.roles ?? []) : []}
            legend="Roles"
            hint="Tick at least one. Admins manage staff and read the audit log; coordinators run events and check-in; clinicians import and release results; event staff only check people in on the day."
            error={inviteErrors.roles}
          />
          <SubmitButton busy={busy && pendingIntent === "invite"} busyLabel="Sending...">
            Send invitation
          </SubmitButton>
        </Form>
      </section>

      <section className="form-section" aria-labelledby="invitations-title">
        <h2 id="invitations-title">Invitations not yet used</h2>
        {invitations.length === 0 ? (
          <p>None.</p>
        ) : (
          <div
            className="table-scroll"
            role="region"
            aria-label="Invitations not yet used"
            tabIndex={0}
          >
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Roles</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Link works until</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <th scope="row">{invitation.email}</th>
                    <td>{roleList(invitation.roles)}</td>
                    <td>{invitation.sent}</td>
                    <td>{invitation.expires}</td>
                    <td>
                      <Form method="post" action="/admin/staff">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="invitationId" value={invitation.id} />
                        <button type="submit" className="button button--secondary" disabled={busy}>
                          Revoke
                          <span className="visually-hidden">
                            {" "}
                            the invitation to {invitation.email}
                          </span>
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
