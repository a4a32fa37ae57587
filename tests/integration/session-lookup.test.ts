import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { session } from "#app/db/schema";
import { getSessionUser } from "#app/services/session.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { insertPatient, insertSession } from "#tests/support/fixtures";

// getSessionUser reads the process-wide database.
const database = testDatabaseForThisFile({ processWide: true });

const asked = (cookie: string) =>
  new Request("http://localhost:3000/portal", { headers: { cookie } });

describe("looking up who is signed in", () => {
  it("finds the person behind a signed session cookie", async () => {
    const patient = await insertPatient(database.db);
    const { cookie } = await insertSession(database.db, patient.id);
    expect((await getSessionUser(asked(cookie)))?.id).toBe(patient.id);
    expect(await getSessionUser(asked(`${cookie}x`))).toBeNull();
  });

  it("writes nothing: a session six days old keeps its end, as its cookie in the browser does", async () => {
    const patient = await insertPatient(database.db);
    // Seven-day sessions (auth.server.ts): ending in a day, this one began six days ago, past
    // better-auth's one-day mark for moving the end on, which the browser would never hear of.
    const endsAt = new Date(Date.now() + 24 * 3_600_000);
    endsAt.setMilliseconds(0);
    const { cookie, token } = await insertSession(database.db, patient.id, { expiresAt: endsAt });
    expect((await getSessionUser(asked(cookie)))?.id).toBe(patient.id);
    const [row] = await database.db.select().from(session).where(eq(session.token, token));
    expect(row!.expiresAt.getTime()).toBe(endsAt.getTime());
  });
});
