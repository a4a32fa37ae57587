CREATE TYPE "public"."booking_status" AS ENUM('held', 'awaiting_payment', 'confirmed', 'expired', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('not_required', 'unpaid', 'pending', 'paid', 'refunded');--> statement-breakpoint
CREATE TYPE "public"."payment_transaction_kind" AS ENUM('create', 'capture', 'refund', 'reconcile');--> statement-breakpoint
CREATE TYPE "public"."result_flag" AS ENUM('green', 'amber', 'red');--> statement-breakpoint
CREATE TABLE "booking" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"slot_time" text NOT NULL,
	"status" "booking_status" DEFAULT 'held' NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"price_pence" integer NOT NULL,
	"payment_required" boolean NOT NULL,
	"payment_status" "payment_status" NOT NULL,
	"payment_provider" text,
	"payment_order_id" text,
	"capture_request_id" text,
	"confirmed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	"no_show_at" timestamp with time zone,
	"sample_id" text,
	"sample_taken_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_reference_unique" UNIQUE("reference"),
	CONSTRAINT "booking_slot_time_check" CHECK ("booking"."slot_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "booking_price_check" CHECK ("booking"."price_pence" >= 0)
);
--> statement-breakpoint
CREATE TABLE "consent" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid,
	"user_id" text NOT NULL,
	"test_date" date NOT NULL,
	"answers" jsonb NOT NULL,
	"gp_consent" boolean DEFAULT false NOT NULL,
	"wording_version" text NOT NULL,
	"agreed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_transaction" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"kind" "payment_transaction_kind" NOT NULL,
	"provider" text NOT NULL,
	"order_id" text,
	"capture_id" text,
	"status" text NOT NULL,
	"request_id" text,
	"debug_id" text,
	"issue" text,
	"amount_pence" integer,
	"raw" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_result" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"psa_value" text,
	"unit" text DEFAULT 'ng/ml' NOT NULL,
	"flag" "result_flag",
	"retest_years" integer,
	"comments" text,
	"sample_date" date,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_result_booking_id_unique" UNIQUE("booking_id"),
	CONSTRAINT "test_result_retest_check" CHECK ("test_result"."retest_years" is null or "test_result"."retest_years" in (1, 2, 3))
);
--> statement-breakpoint
ALTER TABLE "outbox_email" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent" ADD CONSTRAINT "consent_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent" ADD CONSTRAINT "consent_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_transaction" ADD CONSTRAINT "payment_transaction_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_result" ADD CONSTRAINT "test_result_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_one_active_per_person" ON "booking" USING btree ("event_id","user_id") WHERE "booking"."status" in ('held', 'awaiting_payment', 'confirmed');--> statement-breakpoint
CREATE INDEX "booking_active_slot_idx" ON "booking" USING btree ("event_id","slot_time") WHERE "booking"."status" in ('held', 'awaiting_payment', 'confirmed');--> statement-breakpoint
CREATE INDEX "booking_user_idx" ON "booking" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_payment_order_key" ON "booking" USING btree ("payment_order_id");--> statement-breakpoint
CREATE INDEX "consent_booking_idx" ON "consent" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "consent_user_idx" ON "consent" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payment_transaction_booking_idx" ON "payment_transaction" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payment_transaction_order_idx" ON "payment_transaction" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_transaction_capture_key" ON "payment_transaction" USING btree ("capture_id") WHERE "payment_transaction"."kind" = 'capture';