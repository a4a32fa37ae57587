import { APIError } from "better-auth";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#app/db/client.server";
import { user, verification } from "#app/db/schema";
import { newPasswordFields, prepareNewPassword } from "#app/domain/fields";
import { parseForm, type FieldErrors } from "#app/domain/forms";
import { PASSWORD_MESSAGES } from "#app/domain/password";
import { auth } from "./auth.server";
import { forgetFailedSignIns } from "./session.server";

/** better-auth's tokens are letters and digits; anything else (a NUL, say) never reaches a query. */
const tokenField = z
  .string()
  .min(1, { error: PASSWORD_MESSAGES.resetLinkExpired })
  .max(200, { error: PASSWORD_MESSAGES.resetLinkExpired })
  .regex(/^[A-Za-z0-9_-]+$/, { error: PASSWORD_MESSAGES.resetLinkExpired });

/**
 * The name and e-mail address of the account a reset link is for (better-auth keeps the link as
 * `reset-password:TOKEN`, its value the user's id): the words a guesser tries first are refused in
 * the new password, as they are at sign-up, and its sign-in limits are lifted once it is set.
 * None for a link that is unknown or spent.
 */
async function resetLinkOwner(
  db: Db,
  token: string,
): Promise<{ name: string; email: string } | undefined> {
  const [owner] = await db
    .select({ name: user.name, email: user.email })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(eq(verification.identifier, `reset-password:${token}`));
  return owner;
}

/**
 * Sets a new password from the e-mailed reset link. The only way to reset one (better-auth's own
 * endpoint is not exposed), so the password rules for this account are checked here.
 */
export async function resetPasswordFromLink(
  db: Db,
  form: { newPassword: string; confirmPassword: string; token: string },
  headers: Headers,
): Promise<{ ok: true } | { ok: false; fieldErrors: FieldErrors }> {
  const token = tokenField.safeParse(form.token);
  const owner = token.success ? await resetLinkOwner(db, token.data) : undefined;
  const words = owner ? [...owner.name.split(/\s+/), owner.email] : [];
  const schema = z.preprocess(
    (input) => {
      const values = input as Record<string, unknown>;
      const prepared = prepareNewPassword(values, words, {
        password: "newPassword",
        confirm: "confirmPassword",
      });
      return {
        ...values,
        newPassword: prepared.password,
        confirmPassword: prepared.confirmPassword,
      };
    },
    z.object({
      newPassword: newPasswordFields.password,
      confirmPassword: newPasswordFields.confirmPassword,
      token: tokenField,
    }),
  );
  const parsed = parseForm(schema, form);
  if (!parsed.ok) return { ok: false, fieldErrors: parsed.fieldErrors };
  try {
    await auth(db).api.resetPassword({
      body: { newPassword: parsed.data.newPassword, token: parsed.data.token },
      headers,
    });
  } catch (error) {
    if (error instanceof APIError)
      return { ok: false, fieldErrors: { newPassword: PASSWORD_MESSAGES.resetLinkExpired } };
    throw error;
  }
  if (owner) await forgetFailedSignIns(db, owner.email);
  return { ok: true };
}
