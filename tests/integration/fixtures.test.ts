import { describe, expect, it } from "vitest";
import { config } from "#app/config.server";
import { authFor } from "#app/services/auth.server";
import { TEST_SERVER_SECRET, testDatabaseForThisFile } from "#tests/support/database";
import { insertPatient, insertSession, insertStaff, totpCode } from "#tests/support/fixtures";

/**
 * The fixtures write accounts straight into the database, as better-auth would have written them.
 * These tests hold them to better-auth's own reading, so that a change in how it stores sessions
 * or keys fails here rather than as puzzling refusals in the tests that use the fixtures.
 */
const database = testDatabaseForThisFile();

describe("the fixture library", () => {
  it("makes session cookies that better-auth accepts, in and out of production", async () => {
    const patient = await insertPatient(database.db);
    for (const production of [false, true]) {
      const auth = authFor(database.db, { ...config(), isProduction: production });
      const { cookie } = await insertSession(database.db, patient.id, { production });
      const found = await auth.api.getSession({ headers: new Headers({ cookie }) });
      expect(found?.user.id).toBe(patient.id);
      expect(found?.session.twoFactorVerified).toBe(false);
      // A cookie signed with another secret opens nothing.
      const forged = await insertSession(database.db, patient.id, {
        production,
        secret: "another-secret-another-secret-another-00",
      });
      expect(await auth.api.getSession({ headers: new Headers({ cookie: forged.cookie }) })).toBe(
        null,
      );
    }
  });

  it("gives staff a TOTP key whose codes better-auth accepts after the password", async () => {
    const password = "correct horse battery";
    const nurse = await insertStaff(database.db, ["clinician"], { password });
    const auth = authFor(database.db, config(), TEST_SERVER_SECRET);
    const signedIn = await auth.api.signInEmail({
      body: { email: nurse.email, password },
      headers: new Headers({ origin: "http://localhost:3000" }),
      returnHeaders: true,
    });
    expect(signedIn.response).toMatchObject({ twoFactorRedirect: true });
    const cookie = signedIn.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    const code = await totpCode(nurse.totpKey!);
    const wrongCode = `${(Number(code[0]) + 5) % 10}${code.slice(1)}`;
    await expect(
      auth.api.verifyTOTP({ body: { code: wrongCode }, headers: new Headers({ cookie }) }),
    ).rejects.toThrow();
    const verified = await auth.api.verifyTOTP({
      body: { code },
      headers: new Headers({ cookie }),
    });
    expect(verified.user.id).toBe(nurse.id);
  });
});
