import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { BOOKING_STATUSES, PAYMENT_STATUSES } from "../domain/booking-lifecycle";
import { WAITLIST_STATUSES } from "../domain/waitlist";
import { STAFF_ROLES } from "../domain/roles";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** Contact-form enquiries from /about-us, answered by staff. */
export const enquiry = pgTable("enquiry", {
  id: uuid("id").primaryKey().defaultRandom(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  phoneNumber: text("phone_number").notNull(),
  message: text("message").notNull(),
  createdAt: createdAt(),
  /** Set by staff once the enquiry has been answered or needs nothing more. */
  handledAt: timestamp("handled_at", { withTimezone: true }),
  handledBy: text("handled_by"),
});

/** Newsletter sign-ups. One row per address: subscribing again updates the name. */
export const newsletterSubscription = pgTable(
  "newsletter_subscription",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    hearAboutEvents: boolean("hear_about_events").notNull().default(true),
    /** Set by the signed link in newsletter mail; such addresses are left out of exports. */
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("newsletter_subscription_email_key").on(table.email)],
);

/**
 * Transactional outbox: mail is written in the same transaction as the change that causes it,
 * then delivered by the worker, so an SMTP outage delays mail but never loses it.
 */
export const outboxEmail = pgTable(
  "outbox_email",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** Files sent with the message: [{ filename, contentType, content }] (text content, UTF-8). */
    attachments:
      jsonb("attachments").$type<{ filename: string; contentType: string; content: string }[]>(),
    /** A signed unsubscribe link, sent as List-Unsubscribe with RFC 8058's one-click header. */
    listUnsubscribe: text("list_unsubscribe"),
    /** pending → sent, or failed after the last attempt. */
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("outbox_email_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/** Errors reported by browsers through POST /api/logs/error. */
export const clientError = pgTable("client_error", {
  id: uuid("id").primaryKey().defaultRandom(),
  errorMessage: text("error_message").notNull(),
  description: text("description"),
  page: text("page"),
  userAgent: text("user_agent"),
  createdAt: createdAt(),
});

/** Small key/value facts about this database, such as when demo data was seeded. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** What is tested at an event, and its standard price. */
export const screeningProduct = pgTable("screening_product", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  description: text("description"),
  pricePence: integer("price_pence").notNull().default(0),
  emailTemplate: text("email_template"),
  createdAt: createdAt(),
});

export const eventCategory = pgEnum("event_category", ["community", "freemasons", "corporate"]);

/** draft (staff only) → published (on the site) ⇄ draft; cancelled is final. */
export const EVENT_STATUSES = ["draft", "published", "cancelled"] as const;
export const eventStatus = pgEnum("event_status", EVENT_STATUSES);

/**
 * A screening event. Dates and times are London wall-clock values; rules turn them into instants.
 * Capacity: `totalSpaces` for the event and `placesPerSlot` for each time slot. What is taken is
 * always counted from the bookings (no stored counter that could drift from them).
 */
export const event = pgTable(
  "event",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description"),
    productId: uuid("product_id")
      .notNull()
      .references(() => screeningProduct.id),
    /** Overrides the product's price for this event when set. */
    pricePence: integer("price_pence"),
    /** true, false or null (unknown), as the spec has it; null and false mean no payment. */
    paymentRequired: boolean("payment_required"),
    eventDate: date("event_date", { mode: "string" }).notNull(),
    startTime: time("start_time").notNull(),
    endTime: time("end_time").notNull(),
    sessionDuration: integer("session_duration").notNull(),
    totalSpaces: integer("total_spaces").notNull(),
    placesPerSlot: integer("places_per_slot").notNull().default(1),
    category: eventCategory("category").notNull(),
    /** "CORPORATE" marks an event reserved for one employer's staff. */
    exclusiveFor: text("exclusive_for"),
    isPublic: boolean("is_public").notNull().default(true),
    contactEmail: text("contact_email"),
    emailTemplate: text("email_template"),
    labName: text("lab_name"),
    addressLine1: text("address_line_1").notNull(),
    addressLine2: text("address_line_2"),
    city: text("city").notNull(),
    state: text("state"),
    postcode: text("postcode").notNull(),
    country: text("country").notNull().default("United Kingdom"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** Only published events are shown or booked; the back office creates them as drafts. */
    status: eventStatus("status").notNull().default("published"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("event_date_idx").on(table.eventDate),
    check("event_spaces_check", sql`${table.totalSpaces} >= 0`),
    check("event_session_check", sql`${table.sessionDuration} > 0 AND ${table.placesPerSlot} > 0`),
    check("event_times_check", sql`${table.endTime} > ${table.startTime}`),
  ],
);

/**
 * Codes that unlock a private event, stored as keyed hashes. A code may be limited to a number
 * of uses (say, one per lodge member) and may expire.
 */
export const eventAccessCode = pgTable(
  "event_access_code",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => event.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    /** Who the code was given to, for staff: "Stour Estuary Lodge". */
    label: text("label"),
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("event_access_code_hash_key").on(table.eventId, table.codeHash)],
);

/**
 * Who has unlocked a private event with one of its codes: kept on the server, per person, so that
 * taking a place checks it whichever way the request came (the page, the API, anything later).
 * Revoking the code closes the event again to those who used it, for new bookings.
 */
export const eventUnlock = pgTable(
  "event_unlock",
  {
    eventId: uuid("event_id")
      .notNull()
      .references(() => event.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessCodeId: uuid("access_code_id")
      .notNull()
      .references(() => eventAccessCode.id, { onDelete: "cascade" }),
    unlockedAt: timestamp("unlocked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.userId] })],
);

/** Fixed-window counters for rate limits that several server instances must share. */
export const rateLimitHit = pgTable("rate_limit_hit", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

/* ---------- Accounts (better-auth's core models, plus our profile) ---------- */

const authTimestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  /** Kept by better-auth's two-factor plugin; required of staff. */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  /** A deactivated account cannot sign in; its sessions were deleted when this was set. */
  deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
  ...authTimestamps,
});

/** better-auth's TOTP secrets and recovery codes, both encrypted with the server secret. */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** false until the first code from the authenticator app has been accepted. */
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [uniqueIndex("two_factor_user_key").on(table.userId)],
);

/**
 * Authenticator-app codes already accepted, kept for a few minutes: a code is good for one
 * sign-in only (RFC 6238, section 5.2), so one seen over a shoulder or in a log cannot be replayed.
 */
export const usedTotpCode = pgTable(
  "used_totp_code",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * SHA-256 of the six digits. Six digits are quickly found again from their hash, which is
     * harmless only because a code is dead within a minute or so: rows are kept for minutes.
     */
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

export const staffRole = pgEnum("staff_role", STAFF_ROLES);

/** The staff roles a person holds (none for a patient); one row per role. */
export const userRole = pgTable(
  "user_role",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: staffRole("role").notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.role] })],
);

/**
 * A one-time link to set up a staff account: from `npm run create-admin` or an admin's invitation.
 * Only a hash of the token is kept; the link expires and works once.
 */
export const staffInvitation = pgTable(
  "staff_invitation",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    roles: staffRole("roles").array().notNull(),
    tokenHash: text("token_hash").notNull(),
    /** null when made on the command line. */
    invitedBy: text("invited_by").references(() => user.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("staff_invitation_token_key").on(table.tokenHash)],
);

/**
 * Append-only record of staff reading or changing people's data: who, when, what, whose, from
 * where. A trigger (migration 0006) refuses UPDATE, DELETE and TRUNCATE, whatever the code does.
 * `details` holds ids and counts only, never what a person typed or a health value.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The staff member; null for the command line. */
    actorUserId: text("actor_user_id"),
    actorEmail: text("actor_email"),
    /** A dotted code such as "attendees.view" or "result.release". */
    action: text("action").notNull(),
    /** The person whose data it was, when it was one person's. */
    subjectUserId: text("subject_user_id"),
    entityType: text("entity_type"),
    entityId: text("entity_id"),
    ipAddress: text("ip_address"),
    details: jsonb("details").$type<Record<string, string | number | boolean | null>>(),
  },
  (table) => [
    index("audit_log_at_idx").on(table.at),
    index("audit_log_actor_idx").on(table.actorUserId),
    index("audit_log_subject_idx").on(table.subjectUserId),
    index("audit_log_action_idx").on(table.action),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * Set when this session's owner typed a code from their authenticator app (sign-in or
     * enrolment). Staff pages refuse a session without it, however it was made.
     */
    twoFactorVerified: boolean("two_factor_verified").notNull().default(false),
    ...authTimestamps,
  },
  (table) => [index("session_user_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    /** argon2id hash, for the credential provider. */
    password: text("password"),
    ...authTimestamps,
  },
  (table) => [index("account_user_idx").on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...authTimestamps,
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/** better-auth's own rate-limit counters, in the database so that every instance shares them. */
export const authRateLimit = pgTable("auth_rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * The patient's own details, one row per user, created in the same transaction as the user.
 * Special-category data (NHS number, ethnicity) lives here and is only read for its owner.
 */
export const profile = pgTable("profile", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .unique()
    .references(() => user.id, { onDelete: "cascade" }),
  /** The short, non-guessable reference shown as "ID: MHAT…". */
  reference: text("reference").notNull().unique(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  gender: text("gender"),
  dateOfBirth: date("date_of_birth", { mode: "string" }),
  ethnicity: text("ethnicity"),
  occupation: text("occupation"),
  phone: text("phone").notNull(),
  email: text("email").notNull(),
  homeAddressLine1: text("home_address_line_1").notNull(),
  homeAddressLine2: text("home_address_line_2"),
  homePostcode: text("home_postcode").notNull(),
  homeCountry: text("home_country").notNull(),
  billingAddress: text("billing_address"),
  nhsNumber: text("nhs_number"),
  ...authTimestamps,
});

/* ---------- Bookings, consent, payments and results ---------- */

/**
 * held → awaiting_payment → confirmed; or expired (the hold ran out, or the worker cleared it)
 * and cancelled (a refused payment, or staff). `confirmed` takes a place; `held` and
 * `awaiting_payment` take one while `hold_expires_at` is ahead. The stages and the steps between
 * them are `app/domain/booking-lifecycle.ts`.
 */
export const bookingStatus = pgEnum("booking_status", BOOKING_STATUSES);

/**
 * not_required: a free event (the spec's "paid" for free bookings); unpaid: nothing taken yet;
 * pending: PayPal holds the capture for review; paid: captured (the spec's "paid by card");
 * refunded: money given back.
 */
export const paymentStatus = pgEnum("payment_status", PAYMENT_STATUSES);

/** One person's place at one time slot of one event. */
export const booking = pgTable(
  "booking",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** "MHAT-7KQ3-9XZ2": short, unguessable, easy to read out on the phone. */
    reference: text("reference").notNull().unique(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => event.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    /** The appointment's start, "HH:mm" London wall-clock time. */
    slotTime: text("slot_time").notNull(),
    status: bookingStatus("status").notNull().default("held"),
    /** While held or awaiting payment, the place is kept until this instant. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    /** Priced from the event when the place was held; 0 when the visitor does not pay. */
    pricePence: integer("price_pence").notNull(),
    paymentRequired: boolean("payment_required").notNull(),
    paymentStatus: paymentStatus("payment_status").notNull(),
    /** "paypal" or "simulated": who the current order is with. */
    paymentProvider: text("payment_provider"),
    /** The current PayPal order; earlier ones stay in payment_transaction. */
    paymentOrderId: text("payment_order_id"),
    /** The PayPal-Request-Id of the capture of the current order, reused only after no response. */
    captureRequestId: text("capture_request_id"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Who cancelled a cancelled booking: the patient himself, staff, or a refused payment. */
    cancelledBy: text("cancelled_by", { enum: ["patient", "staff", "payment"] }),
    /**
     * The patient cancelled in time for a full refund, which is still owed: the booking worker
     * keeps trying until it is made (cleared when the booking is marked refunded).
     */
    refundOwed: boolean("refund_owed").notNull().default(false),
    /** 0 for the first time booked, one more for each change of time (each has its own calendar UID). */
    calendarVersion: integer("calendar_version").notNull().default(0),
    /** When the reminder before the appointment was queued; set once, by one worker. */
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    /** Check-in on the day (back office). */
    arrivedAt: timestamp("arrived_at", { withTimezone: true }),
    noShowAt: timestamp("no_show_at", { withTimezone: true }),
    sampleId: text("sample_id"),
    sampleTakenAt: timestamp("sample_taken_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One person, one active booking per event; an expired or cancelled one does not count.
    uniqueIndex("booking_one_active_per_person")
      .on(table.eventId, table.userId)
      .where(sql`${table.status} in ('held', 'awaiting_payment', 'confirmed')`),
    index("booking_active_slot_idx")
      .on(table.eventId, table.slotTime)
      .where(sql`${table.status} in ('held', 'awaiting_payment', 'confirmed')`),
    index("booking_user_idx").on(table.userId),
    uniqueIndex("booking_payment_order_key").on(table.paymentOrderId),
    // Results are matched by sample id, so one id names one booking, whatever its letters' case.
    uniqueIndex("booking_sample_id_key")
      .on(sql`upper(${table.sampleId})`)
      .where(sql`${table.sampleId} is not null`),
    check("booking_slot_time_check", sql`${table.slotTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check("booking_price_check", sql`${table.pricePence} >= 0`),
  ],
);

/**
 * Explicit consent (UK GDPR Art. 9) to the screening and the handling of health data, with the
 * version of the wording agreed to. A booking's consent, or (from /test-consent) one for a test date.
 */
export const consent = pgTable(
  "consent",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingId: uuid("booking_id").references(() => booking.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    testDate: date("test_date", { mode: "string" }).notNull(),
    /**
     * The consent form's answers in the spec's field names (health data: never logged or mailed).
     * Null once shredded: after CONSENT_RETENTION_DAYS, or when the person deleted his account.
     */
    answers: jsonb("answers"),
    /** When the answers were shredded; the fact of consent, its date and wording version stay. */
    answersErasedAt: timestamp("answers_erased_at", { withTimezone: true }),
    gpConsent: boolean("gp_consent").notNull().default(false),
    wordingVersion: text("wording_version").notNull(),
    agreedAt: timestamp("agreed_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("consent_booking_idx").on(table.bookingId),
    index("consent_user_idx").on(table.userId),
  ],
);

export const paymentTransactionKind = pgEnum("payment_transaction_kind", [
  "create",
  "capture",
  "refund",
  "reconcile",
]);

/** Every payment-provider answer the site acted on, as received (no health data in them). */
export const paymentTransaction = pgTable(
  "payment_transaction",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => booking.id),
    kind: paymentTransactionKind("kind").notNull(),
    provider: text("provider").notNull(),
    orderId: text("order_id"),
    captureId: text("capture_id"),
    /** The order's or capture's status, or the error's name. */
    status: text("status").notNull(),
    requestId: text("request_id"),
    debugId: text("debug_id"),
    issue: text("issue"),
    amountPence: integer("amount_pence"),
    raw: jsonb("raw"),
    createdAt: createdAt(),
  },
  (table) => [
    index("payment_transaction_booking_idx").on(table.bookingId),
    index("payment_transaction_order_idx").on(table.orderId),
    // A capture replayed any number of times is recorded once.
    uniqueIndex("payment_transaction_capture_key")
      .on(table.captureId)
      .where(sql`${table.kind} = 'capture'`),
    // A booking is refunded in full once, however often the refund is retried.
    uniqueIndex("payment_transaction_refund_key")
      .on(table.bookingId)
      .where(sql`${table.kind} = 'refund' AND ${table.status} in ('COMPLETED', 'PENDING')`),
  ],
);

export const resultFlag = pgEnum("result_flag", ["green", "amber", "red"]);

/** A laboratory result for one booking. Patients see it only once staff have released it. */
export const testResult = pgTable(
  "test_result",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingId: uuid("booking_id")
      .notNull()
      .unique()
      .references(() => booking.id),
    /** PSA as the laboratory reports it, e.g. "1.23" (kept as text: no rounding on the way). */
    psaValue: text("psa_value"),
    unit: text("unit").notNull().default("ng/ml"),
    /** Set by a clinician: green (retest in 1–3 years), amber (repeat in 3 months), red (see GP). */
    flag: resultFlag("flag"),
    retestYears: integer("retest_years"),
    comments: text("comments"),
    sampleDate: date("sample_date", { mode: "string" }),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    /** The clinician who confirmed the flag and released it. */
    releasedBy: text("released_by"),
    /** The flag suggested from the age thresholds when the value came in (null: none applies). */
    suggestedFlag: resultFlag("suggested_flag"),
    importedAt: timestamp("imported_at", { withTimezone: true }),
    importedBy: text("imported_by"),
    /** Set when a released result is changed; the patient is told and the audit log keeps the change. */
    correctedAt: timestamp("corrected_at", { withTimezone: true }),
    /**
     * Set when his date of birth changed after release into another age band than the one his
     * flag was decided for (releasedFlagNeedsCheck); cleared only by a clinician: a new flag or
     * retest interval, or "The flag stands".
     */
    flagCheckSince: timestamp("flag_check_since", { withTimezone: true }),
    /**
     * His age at the sample as the clinician saw it when the flag he was given was last decided:
     * at release, at a correction of the flag or retest interval, or when it stood. A changed date
     * of birth is checked against its band. Null: his age was unknown then.
     */
    flagDecidedAge: integer("flag_decided_age"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "test_result_retest_check",
      sql`${table.retestYears} is null or ${table.retestYears} in (1, 2, 3)`,
    ),
  ],
);

/**
 * Age bands whose PSA at or above the threshold suggests a flag (amber) for the clinician.
 * Bands without a threshold suggest nothing: the clinician sets the flag.
 */
export const psaThreshold = pgTable(
  "psa_threshold",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    minAge: integer("min_age").notNull(),
    maxAge: integer("max_age").notNull(),
    /** ng/ml, as text with two decimals ("1.00"), compared as numbers. */
    thresholdNgMl: text("threshold_ng_ml"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by"),
  },
  (table) => [
    uniqueIndex("psa_threshold_band_key").on(table.minAge, table.maxAge),
    check(
      "psa_threshold_band_check",
      sql`${table.minAge} >= 0 AND ${table.maxAge} >= ${table.minAge}`,
    ),
  ],
);

/**
 * An uploaded laboratory results file between its preview and its commit: the parsed rows with
 * each row's errors. Belongs to the clinician who uploaded it.
 */
export const resultImport = pgTable("result_import", {
  id: uuid("id").primaryKey().defaultRandom(),
  uploadedBy: text("uploaded_by")
    .notNull()
    .references(() => user.id),
  filename: text("filename"),
  rows: jsonb("rows").notNull(),
  committedAt: timestamp("committed_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Every version of a released result that a correction replaced, as the patient saw it: the
 * clinical record of what was shown and when. Append-only, like the audit log.
 */
export const testResultRevision = pgTable(
  "test_result_revision",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    testResultId: uuid("test_result_id")
      .notNull()
      .references(() => testResult.id),
    psaValue: text("psa_value"),
    unit: text("unit").notNull(),
    flag: resultFlag("flag"),
    retestYears: integer("retest_years"),
    comments: text("comments"),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releasedBy: text("released_by"),
    /** When it was replaced, by whom, and why (a code from the correction form's list). */
    replacedAt: timestamp("replaced_at", { withTimezone: true }).notNull().defaultNow(),
    replacedBy: text("replaced_by").notNull(),
    reason: text("reason").notNull(),
  },
  (table) => [index("test_result_revision_result_idx").on(table.testResultId)],
);

/**
 * What the clinic keeps of a released result after its patient deleted his account: the minimum
 * that identifies whose result it is (name, date of birth, NHS number, sample id and date), kept
 * apart from the anonymised account until `retainUntil` (RESULT_RETENTION_YEARS after release),
 * then erased by the booking worker together with the result it names.
 */
export const retainedResult = pgTable(
  "retained_result",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    testResultId: uuid("test_result_id")
      .notNull()
      .unique()
      .references(() => testResult.id),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    dateOfBirth: date("date_of_birth", { mode: "string" }),
    nhsNumber: text("nhs_number"),
    sampleId: text("sample_id"),
    sampleDate: date("sample_date", { mode: "string" }),
    /** When the account was erased. */
    accountErasedAt: timestamp("account_erased_at", { withTimezone: true }).notNull(),
    retainUntil: timestamp("retain_until", { withTimezone: true }).notNull(),
  },
  (table) => [index("retained_result_until_idx").on(table.retainUntil)],
);

export const waitlistStatus = pgEnum("waitlist_status", WAITLIST_STATUSES);

/**
 * The waiting list of a fully booked event: one row per person per time they joined, in the
 * order they joined. An offer holds a place at `offered_slot_time` until `offer_expires_at` and
 * counts as a place taken (`placesTaken`). See `app/domain/waitlist.ts` for the statuses.
 */
export const waitlistEntry = pgTable(
  "waitlist_entry",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => event.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    status: waitlistStatus("status").notNull().default("waiting"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
    /** The time held for them, "HH:mm" London wall-clock, while offered (kept afterwards). */
    offeredSlotTime: text("offered_slot_time"),
    offeredAt: timestamp("offered_at", { withTimezone: true }),
    /** The offer holds its place until this instant. */
    offerExpiresAt: timestamp("offer_expires_at", { withTimezone: true }),
    /** The hold made when the offer was taken. */
    bookingId: uuid("booking_id").references(() => booking.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One person, one place in the queue per event; leaving or lapsing frees them to join again.
    uniqueIndex("waitlist_entry_one_active_per_person")
      .on(table.eventId, table.userId)
      .where(sql`${table.status} in ('waiting', 'offered')`),
    index("waitlist_entry_active_idx")
      .on(table.eventId, table.joinedAt)
      .where(sql`${table.status} in ('waiting', 'offered')`),
    index("waitlist_entry_user_idx").on(table.userId),
    check(
      "waitlist_entry_offer_check",
      sql`${table.status} <> 'offered' or (${table.offeredSlotTime} is not null and ${table.offerExpiresAt} is not null)`,
    ),
  ],
);
