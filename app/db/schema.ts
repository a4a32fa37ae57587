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
});

/** Newsletter sign-ups. One row per address: subscribing again updates the name. */
export const newsletterSubscription = pgTable(
  "newsletter_subscription",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    hearAboutEvents: boolean("hear_about_events").notNull().default(true),
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

/**
 * A screening event. Dates and times are London wall-clock values; rules turn them into instants.
 * Capacity: `totalSpaces` for the event and `placesPerSlot` for each time slot; `bookedSpaces` is
 * kept by the booking transaction, under a row lock.
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
    bookedSpaces: integer("booked_spaces").notNull().default(0),
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
    createdAt: createdAt(),
  },
  (table) => [
    index("event_date_idx").on(table.eventDate),
    check("event_spaces_check", sql`${table.bookedSpaces} >= 0 AND ${table.totalSpaces} >= 0`),
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
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("event_access_code_hash_key").on(table.eventId, table.codeHash)],
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
  ...authTimestamps,
});

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
 * and cancelled (a refused payment, or later the person or staff). Only `confirmed` counts in
 * `event.booked_spaces`; `held` and `awaiting_payment` take a place while `hold_expires_at` is ahead.
 */
export const bookingStatus = pgEnum("booking_status", [
  "held",
  "awaiting_payment",
  "confirmed",
  "expired",
  "cancelled",
]);

/**
 * not_required: a free event (the spec's "paid" for free bookings); unpaid: nothing taken yet;
 * pending: PayPal holds the capture for review; paid: captured (the spec's "paid by card");
 * refunded: money given back.
 */
export const paymentStatus = pgEnum("payment_status", [
  "not_required",
  "unpaid",
  "pending",
  "paid",
  "refunded",
]);

/** The statuses that take a place (the first two only until their hold expires). */
export const ACTIVE_BOOKING_STATUSES = ["held", "awaiting_payment", "confirmed"] as const;

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
    /** The consent form's answers in the spec's field names (health data: never logged or mailed). */
    answers: jsonb("answers").notNull(),
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
