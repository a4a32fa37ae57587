import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#app/db/client.server";
import { startFakePayPal, type FakePayPal } from "#tests/support/fake-paypal";
import {
  insertBooking,
  insertFreeEvent,
  insertPaidEvent,
  londonDay,
} from "#tests/support/fixtures";
import { fakePayPalEnv } from "#tests/support/fixtures/paypal";
import { insertPatient, insertSession, uniqueEmail } from "#tests/support/fixtures/people";
import { requestFrom } from "#tests/support/http";
import { createScratchDatabase } from "#tests/support/postgres";
import { freePort, startBuiltServer } from "#tests/support/server";
import { startSmtpSink } from "#tests/support/smtp-sink";
import { startHaproxy } from "../../scripts/lib/haproxy.mjs";

/**
 * The production deployment of the README, for real: two instances of the built site on one
 * PostgreSQL database, behind HAProxy (Debian's) where HTTPS ends, with TRUST_PROXY=1 and APP_URL
 * the proxy's https:// address, and production's own settings (no limit raised). Every client
 * comes from an address of its own (127.x.y.z, all loopback), so the proxy passes on a real client
 * address, as it would on the internet. The instances are also reached directly, with the headers
 * the proxy would add, to show which one answered.
 *
 * The last test kills an instance: the tests before it need both.
 */

const AUTH_SECRET = crypto.randomBytes(24).toString("base64url");
type Server = Awaited<ReturnType<typeof startBuiltServer>>;

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let folder: string;
type Sink = Awaited<ReturnType<typeof startSmtpSink>>;
/** Each instance's mail server, so that a message shows which instance sent it. */
let sinkA: Sink;
let sinkB: Sink;
let paypal: FakePayPal;
let a: Server;
let b: Server;
let proxy: Awaited<ReturnType<typeof startHaproxy>>;
let database: Database;
let pool: pg.Pool;
/** The proxy's self-signed certificate, which the clients trust. */
let certificate: string;

const portOf = (server: Server) => Number(new URL(server.url).port);

beforeAll(async () => {
  scratch = await createScratchDatabase("mhat_instances");
  folder = mkdtempSync(path.join(os.tmpdir(), "mhat-instances-"));
  // A certificate for 127.0.0.1, made for this run (openssl, from Debian's package).
  const key = path.join(folder, "key.pem");
  const cert = path.join(folder, "cert.pem");
  const request =
    "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1";
  execFileSync("openssl", [...request.split(" "), "-keyout", key, "-out", cert], {
    stdio: "ignore",
  });
  certificate = readFileSync(cert, "utf8");
  const proxyPem = path.join(folder, "site.pem");
  writeFileSync(proxyPem, certificate + readFileSync(key, "utf8"));
  sinkA = await startSmtpSink();
  sinkB = await startSmtpSink();
  paypal = await startFakePayPal();
  const proxyPort = await freePort();
  const env = {
    NODE_ENV: "production",
    DATABASE_URL: scratch.url,
    DEMO_DATA: "0",
    APP_URL: `https://127.0.0.1:${proxyPort}`,
    TRUST_PROXY: "1",
    AUTH_SECRET,
    ...fakePayPalEnv(paypal),
    OUTBOX_POLL_MS: "200",
    WORKER_INTERVAL_MS: "300",
    LOG_LEVEL: "info",
  };
  // Both at once on the empty database, as a first deployment starts them: they migrate in turn.
  [a, b] = await Promise.all([
    startBuiltServer({ ...env, SMTP_URL: sinkA.url }, 60_000, {
      logFile: path.join(folder, "a.log"),
    }),
    startBuiltServer({ ...env, SMTP_URL: sinkB.url }, 60_000, {
      logFile: path.join(folder, "b.log"),
    }),
  ]);
  proxy = await startHaproxy({
    port: proxyPort,
    backends: [
      { name: "a", port: portOf(a) },
      { name: "b", port: portOf(b) },
    ],
    folder,
    certificate: proxyPem,
  });
  database = openDatabase({ url: scratch.url });
  pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
});

afterAll(async () => {
  await proxy?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.close();
  await pool?.end();
  await sinkA?.close();
  await sinkB?.close();
  await paypal?.close();
  await scratch?.drop();
  if (folder && !process.env.KEEP) rmSync(folder, { recursive: true, force: true });
});

let addresses = 0;
/** A client address of its own (127.0.0.0/8 is all loopback); never 127.0.0.1, the proxy's own. */
function nextAddress(): string {
  addresses++;
  return `127.20.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

interface Reply {
  status: number;
  location: string;
  /** the instance that answered through the proxy (HAProxy's X-Served-By) */
  servedBy: string;
  body: string;
  cookies: string[];
}

/** One request from `from` to `base` (the proxy, or an instance directly). */
async function send(
  base: string,
  pathname: string,
  options: {
    from: string;
    cookie?: string;
    json?: unknown;
    form?: Record<string, string>;
  },
): Promise<Reply> {
  const headers: Record<string, string> = { origin: proxy.url };
  if (base !== proxy.url) {
    // Reached directly, an instance is sent what the proxy would send: the public Host, and that
    // the client came over HTTPS, from his own address.
    headers.host = new URL(proxy.url).host;
    headers["x-forwarded-proto"] = "https";
    headers["x-forwarded-for"] = options.from;
  }
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    headers.accept = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  const answer = await requestFrom(options.from, base + pathname, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body,
    ca: certificate,
  });
  return {
    status: answer.status,
    location: String(answer.headers.location ?? ""),
    servedBy: String(answer.headers["x-served-by"] ?? ""),
    body: answer.body,
    cookies: answer.headers["set-cookie"] ?? [],
  };
}

/** A signed-up man with a session (written as sign-in leaves it), and his own address. */
async function signedInPatient() {
  const patient = await insertPatient(database.db);
  const { cookie } = await insertSession(database.db, patient.id, {
    production: true,
    secret: AUTH_SECRET,
  });
  return { ...patient, cookie, from: nextAddress() };
}
type Client = Awaited<ReturnType<typeof signedInPatient>>;

/** The consent form of a first test with nothing to declare, agreed. */
const CONSENT = {
  numberOfPsaTest: "1",
  familyHistoryProstateCancer: "No",
  familyHistoryBreastOvarianCancer: "No",
  medicationHistory: "None",
  terms: "on",
  sampleConsent: "on",
};

/** Holds a place (the API) and completes the booking (the consent form): a free event's steps. */
async function book(client: Client, eventId: string, slotTime: string) {
  const hold = await send(proxy.url, "/api/appointments", {
    from: client.from,
    cookie: client.cookie,
    json: { eventId, slotTime },
  });
  if (hold.status !== 201) return { hold, reference: null, confirmed: false };
  const { reference } = JSON.parse(hold.body) as { reference: string };
  const consent = await send(proxy.url, `/book-event/consent?booking=${reference}`, {
    from: client.from,
    cookie: client.cookie,
    form: CONSENT,
  });
  const confirmed =
    consent.status === 302 && consent.location === `/booking-success?booking=${reference}`;
  return { hold, consent, reference, confirmed };
}

/** One statement on the instances' database. */
async function rows<T extends pg.QueryResultRow>(
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

/** Waits until the outbox has nothing left to send (both instances' workers deliver it). */
async function outboxDrained() {
  await expect
    .poll(
      async () =>
        (
          await rows<{ pending: number }>(
            "select count(*)::int as pending from outbox_email where status = 'pending'",
          )
        )[0]!.pending,
      { timeout: 30_000, interval: 200 },
    )
    .toBe(0);
}

const confirmationSubject = (reference: string) => `Your MHAT screening booking ${reference}`;
/** Every message the two mail servers accepted. */
const allMail = () => [...sinkA.received, ...sinkB.received];
const mailsWithSubject = (subject: string) =>
  allMail().filter((mail) => mail.parsed.subject === subject);

/** Every place of a free event with `places` places in `slots` times a week ahead. */
async function freeEvent(places: number, slots = 1) {
  const row = await insertFreeEvent(database.db, {
    name: "Two Instances Screening",
    eventDate: londonDay(7),
    startTime: "10:00",
    endTime: `${String(10 + Math.ceil((slots * 15) / 60)).padStart(2, "0")}:00`,
    sessionDuration: 15,
    totalSpaces: places,
    placesPerSlot: Math.ceil(places / slots),
  });
  const times = Array.from({ length: slots }, (_, n) => {
    const minutes = 10 * 60 + n * 15;
    return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  });
  return { id: row.id, times };
}

describe("two instances behind HAProxy on one PostgreSQL", () => {
  it("both serve, and the client's address is the one the proxy passes on", async () => {
    const served = new Set<string>();
    for (let n = 0; n < 4; n++)
      served.add((await send(proxy.url, "/healthz", { from: nextAddress() })).servedBy);
    expect([...served].sort()).toEqual(["a", "b"]);
  });

  it("gives N places to exactly N of many people racing across both instances, with no errors", async () => {
    const PLACES = 10;
    const PEOPLE = 40;
    const event = await freeEvent(PLACES);
    const people: Client[] = [];
    for (let n = 0; n < PEOPLE; n++) people.push(await signedInPatient());
    const answers = await Promise.all(
      people.map((person) =>
        send(proxy.url, "/api/appointments", {
          from: person.from,
          cookie: person.cookie,
          json: { eventId: event.id, slotTime: event.times[0] },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.filter((status) => status === 201)).toHaveLength(PLACES);
    expect(statuses.filter((status) => status === 409)).toHaveLength(PEOPLE - PLACES);
    // The crowd was shared between the instances.
    const byInstance = (name: string) => answers.filter((answer) => answer.servedBy === name);
    expect(byInstance("a").length).toBeGreaterThan(0);
    expect(byInstance("b").length).toBeGreaterThan(0);
    const live = await rows<{ count: number }>(
      "select count(*)::int as count from booking where event_id = $1 and status in ('held', 'awaiting_payment', 'confirmed')",
      [event.id],
    );
    expect(live[0]!.count).toBe(PLACES);
  });

  it("keeps a session made through one instance on the other, and signing out on one ends it on both", async () => {
    const from = nextAddress();
    const email = uniqueEmail("two-instances");
    const password = "granite harbour lantern";
    const signup = await send(a.url, "/signup", {
      from,
      form: {
        firstName: "Ivor",
        lastName: "Instance",
        "dateOfBirth-day": "1",
        "dateOfBirth-month": "6",
        "dateOfBirth-year": "1960",
        gender: "Male",
        ethnicity: "Not stated",
        phone: "447700900321",
        homeAddressLine1: "1 Test Row",
        homePostcode: "CM1 1AA",
        homeCountry: "United Kingdom",
        email,
        password,
        confirmPassword: password,
      },
    });
    expect(signup.status).toBe(302);
    const cookie = signup.cookies.map((value) => value.split(";")[0]).join("; ");
    expect(cookie).toContain("__Host-mhat.session_token=");

    // Made on A; B knows the person.
    const onB = await send(b.url, "/portal", { from, cookie });
    expect(onB.status).toBe(200);
    expect(onB.body).toContain("Ivor");
    const onA = await send(a.url, "/portal", { from, cookie });
    expect(onA.status).toBe(200);

    // Signed out on B: A no longer knows the session either.
    const logout = await send(b.url, "/logout", { from, cookie, form: {} });
    expect(logout.status).toBe(302);
    const afterwards = await send(a.url, "/portal", { from, cookie });
    expect(afterwards.status).toBe(302);
    expect(afterwards.location).toMatch(/^\/login/);

    // Signed in again, on B this time: A knows him.
    const login = await send(b.url, "/login", { from, form: { email, password } });
    expect(login.status).toBe(302);
    const again = login.cookies.map((value) => value.split(";")[0]).join("; ");
    expect((await send(a.url, "/portal", { from, cookie: again })).status).toBe(200);
  });

  it("counts a client's requests on both instances against one limit", async () => {
    // RATE_LIMIT_FORMS_PER_WINDOW is production's 10 per 10 minutes per address.
    const LIMIT = 10;
    const from = nextAddress();
    const report = (base: string, client = from) =>
      send(base, "/api/logs/error", { from: client, json: { errorMessage: "instances test" } });
    // The window is fixed (from the clock's ten minutes): start clear of its end.
    const left = 600_000 - (Date.now() % 600_000);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
    const statuses: number[] = [];
    for (let n = 0; n < LIMIT; n++)
      statuses.push((await report(n < LIMIT / 2 ? a.url : b.url)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(204));
    // Half counted on A, half on B: the next is refused on either, and through the proxy.
    expect((await report(b.url)).status).toBe(429);
    expect((await report(a.url)).status).toBe(429);
    const proxied = await report(proxy.url);
    expect(proxied.status).toBe(429);
    // Another client through the same proxy has his own count (the proxy's X-Forwarded-For).
    expect((await report(proxy.url, nextAddress())).status).toBe(204);
  });

  it("delivers each confirmation e-mail once with both instances' mail workers running", async () => {
    const PEOPLE = 30;
    const event = await freeEvent(PEOPLE, 2);
    const people: Client[] = [];
    for (let n = 0; n < PEOPLE; n++) people.push(await signedInPatient());
    const outcomes = await Promise.all(
      people.map((person, n) => book(person, event.id, event.times[n % event.times.length]!)),
    );
    expect(outcomes.filter((outcome) => !outcome.confirmed)).toEqual([]);
    await outboxDrained();
    for (const outcome of outcomes) {
      expect(mailsWithSubject(confirmationSubject(outcome.reference!))).toHaveLength(1);
    }
    // Both instances' workers were sending.
    const sentBy = (sink: Sink) =>
      outcomes.filter((outcome) =>
        sink.received.some(
          (mail) => mail.parsed.subject === confirmationSubject(outcome.reference!),
        ),
      ).length;
    expect(sentBy(sinkA)).toBeGreaterThan(0);
    expect(sentBy(sinkB)).toBeGreaterThan(0);
  });

  it("refunds a cancelled event's payments once when both instances' workers retry them", async () => {
    const event = await insertPaidEvent(
      database.db,
      {
        name: "Two Instances Paid Screening",
        eventDate: londonDay(7),
        startTime: "10:00",
        endTime: "11:00",
        sessionDuration: 15,
        totalSpaces: 8,
        placesPerSlot: 2,
      },
      2500,
    );
    const PAID = 4;
    const captures: string[] = [];
    for (let n = 0; n < PAID; n++) {
      const person = await signedInPatient();
      const slotTime = ["10:00", "10:15", "10:30", "10:45"][n]!;
      const hold = await send(proxy.url, "/api/appointments", {
        from: person.from,
        cookie: person.cookie,
        json: { eventId: event.id, slotTime },
      });
      expect(hold.status).toBe(201);
      const { reference } = JSON.parse(hold.body) as { reference: string };
      const consent = await send(proxy.url, `/book-event/consent?booking=${reference}`, {
        from: person.from,
        cookie: person.cookie,
        form: CONSENT,
      });
      expect(consent.location).toBe(`/checkout?booking=${reference}`);
      const order = await send(proxy.url, "/api/payments/orders", {
        from: person.from,
        cookie: person.cookie,
        json: { reference },
      });
      expect(order.status).toBe(201);
      const { id } = JSON.parse(order.body) as { id: string };
      paypal.approve(id);
      const capture = await send(proxy.url, `/api/payments/orders/${id}/capture`, {
        from: person.from,
        cookie: person.cookie,
        json: {},
      });
      expect(capture.status).toBe(200);
      captures.push(paypal.orders.get(id)!.captureIds[0]!);
    }

    // The event is cancelled, and the instance doing it died before refunding anyone: every
    // payment is owed, and both instances' workers (every 300 ms) find it due. PayPal answers
    // slowly, so that their passes overlap.
    paypal.delayResponses(400);
    await rows(
      "update booking set status = 'cancelled', cancelled_by = 'staff', updated_at = now() where event_id = $1",
      [event.id],
    );
    await rows("update event set status = 'cancelled' where id = $1", [event.id]);
    await expect
      .poll(
        async () =>
          (
            await rows<{ refunded: number }>(
              "select count(*)::int as refunded from booking where event_id = $1 and payment_status = 'refunded'",
              [event.id],
            )
          )[0]!.refunded,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(PAID);
    // Let both workers run a few more passes: nothing more may reach PayPal.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    paypal.delayResponses(0);
    for (const captureId of captures) {
      expect(paypal.requestsTo("POST", `/v2/payments/captures/${captureId}/refund`)).toHaveLength(
        1,
      );
    }
    const made = await rows<{ count: number }>(
      `select count(*)::int as count from payment_transaction t join booking b on b.id = t.booking_id
       where b.event_id = $1 and t.kind = 'refund'`,
      [event.id],
    );
    expect(made[0]!.count).toBe(PAID);
  });

  it("reminds each booking once with both instances' workers running", async () => {
    const event = await insertFreeEvent(database.db, {
      name: "Two Instances Reminder Screening",
      // Tomorrow at 10:00 London time is 10 to 34 hours away: inside the 48-hour reminder window.
      eventDate: londonDay(1),
      startTime: "10:00",
      endTime: "12:00",
      sessionDuration: 15,
      totalSpaces: 40,
      placesPerSlot: 5,
    });
    const PEOPLE = 30;
    const emails: string[] = [];
    for (let n = 0; n < PEOPLE; n++) {
      const person = await insertPatient(database.db);
      emails.push(person.email);
      // Confirmed more than 12 hours ago, so the confirmation does not stand for the reminder.
      await insertBooking(database.db, {
        eventId: event.id,
        userId: person.id,
        slotTime: ["10:00", "10:15", "10:30", "10:45", "11:00", "11:15"][n % 6]!,
        confirmedAt: new Date(Date.now() - 13 * 3_600_000),
      });
    }
    await expect
      .poll(
        async () =>
          (
            await rows<{ reminded: number }>(
              "select count(*)::int as reminded from booking where event_id = $1 and reminder_sent_at is not null",
              [event.id],
            )
          )[0]!.reminded,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(PEOPLE);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await outboxDrained();
    for (const email of emails) {
      const reminders = allMail().filter(
        (mail) =>
          mail.envelopeTo.includes(email) && mail.parsed.subject?.startsWith("Reminder:") === true,
      );
      expect(reminders, email).toHaveLength(1);
    }
  });

  it("loses no booking and no e-mail when one instance is killed in the middle of the bookings", async () => {
    const PEOPLE = 60;
    const CONCURRENCY = 8;
    const KILL_AFTER = 15;
    const event = await freeEvent(PEOPLE, 4);
    const people: Client[] = [];
    for (let n = 0; n < PEOPLE; n++) people.push(await signedInPatient());

    let killedAt = 0;
    let goneAt = 0;
    void b.exited.then(() => (goneAt = performance.now()));
    let done = 0;
    const results: {
      client: Client;
      reference: string | null;
      confirmed: boolean;
      startedAt: number;
      statuses: number[];
    }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < people.length) {
        const client = people[next]!;
        const slot = event.times[next % event.times.length]!;
        next++;
        const startedAt = performance.now();
        let outcome: Awaited<ReturnType<typeof book>> | undefined;
        try {
          outcome = await book(client, event.id, slot);
        } catch {
          // a connection cut: not told anything
        }
        results.push({
          client,
          reference: outcome?.reference ?? null,
          confirmed: outcome?.confirmed ?? false,
          startedAt,
          statuses: [outcome?.hold.status ?? 0, outcome?.consent?.status ?? 0],
        });
        done++;
      }
    };
    // B's mail server takes its time, so that B is in the middle of sending a confirmation when
    // it is killed: SIGKILL, no shutdown, its transactions and SMTP conversation cut where they
    // are. (Not after the message itself has gone and before the server's "250": a mail server
    // has taken a message it has read, and the sender, dead, cannot record that; that moment's
    // second copy is the outbox's at-least-once, see the README.)
    sinkB.holdRecipients(150);
    const killer = async () => {
      while (done < KILL_AFTER || sinkB.holding() === 0) {
        if (done === PEOPLE) throw new Error("B never sent a confirmation during the bookings");
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      process.kill(b.pid!, "SIGKILL");
      killedAt = performance.now();
    };
    await Promise.all([killer(), ...Array.from({ length: CONCURRENCY }, worker)]);
    await b.exited;
    expect(killedAt).toBeGreaterThan(0);

    // Only what was under way when B died may have failed; everything begun after it had gone
    // went to A (a connection B refuses is tried on A; a request B had, it never answers).
    const failed = results.filter((result) => !result.confirmed);
    for (const result of failed) {
      expect(result.startedAt).toBeLessThan(goneAt);
      // HAProxy's 502 for a request B had, or the connection cut (0); a hold may have come first.
      for (const status of result.statuses) expect([0, 201, 502]).toContain(status);
    }
    const after = results.filter((result) => result.startedAt > goneAt);
    expect(after.length).toBeGreaterThanOrEqual(10);
    expect(after.every((result) => result.confirmed)).toBe(true);

    // Every booking a client was told is confirmed is in the database, once.
    const told = results.filter((result) => result.confirmed);
    const stored = await rows<{ reference: string; user_id: string; status: string }>(
      "select reference, user_id, status from booking where event_id = $1",
      [event.id],
    );
    for (const result of told) {
      const matches = stored.filter((row) => row.reference === result.reference);
      expect(matches).toEqual([
        { reference: result.reference, user_id: result.client.id, status: "confirmed" },
      ]);
    }
    // Nobody has two bookings (a retried request is not a second booking).
    const perPerson = new Map<string, number>();
    for (const row of stored) perPerson.set(row.user_id, (perPerson.get(row.user_id) ?? 0) + 1);
    expect([...perPerson.values()].filter((count) => count > 1)).toEqual([]);

    // Every confirmed booking, told or not (B may have confirmed one and died before answering),
    // gets its e-mail once, from A's worker for what B had not sent.
    await outboxDrained();
    const confirmed = stored.filter((row) => row.status === "confirmed");
    expect(confirmed.length).toBeGreaterThanOrEqual(told.length);
    for (const row of confirmed) {
      const subject = confirmationSubject(row.reference);
      const queued = await rows<{ id: string; attempts: number }>(
        "select id, attempts from outbox_email where subject = $1",
        [subject],
      );
      const where = `${row.reference}: sink A ${sinkA.received.filter((mail) => mail.parsed.subject === subject).length}, sink B ${sinkB.received.filter((mail) => mail.parsed.subject === subject).length}, outbox ${JSON.stringify(queued)}, killed at ${killedAt}`;
      expect(mailsWithSubject(subject), where).toHaveLength(1);
    }

    // The proxy has left B out and carries on with A.
    for (let n = 0; n < 4; n++) {
      const health = await send(proxy.url, "/healthz", { from: nextAddress() });
      expect(health.status).toBe(200);
      expect(health.servedBy).toBe("a");
    }
  }, 180_000);
});
