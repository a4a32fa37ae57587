import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { account, outboxEmail, profile, user, verification } from "#app/db/schema";
import { config } from "#app/config.server";
import { authFor, withPendingProfile, type ProfileDraft } from "#app/services/auth.server";
import { resetPasswordFromLink } from "#app/services/password-reset.server";
import { enqueueUnaskedMail } from "#app/services/recipient-mail.server";
import { signIn } from "#app/services/session.server";
import { sendNewConfirmationLink } from "#app/services/sign-up.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { uniqueEmail } from "#tests/support/fixtures";

// signIn uses the process-wide database.
const database = testDatabaseForThisFile({ processWide: true });
let auth: ReturnType<typeof authFor>;
beforeAll(() => {
  auth = authFor(database.db);
});

const draft = (email: string): ProfileDraft => ({
  firstName: "Arthur",
  lastName: "Pembridge",
  gender: "Male",
  dateOfBirth: "1961-03-15",
  ethnicity: "White - British",
  occupation: null,
  phone: "447700900123",
  email,
  homeAddressLine1: "12 Mill Lane",
  homeAddressLine2: null,
  homePostcode: "CM1 2AB",
  homeCountry: "United Kingdom",
  billingAddress: null,
  nhsNumber: "9434765919",
});

const signUp = (email: string, profileDraft: ProfileDraft) =>
  withPendingProfile(profileDraft, () =>
    auth.api.signUpEmail({
      body: { name: "Arthur Pembridge", email, password: "correct horse battery" },
      headers: new Headers({ origin: "http://localhost:3000" }),
    }),
  );

describe("sign-up", () => {
  it("creates the user, the argon2id password and the profile together", async () => {
    const email = uniqueEmail("arthur");
    const result = await signUp(email, draft(email));
    const [created] = await database.db.select().from(user).where(eq(user.email, email));
    expect(created).toMatchObject({ id: result.user.id, emailVerified: false });
    const [stored] = await database.db
      .select()
      .from(profile)
      .where(eq(profile.userId, created!.id));
    expect(stored).toMatchObject({
      firstName: "Arthur",
      nhsNumber: "9434765919",
      homePostcode: "CM1 2AB",
    });
    expect(stored!.reference).toMatch(/^MHAT[2-9A-HJ-NP-Z]{8}$/);
    const [credential] = await database.db
      .select()
      .from(account)
      .where(eq(account.userId, created!.id));
    expect(credential!.password).toMatch(/^\$argon2id\$v=19\$m=47104,t=1,p=1\$/);
  });

  it("queues the verification e-mail once the sign-up has committed", async () => {
    const email = uniqueEmail("verify");
    await signUp(email, draft(email));
    const [mail] = await database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
    expect(mail!.subject).toMatch(/Confirm your e-mail address/);
    expect(mail!.text).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/m);
    expect(mail!.text).not.toContain("9434765919");
    // Whoever signed up typed the name and may not own the address: the mail does not repeat it,
    // and tells the owner what to do with a mail he did not ask for.
    expect(mail!.text).toMatch(/^Hello,$/m);
    expect(mail!.text).not.toContain("Arthur");
    expect(mail!.text).toContain("If you did not create an account with us, do not open the link");
  });

  it("leaves no user behind when the profile cannot be created", async () => {
    const email = uniqueEmail("broken");
    const broken = { ...draft(email), firstName: null as unknown as string }; // NOT NULL in the database
    await expect(signUp(email, broken)).rejects.toThrow();
    expect(await database.db.select().from(user).where(eq(user.email, email))).toEqual([]);
    expect(await database.db.select().from(profile).where(eq(profile.email, email))).toEqual([]);
    expect(await database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email))).toEqual(
      [],
    );
  });
});

describe("session cookies", () => {
  it("are __Host- cookies in production: Secure, the whole site, this host only", async () => {
    const production = authFor(database.db, { ...config(), isProduction: true });
    const email = uniqueEmail("host-cookie");
    const { headers } = await withPendingProfile(draft(email), () =>
      production.api.signUpEmail({
        body: { name: "Arthur Pembridge", email, password: "correct horse battery" },
        headers: new Headers({ origin: "http://localhost:3000" }),
        returnHeaders: true,
      }),
    );
    const session = headers.getSetCookie().find((cookie) => cookie.includes("session_token="));
    expect(session).toMatch(/^__Host-mhat\.session_token=/);
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; Path=\//i);
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).not.toMatch(/; Domain=/i);
    // And the session is found again from that cookie.
    const cookie = session!.split(";")[0]!;
    const found = await production.api.getSession({ headers: new Headers({ cookie }) });
    expect(found?.user.email).toBe(email);
  });

  it("have plain names outside production, where the site may run over http", async () => {
    const email = uniqueEmail("plain-cookie");
    const { headers } = await withPendingProfile(draft(email), () =>
      auth.api.signUpEmail({
        body: { name: "Arthur Pembridge", email, password: "correct horse battery" },
        headers: new Headers({ origin: "http://localhost:3000" }),
        returnHeaders: true,
      }),
    );
    const session = headers.getSetCookie().find((cookie) => cookie.includes("session_token="));
    expect(session).toMatch(/^mhat\.session_token=/);
    expect(session).not.toMatch(/; Secure/i);
  });
});

describe("mail bombing: password resets for one address", () => {
  it("mail one reset link however often it is asked for, and keep no link nobody was sent", async () => {
    const email = "reset-bombed@example.com";
    await signUp(email, draft(email));
    for (let request = 0; request < 5; request++)
      await auth.api.requestPasswordReset({
        body: { email, redirectTo: "/reset-password" },
        headers: new Headers({ origin: "http://localhost:3000" }),
      });
    const resets = (
      await database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email))
    ).filter((mail) => /^Reset your/.test(mail.subject));
    expect(resets).toHaveLength(1);
    const [created] = await database.db.select().from(user).where(eq(user.email, email));
    const tokens = await database.db
      .select()
      .from(verification)
      .where(like(verification.identifier, "reset-password:%"));
    const mine = tokens.filter((token) => token.value === created!.id);
    expect(mine).toHaveLength(1);
    expect(resets[0]!.text).toContain(mine[0]!.identifier.slice("reset-password:".length));
  });
});

/** Asks for a password reset, as the login page does, and reads the link's token from the database. */
async function resetLinkToken(email: string, userId: string): Promise<string> {
  await auth.api.requestPasswordReset({
    body: { email, redirectTo: "/reset-password" },
    headers: new Headers({ origin: "http://localhost:3000" }),
  });
  const [link] = await database.db
    .select()
    .from(verification)
    .where(eq(verification.value, userId));
  return link!.identifier.replace(/^reset-password:/, "");
}

describe("a new password from a reset link", () => {
  it("is refused when it is his own name or e-mail address, as at sign-up", async () => {
    const email = uniqueEmail("arthur.pembridge");
    const created = await signUp(email, draft(email));
    const token = await resetLinkToken(email, created.user.id);
    const reset = (password: string) =>
      resetPasswordFromLink(
        database.db,
        { newPassword: password, confirmPassword: password, token },
        new Headers({ origin: "http://localhost:3000" }),
      );
    const tooEasy = {
      ok: false,
      fieldErrors: {
        newPassword:
          "This password is too easy to guess. Avoid common passwords, names and patterns like 12345678. Three or four unrelated words work well.",
      },
    };

    expect(await reset("Pembridge1946")).toEqual(tooEasy);
    expect(await reset(email)).toEqual(tooEasy);
    expect(await reset("a brand new phrase")).toEqual({ ok: true });
  });

  it("answers a link whose token is not one (a NUL, a space) as refused, without asking the database", async () => {
    const reset = (token: string) =>
      resetPasswordFromLink(
        database.db,
        { newPassword: "a brand new phrase", confirmPassword: "a brand new phrase", token },
        new Headers({ origin: "http://localhost:3000" }),
      );
    const expired = {
      ok: false,
      fieldErrors: {
        token:
          "This link has expired or has already been used. Ask for a new one from the sign-in page.",
      },
    };
    expect(await reset("abc def")).toEqual(expired);
    expect(await reset("")).toEqual(expired);
    // Postgres refuses a NUL in text: it must be stopped before any query.
    expect(await reset("\u0000")).toMatchObject({
      ok: false,
      fieldErrors: { token: expect.any(String) },
    });
  });
});

describe("sign-in lock-out of someone else's account", () => {
  // The limits count in fixed 15-minute windows: at one moment, so a window's end never falls in
  // the middle of the test (it did once in CI, and the 100th failure was counted in a new window).
  const MOMENT = new Date(Date.UTC(2026, 0, 5, 10, 0, 30));
  const signInFrom = (clientAddress: string, email: string, password: string) =>
    signIn(
      new Request("http://localhost:3000/login", {
        method: "POST",
        headers: { origin: "http://localhost:3000" },
      }),
      email,
      password,
      clientAddress,
      MOMENT,
    );

  it("wrong passwords from one address never lock out another; only 100 from many addresses stop everyone", async () => {
    const email = "lock-out-target@example.com";
    await signUp(email, draft(email));
    const right = "correct horse battery";

    for (let attempt = 1; attempt <= 10; attempt++)
      expect(await signInFrom("198.51.100.1", email, `wrong ${attempt}`)).toMatchObject({
        status: 401,
      });
    const refused = await signInFrom("198.51.100.1", email, right);
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(await signInFrom("198.51.100.2", email, right)).toMatchObject({ ok: true });

    // Ten failures from each of nine more addresses: 100 for the account in all.
    for (let address = 3; address <= 11; address++)
      for (let attempt = 1; attempt <= 10; attempt++)
        expect(await signInFrom(`198.51.100.${address}`, email, "wrong")).toMatchObject({
          status: 401,
        });
    const distributed = await signInFrom("198.51.100.200", email, right);
    expect(distributed).toMatchObject({ ok: false, status: 429 });
    if (distributed.ok || distributed.status !== 429) throw new Error("expected a 429");
    expect(distributed.retryAfterSeconds).toBeGreaterThan(0);
    expect(distributed.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
  });

  it("counts every address of one IPv6 /64 as one address (found by a review)", async () => {
    const email = "lock-out-ipv6@example.com";
    await signUp(email, draft(email));
    for (let host = 1; host <= 10; host++)
      expect(await signInFrom(`2001:db8:5:5::${host}`, email, "wrong")).toMatchObject({
        status: 401,
      });
    expect(await signInFrom("2001:db8:5:5::99", email, "correct horse battery")).toMatchObject({
      ok: false,
      status: 429,
    });
    expect(await signInFrom("2001:db8:5:6::1", email, "correct horse battery")).toMatchObject({
      ok: true,
    });
  });

  it("lets the owner in with a new password from a reset link, after guesses from everywhere stopped everyone (found by a review)", async () => {
    const email = "lock-out-reset@example.com";
    const created = await signUp(email, draft(email));
    for (let address = 1; address <= 10; address++)
      for (let attempt = 1; attempt <= 10; attempt++)
        await signInFrom(`203.0.113.${address}`, email, "wrong");
    expect(await signInFrom("198.51.100.250", email, "correct horse battery")).toMatchObject({
      status: 429,
    });

    const token = await resetLinkToken(email, created.user.id);
    const password = "a lantern by the quay";
    expect(
      await resetPasswordFromLink(
        database.db,
        { newPassword: password, confirmPassword: password, token },
        new Headers({ origin: "http://localhost:3000" }),
      ),
    ).toEqual({ ok: true });
    expect(await signInFrom("198.51.100.250", email, password)).toMatchObject({ ok: true });
    // The guessers start again from nothing: ten more from one address stop only that address.
    for (let attempt = 1; attempt <= 10; attempt++) await signInFrom("203.0.113.1", email, "wrong");
    expect(await signInFrom("203.0.113.1", email, password)).toMatchObject({ status: 429 });
    expect(await signInFrom("198.51.100.251", email, password)).toMatchObject({ ok: true });
  });
});

describe("a new link to confirm the address, asked for from My data", () => {
  const mailTo = (to: string) => ({ to, subject: "A mail", text: "Hello," });
  /** A fixed moment 30 s into an hour, so that every call falls in the same windows. */
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 5, 10, minutes, 30));
  const ask = (userId: string, email: string, minutes: number) =>
    sendNewConfirmationLink(database.db, { userId, email, headers: new Headers() }, at(minutes));

  it("answers alike whether the mail goes or the mailbox's own limits hold it back", async () => {
    const busy = uniqueEmail("busy");
    for (const kind of [
      "email-verification",
      "password-reset",
      "newsletter-confirmation",
      "consent-link",
    ] as const)
      expect(await enqueueUnaskedMail(database.db, kind, mailTo(busy))).toBe(true);
    const quiet = uniqueEmail("quiet");
    const answer = (email: string) =>
      sendNewConfirmationLink(database.db, {
        userId: crypto.randomUUID(),
        email,
        headers: new Headers(),
      });
    expect(await answer(busy)).toBe("on-its-way");
    expect(await answer(quiet)).toBe("on-its-way");
  });

  it("tells him only about his own asking, never about mail others made us send his mailbox", async () => {
    const userId = crypto.randomUUID();
    const email = uniqueEmail("watched");
    await enqueueUnaskedMail(database.db, "email-verification", mailTo(email), at(0));
    expect(await ask(userId, email, 0)).toBe("on-its-way");
    const asAnswered = await ask(userId, email, 1);
    expect(asAnswered).toBe("asked-recently");
    // Three more mails reach the same mailbox, through another address of it or another form:
    // asked again, he learns nothing of them.
    const [local, domain] = email.split("@");
    for (const [kind, to] of [
      ["newsletter-confirmation", `${local}+news@${domain}`],
      ["password-reset", email],
      ["consent-link", email],
    ] as const)
      expect(await enqueueUnaskedMail(database.db, kind, mailTo(to), at(2))).toBe(true);
    expect(await ask(userId, email, 3)).toBe(asAnswered);
  });

  it("asks him to wait an hour once he has asked four times in it", async () => {
    const userId = crypto.randomUUID();
    const email = uniqueEmail("keen");
    await enqueueUnaskedMail(database.db, "email-verification", mailTo(email), at(0));
    for (const minutes of [0, 11, 22, 33])
      expect(await ask(userId, email, minutes)).not.toMatch(/^asked/);
    expect(await ask(userId, email, 44)).toBe("asked-often");
  });
});
